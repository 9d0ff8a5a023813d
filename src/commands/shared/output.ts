// Which output format a data command uses. Light on purpose: commands call it while parsing flags,
// before any renderer is loaded.
import { defaultOutputFormat, type Context, type OutputFormat } from "../../context.js";

/** --output if given; otherwise what the I/O object says suits stdout (a table for a person). */
export function resolveOutputFormat(ctx: Context): OutputFormat {
  return ctx.globals.output ?? defaultOutputFormat(ctx.io);
}
