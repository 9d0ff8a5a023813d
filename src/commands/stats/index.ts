// Placeholder: replaced by the issue that implements `mq stats`.
import { Command } from "commander";
import type { Context } from "../../context.js";
import { MqError, ExitCode } from "../../errors.js";

export function NewCmdStats(_ctx: Context): Command {
  return new Command("stats").description("(not implemented yet)").action(() => {
    throw new MqError("mq stats is not implemented yet", ExitCode.INTERNAL);
  });
}
