// The values no message may show, gathered before commander parses anything: commander echoes
// arguments in its errors ("unknown option '--<token>'", "unknown command '<token>'"), and so do
// mq's own ("--pr must be an integer ..., not \"<token>\""), before any command has resolved a token.
import type { Context } from "./context.js";
import { storedTokens } from "./config/file.js";

/** Tokens from the environment and from --token on the command line, added to ctx.secrets. */
export function registerCommandLineSecrets(ctx: Context, argv: readonly string[]): void {
  const add = (value: string | undefined) => {
    if (value === undefined) return;
    if (value !== "") ctx.secrets.add(value);
    if (value.trim() !== "") ctx.secrets.add(value.trim());
  };
  add(ctx.env.MQ_TOKEN);
  add(ctx.env.MERGIFY_TOKEN);
  argv.forEach((arg, i) => {
    if (arg === "--token") add(argv[i + 1]);
    else if (arg.startsWith("--token=")) add(arg.slice("--token=".length));
  });
}

const withStored = new WeakSet<Context>();

/**
 * ctx.secrets, plus every token stored in the config file: read once, synchronously, only when a
 * message is about to be printed (commander's output hook cannot wait), so a run that prints no
 * error never reads the file for this.
 */
export function messageSecrets(ctx: Context): Set<string> {
  if (!withStored.has(ctx)) {
    withStored.add(ctx);
    let dir: string | undefined;
    try {
      dir = ctx.configDir();
    } catch {
      // no config folder (no home): no stored tokens to hide; that error is reported where it arises
    }
    if (dir !== undefined) for (const token of storedTokens(dir)) ctx.secrets.add(token);
  }
  return ctx.secrets;
}
