// Builds the command tree. Only commander and light modules load here: each command imports its
// heavy dependencies (zod, undici, cli-table3, ora, conf, the server) inside its run function.
import { Command, CommanderError } from "commander";
import { version } from "../package.json";
import type { Context } from "./context.js";
import { addGlobalOptions, readGlobals } from "./commands/global-options.js";
import { NewCmdLogs } from "./commands/logs.js";
import { NewCmdStats } from "./commands/stats/index.js";
import { NewCmdServe } from "./commands/serve.js";
import { NewCmdAuth } from "./commands/auth/index.js";
import { NewCmdConfig } from "./commands/config.js";
import { NewCmdCompletion } from "./commands/completion.js";
import { EXIT_CODE_TABLE } from "./errors.js";

export const VERSION: string = version;

export function buildProgram(ctx: Context): Command {
  const program = new Command("mq")
    .description("Query a merge queue's event log and statistics from the terminal, scripts and CI.")
    .version(VERSION, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .showSuggestionAfterError(true)
    .addHelpText(
      "after",
      `\nExamples:\n  $ mq --offline logs --repo acme/web --limit 5\n  $ mq --offline stats failure-rate --repo acme/web --since 7d\n  $ mq auth login --with-token < token.txt\n\nExit codes:\n${EXIT_CODE_TABLE.map(([c, d]) => `  ${String(c).padEnd(4)}${d}`).join("\n")}`,
    );
  addGlobalOptions(program);

  program.addCommand(NewCmdLogs(ctx));
  program.addCommand(NewCmdStats(ctx));
  program.addCommand(NewCmdServe(ctx));
  program.addCommand(NewCmdAuth(ctx));
  program.addCommand(NewCmdConfig(ctx));
  program.addCommand(NewCmdCompletion(ctx));

  for (const cmd of walk(program)) {
    if (cmd !== program) addGlobalOptions(cmd);
    configureCommand(cmd, ctx);
  }
  program.hook("preAction", (_root, actionCommand) => {
    ctx.globals = readGlobals(actionCommand);
  });
  return program;
}

export function* walk(cmd: Command): Generator<Command> {
  yield cmd;
  for (const sub of cmd.commands) yield* walk(sub);
}

function configureCommand(cmd: Command, ctx: Context): void {
  cmd.exitOverride();
  cmd.configureOutput({
    writeOut: (s) => void ctx.io.stdout.write(s),
    writeErr: (s) => void ctx.io.stderr.write(s),
    // commander's two-line "error: ...\n(Did you mean ...?)" becomes one line in mq's voice
    outputError: (s, write) => write(`mq: ${s.replace(/^error: /, "").replace(/\n\(Did you mean (.*)\?\)/, " (did you mean $1?)").trimEnd()}\n`),
    getOutHelpWidth: () => Math.min(ctx.io.columns, 100),
    getErrHelpWidth: () => Math.min(ctx.io.columns, 100),
  });
}

export { CommanderError };
