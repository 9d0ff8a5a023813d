// `mq auth logout`: remove the stored token for the API URL in effect.
import { Command } from "commander";
import type { Context } from "../../context.js";
import { resolveApiUrl } from "../../config/resolve.js";

export type AuthLogoutOptions = Record<string, never>;

export function NewCmdAuthLogout(ctx: Context, runF?: (opts: AuthLogoutOptions) => Promise<void>): Command {
  return new Command("logout").description("remove the stored token for the API URL in effect").action(async () => {
    await (runF ?? ((o) => runAuthLogout(o, ctx)))({});
  });
}

export async function runAuthLogout(_opts: AuthLogoutOptions, ctx: Context): Promise<void> {
  const api = await resolveApiUrl(ctx);
  const config = await ctx.config();
  const err = ctx.io.stderr;
  // idempotent, so scripts can log out without checking first
  if (config.deleteToken(api.url)) err.write(`Logged out of ${api.url}: the token was removed from ${config.path}\n`);
  else err.write(`No token was stored for ${api.url}\n`);
  for (const name of ["MQ_TOKEN", "MERGIFY_TOKEN"]) {
    if (ctx.env[name]?.trim()) err.write(`note: $${name} is still set and still used\n`);
  }
}
