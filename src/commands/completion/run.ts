// `mq completion`'s run: the script for one shell, generated from the command tree. Loaded when
// `mq completion` runs (cli.ts).
import type { Context } from "../../context.js";
import { generateCompletion } from "./generate.js";
import type { CompletionOptions } from "./index.js";

export async function runCompletion(opts: CompletionOptions, ctx: Context): Promise<void> {
  ctx.io.stdout.write(generateCompletion(opts.shell, opts.root));
}
