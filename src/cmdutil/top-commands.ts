// The top-level commands as `mq --help` lists them: each command's one-line description (its flag
// module gives its Command this text) and the term the list shows (its name, "[options]" when it
// has options of its own, its arguments). `mq --help` lists them from here without loading a
// single flag module; test/cli.test.ts checks that the list agrees with the commands as built.

/** name → [the term `mq --help` lists, the description], in the order `mq --help` lists them */
export const TOP_COMMANDS = {
  logs: ["logs [options]", "List the repository's merge queue events (newest first), or follow them as they arrive."],
  stats: ["stats [subcommand]", "queue and CI statistics: one subcommand per endpoint, charts, CI thresholds"],
  insights: [
    "insights [options]",
    "percentiles of time to merge, queue, CI and waiting time, stay failure rate, throughput, exit reasons and slowest PRs, against a previous window",
  ],
  prs: ["prs [options]", "one row per queue stay in the window: pull request, queue, time in queue, waiting, CI, retries, outcome"],
  pr: ["pr [options] <number>", "one pull request's way through the queue: each stay step by step, the wait before each step, its checks"],
  queue: [
    "queue [options]",
    "the merge queue now, rebuilt from the event log: position, state and estimated merge time of each pull request",
  ],
  why: [
    "why [options] <number>",
    "why a pull request left the queue, or is still in it: failing checks and their links, the culprit of a batch, the next step",
  ],
  wait: [
    "wait [options] <number>",
    "wait until a pull request leaves its queue: exit 0 when merged, 1 when it left without merging, 124 after --max-wait",
  ],
  serve: ["serve [options]", "run the bundled local server: the whole API over a deterministic simulated history (or a recorded log)"],
  exporter: [
    "exporter [options]",
    "serve Prometheus metrics of each repository's merge queue, following its event log (runs until stopped)",
  ],
  archive: ["archive", "keep the event log in a local database: sync it, see what it holds, query it with SQL, export it as Parquet"],
  auth: ["auth", "log in with an API token, show which token is in effect, log out"],
  config: ["config", "read and change settings: api-url, repo, output, color, timeout"],
  completion: ["completion <shell>", "print a shell completion script (bash, zsh or fish)"],
} as const satisfies Record<string, readonly [term: string, description: string]>;

export type TopCommand = keyof typeof TOP_COMMANDS;

/** The one-line description of top-level command NAME (its flag module's Command says it). */
export const describeCommand = (name: TopCommand): string => TOP_COMMANDS[name][1];
