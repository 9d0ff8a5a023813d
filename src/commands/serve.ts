// Placeholder: replaced by the issue that implements `mq serve`.
import { Command } from "commander";
import type { Context } from "../context.js";
import { MqError, ExitCode } from "../errors.js";

export function NewCmdServe(_ctx: Context): Command {
  return new Command("serve").description("(not implemented yet)").action(() => {
    throw new MqError("mq serve is not implemented yet", ExitCode.INTERNAL);
  });
}
