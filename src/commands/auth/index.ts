// Placeholder: replaced by the issue that implements `mq auth`.
import { Command } from "commander";
import type { Context } from "../../context.js";
import { MqError, ExitCode } from "../../errors.js";

export function NewCmdAuth(_ctx: Context): Command {
  return new Command("auth").description("(not implemented yet)").action(() => {
    throw new MqError("mq auth is not implemented yet", ExitCode.INTERNAL);
  });
}
