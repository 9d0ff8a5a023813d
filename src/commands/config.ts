// Placeholder: replaced by the issue that implements `mq config`.
import { Command } from "commander";
import type { Context } from "../context.js";
import { MqError, ExitCode } from "../errors.js";

export function NewCmdConfig(_ctx: Context): Command {
  return new Command("config").description("(not implemented yet)").action(() => {
    throw new MqError("mq config is not implemented yet", ExitCode.INTERNAL);
  });
}
