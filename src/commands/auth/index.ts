// `mq auth`: log in once (a token stored per API URL), see which token is in effect, log out,
// print the token for scripts. The token is never taken from a positional argument.
import { Command } from "commander";
import type { Context } from "../../context.js";
import { type AuthLoginOptions, NewCmdAuthLogin } from "./login.js";
import { type AuthStatusOptions, NewCmdAuthStatus } from "./status.js";
import { type AuthLogoutOptions, NewCmdAuthLogout } from "./logout.js";
import { type AuthTokenOptions, NewCmdAuthToken } from "./token.js";
import { describeCommand } from "../../cmdutil/top-commands.js";

/** What each subcommand runs (run.ts, loaded by cli.ts when one runs; a spy in tests). */
export interface AuthRuns {
  login: (opts: AuthLoginOptions) => Promise<void>;
  status: (opts: AuthStatusOptions) => Promise<void>;
  logout: (opts: AuthLogoutOptions) => Promise<void>;
  token: (opts: AuthTokenOptions) => Promise<void>;
}

export function NewCmdAuth(ctx: Context, runs: AuthRuns): Command {
  return new Command("auth")
    .description(describeCommand("auth"))
    .addCommand(NewCmdAuthLogin(ctx, runs.login))
    .addCommand(NewCmdAuthStatus(ctx, runs.status))
    .addCommand(NewCmdAuthLogout(ctx, runs.logout))
    .addCommand(NewCmdAuthToken(ctx, runs.token));
}
