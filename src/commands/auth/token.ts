// `mq auth token`: print the token in effect, raw, for scripts (`curl -H "Authorization: Bearer $(mq auth token)"`).
import { Command } from "commander";
import type { Context } from "../../context.js";
import { resolveApiUrl, resolveToken } from "../../config/resolve.js";
import { AuthError } from "../../errors.js";

export type AuthTokenOptions = Record<string, never>;

export function NewCmdAuthToken(ctx: Context, runF?: (opts: AuthTokenOptions) => Promise<void>): Command {
  return new Command("token").description("print the token in effect (unmasked) to standard output, for scripts").action(async () => {
    await (runF ?? ((o) => runAuthToken(o, ctx)))({});
  });
}

export async function runAuthToken(_opts: AuthTokenOptions, ctx: Context): Promise<void> {
  const api = await resolveApiUrl(ctx);
  const found = await resolveToken(ctx, api.url);
  if (found === undefined) throw new AuthError(`not logged in to ${api.url}`, "run mq auth login, or set MQ_TOKEN");
  ctx.io.writeText(`${found.token}\n`);
}
