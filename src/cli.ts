// Builds the command tree from the commands' flag modules (commander and light modules only); a
// command's run module, with everything it needs, is loaded through RUN when that command runs.
import { Command, Help } from "commander";
import { version } from "../package.json";
import type { Context } from "./context.js";
import { ensureGlobalOptions, readGlobals } from "./cmdutil/global-options.js";
import { redact } from "./errors.js";
import { examplesHelpText } from "./help/command-examples.js";
import { messageSecrets } from "./secrets.js";
import { fitHelpText } from "./output/help-text.js";
import { exitCodesText, TOPIC_NAMES } from "./help/topic-names.js";
import { applyConfigDefaults } from "./config/resolve.js";
import { TOP_COMMANDS } from "./cmdutil/top-commands.js";
import { FLAGS } from "./command-flags.js";

const DATA_COMMANDS = new Set(["logs", "stats", "archive", "insights", "prs", "pr", "queue", "why", "wait", "exporter"]);

/**
 * A command's code, loaded at this one boundary: its flag module (NewCmdX, the flags and their
 * checks: FLAGS, src/command-flags.ts) when the command line names the command or the whole tree is
 * built, its run module (everything the run needs, imported statically) when the command runs.
 * `mq auth status` then evaluates the auth command's modules only, not the stats endpoints and
 * figures the other commands' flags are made of. test/lazy-imports.test.ts keeps it so.
 */
const RUN = {
  logs: () => import("./commands/logs/run.js"),
  stats: () => import("./commands/stats/run.js"),
  insights: () => import("./commands/insights/run.js"),
  prs: () => import("./commands/insights/prs-run.js"),
  pr: () => import("./commands/insights/pr-run.js"),
  queue: () => import("./commands/queue/run.js"),
  why: () => import("./commands/why/run.js"),
  wait: () => import("./commands/wait/run.js"),
  serve: () => import("./commands/serve/run.js"),
  archive: () => import("./commands/archive/run.js"),
  exporter: () => import("./commands/exporter/run.js"),
  auth: () => import("./commands/auth/run.js"),
  config: () => import("./commands/config/run.js"),
  completion: () => import("./commands/completion/run.js"),
  help: () => import("./commands/help/run.js"),
};

/** Builds a command from its flag module, handing it its run functions. */
type Builder = (ctx: Context) => Command;

/**
 * The top-level commands, by the name a command line gives them: each loads its flag module and
 * returns its builder. `mq --help` loads none of them: it lists them from TOP_COMMANDS.
 */
const COMMANDS: ReadonlyArray<readonly [keyof typeof TOP_COMMANDS, () => Promise<Builder>]> = [
  [
    "logs",
    async () => {
      const { NewCmdLogs } = await FLAGS.logs();
      return (ctx) =>
        NewCmdLogs(ctx, {
          logs: async (o) => (await RUN.logs()).runLogs(o, ctx),
          aggregate: async (o) => (await RUN.logs()).runLogsAggregate(o, ctx),
        });
    },
  ],
  [
    "stats",
    async () => {
      const { NewCmdStats } = await FLAGS.stats();
      return (ctx) =>
        NewCmdStats(
          ctx,
          async (o) => (await RUN.stats()).runStats(o, ctx),
          async (o) => (await RUN.stats()).runStatsSummary(o, ctx),
          async () => (await RUN.stats()).runStatsList(ctx),
        );
    },
  ],
  [
    "insights",
    async () => {
      const { NewCmdInsights } = await FLAGS.insights();
      return (ctx) => NewCmdInsights(ctx, async (o) => (await RUN.insights()).runInsights(o, ctx));
    },
  ],
  [
    "prs",
    async () => {
      const { NewCmdPrs } = await FLAGS.prs();
      return (ctx) => NewCmdPrs(ctx, async (o) => (await RUN.prs()).runPrs(o, ctx));
    },
  ],
  [
    "pr",
    async () => {
      const { NewCmdPr } = await FLAGS.pr();
      return (ctx) => NewCmdPr(ctx, async (o) => (await RUN.pr()).runPr(o, ctx));
    },
  ],
  [
    "queue",
    async () => {
      const { NewCmdQueue } = await FLAGS.queue();
      return (ctx) => NewCmdQueue(ctx, async (o) => (await RUN.queue()).runQueue(o, ctx));
    },
  ],
  [
    "why",
    async () => {
      const { NewCmdWhy } = await FLAGS.why();
      return (ctx) => NewCmdWhy(ctx, async (o) => (await RUN.why()).runWhy(o, ctx));
    },
  ],
  [
    "wait",
    async () => {
      const { NewCmdWait } = await FLAGS.wait();
      return (ctx) => NewCmdWait(ctx, async (o) => (await RUN.wait()).runWait(o, ctx));
    },
  ],
  [
    "serve",
    async () => {
      const { NewCmdServe } = await FLAGS.serve();
      return (ctx) => NewCmdServe(ctx, async (o) => (await RUN.serve()).runServe(o, ctx));
    },
  ],
  [
    "exporter",
    async () => {
      const { NewCmdExporter } = await FLAGS.exporter();
      return (ctx) => NewCmdExporter(ctx, async (o) => (await RUN.exporter()).runExporter(o, ctx));
    },
  ],
  [
    "archive",
    async () => {
      const { NewCmdArchive } = await FLAGS.archive();
      return (ctx) =>
        NewCmdArchive(ctx, {
          sync: async (o) => (await RUN.archive()).runArchiveSync(o, ctx),
          status: async (o) => (await RUN.archive()).runArchiveStatus(o, ctx),
          query: async (o) => (await RUN.archive()).runArchiveQuery(o, ctx),
          export: async (o) => (await RUN.archive()).runArchiveExport(o, ctx),
        });
    },
  ],
  [
    "auth",
    async () => {
      const { NewCmdAuth } = await FLAGS.auth();
      return (ctx) =>
        NewCmdAuth(ctx, {
          login: async (o) => (await RUN.auth()).runAuthLogin(o, ctx),
          status: async (o) => (await RUN.auth()).runAuthStatus(o, ctx),
          logout: async (o) => (await RUN.auth()).runAuthLogout(o, ctx),
          token: async (o) => (await RUN.auth()).runAuthToken(o, ctx),
        });
    },
  ],
  [
    "config",
    async () => {
      const { NewCmdConfig } = await FLAGS.config();
      return (ctx) => NewCmdConfig(ctx, async (o) => (await RUN.config()).runConfig(o, ctx));
    },
  ],
  [
    "completion",
    async () => {
      const { NewCmdCompletion } = await FLAGS.completion();
      return (ctx) => NewCmdCompletion(ctx, async (o) => (await RUN.completion()).runCompletion(o, ctx));
    },
  ],
];

/** The top-level commands' names, in the order `mq --help` lists them (tests and completion read it). */
export const COMMAND_NAMES: readonly string[] = COMMANDS.map(([name]) => name);

/** Commands that run on their own subtree: all but completion, which describes the whole tree. */
export const SELF_CONTAINED: ReadonlySet<string> = new Set(COMMAND_NAMES.filter((name) => name !== "completion"));

/**
 * The top-level command ARGV runs, when it runs one that needs no other: `mq auth status` builds
 * the auth tree only (building all of them, the 18 stats subcommands with their options above
 * all, was a third of its start-up). Undefined for `mq --help`, `mq help ...`, completion, an
 * unknown name or option: those get the whole tree, and commander's own messages. PROGRAM holds
 * the options that may come before the command name (the global ones).
 */
export function commandToBuild(program: Command, argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") return selfContained(argv[i + 1]);
    if (!arg.startsWith("-") || arg === "-") return selfContained(arg);
    // --name=value, -xVALUE: the value is attached
    const flag = arg.startsWith("--") ? arg.split("=")[0]! : arg.slice(0, 2);
    const option = program.options.find((o) => o.long === flag || o.short === flag);
    // -h, -V and anything unknown: the whole tree, and commander decides
    if (option === undefined) return undefined;
    if ((option.required || option.optional) && flag === arg) i++;
  }
  return undefined;
}

const selfContained = (name: string | undefined) => (name !== undefined && SELF_CONTAINED.has(name) ? name : undefined);

/** `mq --help`, `mq -h`: options only, help among them; mq's own help lists the commands, no more. */
export function isRootHelp(argv: readonly string[]): boolean {
  return argv.some((a) => a === "-h" || a === "--help") && argv.every((a) => a.startsWith("-") && a !== "--");
}

/** The command tree; with ARGV, only the part that command line runs (see commandToBuild). */
export async function buildProgram(ctx: Context, argv?: readonly string[]): Promise<Command> {
  const program = new Command("mq")
    .description("Query a merge queue's event log and statistics from the terminal, scripts and CI.")
    .version(version, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .showSuggestionAfterError(true)
    // `mq help stats failure-rate` needs a help command that walks more than one level
    .helpCommand(false)
    // options are read by the command they follow: `mq logs aggregate --type x` is aggregate's
    // --type, not logs' (every command has the global options, so `mq logs --repo a/b` still works)
    .enablePositionalOptions();
  ensureGlobalOptions(program);
  const only = argv !== undefined ? commandToBuild(program, argv) : undefined;
  const listed = argv !== undefined && isRootHelp(argv);

  if (listed) {
    // names and descriptions only: the list is all `mq --help` shows of them, and they never run
    for (const [name, [, description]] of Object.entries(TOP_COMMANDS)) program.addCommand(new Command(name).description(description));
  } else {
    const builders = await Promise.all(COMMANDS.filter(([name]) => only === undefined || only === name).map(([, load]) => load()));
    for (const build of builders) program.addCommand(build(ctx));
  }
  if (only === undefined) program.addCommand(newHelpCommand(program, ctx));

  for (const cmd of listed ? [program] : walk(program)) {
    // a subcommand gets the global options when the command line reaches it, so that
    // `mq logs --repo a/b` and `mq --repo a/b logs` both work without building them all up front
    if (cmd.commands.length > 0) cmd.hook("preSubcommand", (_parent, sub) => void ensureGlobalOptions(sub));
    configureCommand(cmd, ctx);
    const examples = examplesHelpText(commandPath(cmd));
    if (examples) cmd.addHelpText("after", examples);
  }
  if (listed) program.configureHelp({ ...program.configureHelp(), subcommandTerm: listedTerm });
  program.addHelpText("after", `\n${exitCodesText().trimEnd()}`);
  program.hook("preAction", async (_root, actionCommand) => {
    ctx.globals = readGlobals(actionCommand);
    ctx.ranCommand = commandPath(actionCommand).split(" ")[0];
    // The data commands take output, color and timeout defaults from the config file; they read
    // the config for the token anyway, so this costs them nothing and leaves --help untouched.
    if (DATA_COMMANDS.has(commandPath(actionCommand).split(" ")[0]!)) {
      await applyConfigDefaults(ctx);
    }
  });
  return program;
}

/** A listed command's term in `mq --help`: TOP_COMMANDS's, as its built command would give it. */
function listedTerm(this: Help, cmd: Command): string {
  return Object.hasOwn(TOP_COMMANDS, cmd.name())
    ? TOP_COMMANDS[cmd.name() as keyof typeof TOP_COMMANDS][0]
    : Help.prototype.subcommandTerm.call(this, cmd);
}

export function* walk(cmd: Command): Generator<Command> {
  yield cmd;
  for (const sub of cmd.commands) yield* walk(sub);
}

/** "stats failure-rate" for `mq stats failure-rate`, "" for mq itself: the key of the examples. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

/** `mq help [command...]`: its flags here (the root help lists it), its run in commands/help/run.ts. */
function newHelpCommand(program: Command, ctx: Context): Command {
  return new Command("help")
    .description(`show help for a command, or a topic: ${TOPIC_NAMES.join(", ")}`)
    .argument("[command...]", "the command, e.g. logs or stats failure-rate, or a topic")
    .action(async (names: string[]) => (await RUN.help()).runHelp(names, program, ctx));
}

function configureCommand(cmd: Command, ctx: Context): void {
  cmd.exitOverride();
  cmd.configureOutput({
    // commander writes help (and the version) here: fitted to the width it wraps its own part to
    writeOut: (s) => ctx.io.writeText(fitHelpText(s, Math.min(ctx.io.columns, 100))),
    writeErr: (s) => void ctx.io.stderr.write(s),
    // commander's two-line "error: ...\n(Did you mean ...?)" becomes one line in mq's voice
    outputError: (s, write) =>
      write(
        redact(
          `mq: ${s
            .replace(/^error: /, "")
            .replace(/\n\(Did you mean (.*)\?\)/, " (did you mean $1?)")
            .trimEnd()}`,
          messageSecrets(ctx),
        ) + "\n",
      ),
    // mq's colour rules (--color, NO_COLOR, FORCE_COLOR), not commander's own reading of
    // process.stdout, which would build the stream a help page does not use (process-streams.ts)
    getOutHasColors: () => ctx.io.colorEnabled("stdout"),
    getErrHasColors: () => ctx.io.colorEnabled("stderr"),
    getOutHelpWidth: () => Math.min(ctx.io.columns, 100),
    getErrHelpWidth: () => Math.min(ctx.io.columns, 100),
  });
  // commander leaves a description unwrapped when less than 40 columns remain beside the flags:
  // at 60 columns every option's description ran past the edge and the terminal broke it mid-word
  cmd.configureHelp({
    minWidthToWrap: 20,
    // a word's width is its length when it holds no escape: commander's own strips colour codes
    // with a new regular expression and a new string for every word of the page (~100 KB of
    // garbage, and a garbage collection of every `mq --help` on Node 24); with colour, commander's
    displayWidth(this: Help, str: string): number {
      return str.includes("\x1b") ? Help.prototype.displayWidth.call(this, str) : str.length;
    },
  });
}
