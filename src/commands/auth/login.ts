// `mq auth login`: read a token from standard input (--with-token) or a hidden prompt, check it
// against the API (unless --no-check) and store it for the API URL in effect.
import { Command, Option } from "commander";
import type { Context } from "../../context.js";
import { UsageError } from "../../errors.js";

export interface AuthLoginOptions {
  withToken: boolean;
  check: boolean;
}

export function NewCmdAuthLogin(_ctx: Context, runF: (opts: AuthLoginOptions) => Promise<void>): Command {
  return (
    new Command("login")
      .description("check an API token against the API and store it for the API URL in effect")
      .option("--with-token", "read the token from standard input")
      .option(
        "--no-check",
        "store the token without checking it (by default mq GETs the repository's queue list with it first: the API URL answers and accepts the token for that repository)",
      )
      // --check was the opt-in before checking became the default; still accepted, a no-op
      .addOption(new Option("--check").hideHelp())
      // excess arguments are accepted only to refuse them with a better message than commander's
      .allowExcessArguments(true)
      .action(async (flags: { withToken?: boolean; check?: boolean }, cmd: Command) => {
        if (cmd.args.length > 0) {
          // never echo it: it is probably the token
          throw new UsageError(
            "mq auth login does not take the token as an argument (it would stay in shell history and the process list)",
            "pipe it in with: mq auth login --with-token < token.txt, or run mq auth login on a terminal to be prompted",
          );
        }
        const opts: AuthLoginOptions = { withToken: Boolean(flags.withToken), check: flags.check !== false };
        await runF(opts);
      })
  );
}
