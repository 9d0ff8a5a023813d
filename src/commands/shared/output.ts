// Which output format a data command uses. Light on purpose: commands call it while parsing flags,
// before any renderer is loaded.
import type { Context, OutputFormat } from "../../context.js";

/** --output if given; otherwise a table for a person at a terminal and ndjson for a pipe or file. */
export function resolveOutputFormat(ctx: Context): OutputFormat {
  if (ctx.globals.output) return ctx.globals.output;
  return ctx.io.stdoutIsTTY ? "table" : "ndjson";
}
