// Placeholder: replaced by the issue that implements `mq logs`.
import { Command } from "commander";
import type { Context } from "../context.js";
import { MqError, ExitCode } from "../errors.js";

export function NewCmdLogs(_ctx: Context): Command {
  return new Command("logs").description("(not implemented yet)").action(() => {
    throw new MqError("mq logs is not implemented yet", ExitCode.INTERNAL);
  });
}
