// `mq auth status`: which API URL and which token are in effect, and where each comes from.
// The token is shown masked; exit 4 when there is none.
import { Command } from "commander";
import type { Context } from "../../context.js";
import { resolveApiUrl, resolveToken, maskToken } from "../../config/resolve.js";
import { AuthError } from "../../errors.js";

export type AuthStatusOptions = Record<string, never>;

export function NewCmdAuthStatus(ctx: Context, runF?: (opts: AuthStatusOptions) => Promise<void>): Command {
  return new Command("status")
    .description("show the API URL and the token in effect (masked) and where they come from; exit 4 when there is no token")
    .action(async () => {
      await (runF ?? ((o) => runAuthStatus(o, ctx)))({});
    });
}

export async function runAuthStatus(_opts: AuthStatusOptions, ctx: Context): Promise<void> {
  // writeText: the whole answer in one write, no stream built for it on a pipe (context.ts)
  if (ctx.globals.offline) {
    ctx.io.writeText("API URL: the bundled offline server (--offline)\nToken:   none needed\n");
    return;
  }
  const api = await resolveApiUrl(ctx);
  const found = await resolveToken(ctx, api.url);
  const configPath = found?.source === "config" || api.source === "config" ? (await ctx.config()).path : "";
  if (found === undefined) {
    throw new AuthError(`not logged in to ${api.url}`, "run mq auth login, set MQ_TOKEN, or use --offline");
  }
  const apiFrom = api.source === "default" ? "default" : `from ${describeSource(api.source, configPath)}`;
  ctx.io.writeText(
    `API URL: ${api.url} (${apiFrom})\nToken:   ${maskToken(found.token)} (from ${describeSource(found.source, configPath)})\n`,
  );
}

/** How `mq auth status` names a source: the flag, the environment variable, or the config file. */
export function describeSource(source: string, configPath: string): string {
  if (source === "--token" || source === "--api-url") return `the ${source} flag`;
  if (source === "config") return configPath;
  return `$${source}`;
}
