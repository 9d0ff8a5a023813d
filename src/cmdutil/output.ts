// Which output format a data command uses. Light on purpose: commands call it while parsing flags,
// before any renderer is loaded.
import { FIGURE_FORMATS, OUTPUT_FORMATS, type Context, type OutputFormat } from "../context.js";
import { defaultOutputFormat } from "../iostreams/iostreams.js";
import { UsageError } from "../errors.js";

/**
 * --output if given; otherwise what the I/O object says suits stdout (a table for a person).
 * markdown and openmetrics are figures over a window: only commands that have them (`figures`) take them.
 */
export function resolveOutputFormat(ctx: Context, opts: { figures?: boolean; command?: string } = {}): OutputFormat {
  const format = ctx.globals.output ?? defaultOutputFormat(ctx.io);
  if (!opts.figures && FIGURE_FORMATS.includes(format)) {
    const takes = OUTPUT_FORMATS.filter((f) => !FIGURE_FORMATS.includes(f)).join(", ");
    throw new UsageError(
      `-o ${format} is for statistics (mq stats and mq stats summary)${opts.command ? `; ${opts.command} takes ${takes}` : `; use one of ${takes}`}.`,
    );
  }
  return format;
}
