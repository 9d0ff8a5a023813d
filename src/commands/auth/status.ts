// `mq auth status`: which API URL and which token are in effect, and where each comes from.
// The token is shown masked; exit 4 when there is none.
import { Command } from "commander";
import type { Context } from "../../context.js";

export type AuthStatusOptions = Record<string, never>;

export function NewCmdAuthStatus(_ctx: Context, runF: (opts: AuthStatusOptions) => Promise<void>): Command {
  return new Command("status")
    .description("show the API URL and the token in effect (masked) and where they come from; exit 4 when there is no token")
    .action(async () => {
      await runF({});
    });
}
