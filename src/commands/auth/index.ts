// `mq auth`: log in once (a token stored per API URL), see which token is in effect, log out,
// print the token for scripts. The token is never taken from a positional argument.
import { Command } from "commander";
import type { Context } from "../../context.js";
import { NewCmdAuthLogin } from "./login.js";
import { NewCmdAuthStatus } from "./status.js";
import { NewCmdAuthLogout } from "./logout.js";
import { NewCmdAuthToken } from "./token.js";

export function NewCmdAuth(ctx: Context): Command {
  return new Command("auth")
    .description("log in with an API token, show which token is in effect, log out")
    .addCommand(NewCmdAuthLogin(ctx))
    .addCommand(NewCmdAuthStatus(ctx))
    .addCommand(NewCmdAuthLogout(ctx))
    .addCommand(NewCmdAuthToken(ctx));
}
