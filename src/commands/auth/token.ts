// `mq auth token`: print the token in effect, raw, for scripts (`curl -H "Authorization: Bearer $(mq auth token)"`).
import { Command } from "commander";
import type { Context } from "../../context.js";

export type AuthTokenOptions = Record<string, never>;

export function NewCmdAuthToken(_ctx: Context, runF: (opts: AuthTokenOptions) => Promise<void>): Command {
  return new Command("token").description("print the token in effect (unmasked) to standard output, for scripts").action(async () => {
    await runF({});
  });
}
