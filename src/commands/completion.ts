// Placeholder: replaced by the issue that implements `mq completion`.
import { Command } from "commander";
import type { Context } from "../context.js";
import { MqError, ExitCode } from "../errors.js";

export function NewCmdCompletion(_ctx: Context): Command {
  return new Command("completion").description("(not implemented yet)").action(() => {
    throw new MqError("mq completion is not implemented yet", ExitCode.INTERNAL);
  });
}
