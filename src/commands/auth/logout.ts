// `mq auth logout`: remove the stored token for the API URL in effect.
import { Command } from "commander";
import type { Context } from "../../context.js";

export type AuthLogoutOptions = Record<string, never>;

export function NewCmdAuthLogout(_ctx: Context, runF: (opts: AuthLogoutOptions) => Promise<void>): Command {
  return new Command("logout").description("remove the stored token for the API URL in effect").action(async () => {
    await runF({});
  });
}
