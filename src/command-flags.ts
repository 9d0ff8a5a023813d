// The commands' flag modules (NewCmdX: a command's flags and their checks), each loaded when the
// command line names that command or the whole tree is built (src/cli.ts). A module of its own:
// scripts/build.mjs puts what these import into the flags' bundle (dist/flags-HASH.cjs), apart from
// the commands' runs, so that a help page (`mq logs --help`) reads no command's run code.
export const FLAGS = {
  logs: () => import("./commands/logs/index.js"),
  stats: () => import("./commands/stats/index.js"),
  insights: () => import("./commands/insights/index.js"),
  prs: () => import("./commands/insights/prs.js"),
  pr: () => import("./commands/insights/pr.js"),
  queue: () => import("./commands/queue/index.js"),
  why: () => import("./commands/why/index.js"),
  wait: () => import("./commands/wait/index.js"),
  serve: () => import("./commands/serve/index.js"),
  archive: () => import("./commands/archive/index.js"),
  exporter: () => import("./commands/exporter/index.js"),
  auth: () => import("./commands/auth/index.js"),
  config: () => import("./commands/config/index.js"),
  completion: () => import("./commands/completion/index.js"),
};
