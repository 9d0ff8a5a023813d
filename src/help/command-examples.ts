// The hand-written examples at the end of each command's help, keyed by command path ("" is mq
// itself). Plain data so cli.ts can apply it at start-up, without the stats endpoints' records:
// each stats endpoint's examples are in its record (src/stats/endpoints.ts), and the stats flag
// module appends them (examplesBlock). examples.ts has them all, and
// test/help-examples.e2e.test.ts runs every line (queries say --offline, so they work on a fresh
// clone with no account and no network) and fails when a command has fewer than 2 or more than 4.

export const COMMAND_EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  "": [
    "mq --offline logs --repo acme/web --limit 5",
    "mq --offline stats failure-rate --repo acme/web --since 7d",
    "mq auth login --with-token < token.txt",
  ],

  logs: [
    "mq --offline logs --repo acme/web --type 'action.queue.*' --since 6h",
    "mq --offline logs --repo acme/web --pr $(mq --offline prs --repo acme/web --since 1d --limit 1 -o csv --fields pull_request | tail -n 1) --since 2d",
    "mq --offline logs --repo acme/web --follow --interval 5",
    "mq --offline archive sync --repo acme/web --since 2d && mq logs --archive --repo acme/web --since 2d --all -o ndjson",
  ],
  "logs aggregate": [
    "mq --offline --dialect mergify logs aggregate --repo acme/web --since 7d",
    "mq --offline --dialect mergify logs aggregate --repo acme/web --not-type 'action.queue.*' --outcome failure -o json",
  ],

  stats: [
    "mq stats",
    "mq --offline stats summary --repo acme/web --since 7d",
    "mq --offline stats failure-rate --repo acme/web --since 7d --chart",
    "mq --offline stats queues-entered-count --repo acme/web,acme/api --since 7d",
  ],
  "stats summary": [
    "mq --offline stats summary --repo acme/web --watch --interval 5 --fail-if 'check_failure_rate > 50%'",
    "mq --offline stats summary --repo acme/web,acme/api --since 7d --base-ref main",
    "mq --offline stats summary --repo acme/web --since 1d -o none --fail-if 'check_failure_rate > 50%' --fail-if 'max_queue_time > 3d'",
    "mq --offline stats summary --repo acme/web --since 1h -o openmetrics",
  ],

  insights: [
    "mq --offline insights --repo acme/web --since 7d --compare previous",
    "mq --offline insights --repo acme/web --since 1d --compare none --watch --interval 30",
    "mq --offline insights --repo acme/web,acme/api --since 1d -o none --fail-if 'p95(queue_time) > 30d' --fail-if 'change(p50(time_to_merge)) > 1000%' --fail-if-scope both",
    "mq --offline archive sync --repo acme/web --since 2d && mq insights --archive --repo acme/web --since 1d --until 1h -o json",
  ],
  prs: [
    "mq --offline prs --repo acme/web --since 1d --slowest 10",
    "mq --offline prs --repo acme/web --since 2d --failed -o csv",
    "mq --offline prs --repo acme/web --since 1d --sort ci_time --limit 5 -o json",
    "mq --offline archive sync --repo acme/web --since 1d && mq --offline prs --repo acme/web --since 20h --until 1h --slowest 5",
  ],
  pr: [
    "mq --offline pr $(mq --offline prs --repo acme/web --since 1d --slowest 1 -o csv --fields pull_request | tail -n 1) --repo acme/web --since 2d",
    "mq --offline pr $(mq --offline prs --repo acme/web --since 1d --sort retries --limit 1 -o csv --fields pull_request | tail -n 1) --repo acme/web -o json",
    "mq --offline archive sync --repo acme/web --since 1d && mq pr $(mq prs --archive --repo acme/web --since 20h --until 1h --slowest 1 -o csv --fields pull_request | tail -n 1) --archive --repo acme/web --since 1d --until 1h",
  ],

  queue: [
    "mq --offline queue --repo acme/web",
    "mq --offline queue --repo acme/web,acme/api --base-ref main --queue default -o json",
    "mq --offline queue --repo acme/web --since 1d --until 2h --partition api -o csv --fields pull_request,position,state,eta_p50,eta_p90",
    "mq --offline queue --repo acme/web --watch --interval 5",
  ],

  why: [
    "mq --offline why $(mq --offline prs --repo acme/web --since 1d --failed --limit 1 -o csv --fields pull_request | tail -n 1) --repo acme/web --since 2d",
    "mq --offline why $(mq --offline prs --repo acme/web --since 1d --sort retries --limit 1 -o csv --fields pull_request | tail -n 1) --repo acme/web --all -o json",
  ],

  wait: [
    "mq --offline wait $(mq --offline prs --repo acme/web --since 1d --outcome merged --limit 1 -o csv --fields pull_request | tail -n 1) --repo acme/web",
    "mq --offline wait $(mq --offline prs --repo acme/web --since 1d --outcome merged --limit 1 -o csv --fields pull_request | tail -n 1) --repo acme/web --interval 10 --max-wait 20m -o ndjson",
  ],

  serve: [
    "mq serve --port 0",
    "mq serve --port 0 --seed 7 --days 14 --repos acme/web,acme/api",
    "mq serve --port 0 --days 3 --now 2026-11-26T14:00:00Z --speed 60",
    "mq --offline logs --repo acme/web --since 1d --all -o ndjson > acme.ndjson && mq serve --port 0 --events acme.ndjson",
  ],

  exporter: [
    "mq --offline exporter --repo acme/web,acme/api --since 1h --listen 127.0.0.1:0",
    "mq --offline exporter --repo acme/web --since 1d --interval 10 --listen 127.0.0.1:0 --state-dir ./mq-exporter-state",
  ],

  archive: [
    "mq --offline archive sync --repo acme/web --since 2d",
    "mq --offline archive sync --repo acme/web --since 1d && mq archive status",
    'mq --offline archive sync --repo acme/web --since 1d && mq archive query "SELECT type, count(*) AS n FROM events GROUP BY type ORDER BY n DESC LIMIT 5"',
  ],
  "archive sync": [
    "mq --offline archive sync --repo acme/web --since 2d",
    "mq --offline archive sync acme/web acme/api --since 1d -o json",
    "mq --offline archive sync --repo acme/web --since 1d --data-dir ./mq-archive",
  ],
  "archive status": ["mq archive status", "mq --offline archive sync --repo acme/web --since 1d && mq archive status -o json"],
  "archive query": [
    'mq --offline archive sync --repo acme/web --since 1d && mq archive query "SELECT count(*) AS events FROM events"',
    "mq --offline archive sync --repo acme/web --since 2d && mq archive query \"SELECT CAST(received_at AS DATE) AS day, count(*) AS merged FROM events WHERE type = 'action.queue.merged' GROUP BY ALL ORDER BY day\" -o csv",
  ],
  "archive export": [
    "mq --offline archive sync --repo acme/web --since 1d && mq archive export --parquet ./acme-parquet",
    "mq --offline archive sync --repo acme/web --since 1d && mq archive export --parquet ./acme-parquet acme/web --force",
  ],

  auth: ["mq auth login --with-token < token.txt", "mq auth status"],
  "auth login": [
    "mq auth login --with-token < token.txt",
    "mq --api-url https://mq.example.com auth login --with-token --no-check < token.txt",
  ],
  "auth status": ["mq auth status", "MQ_TOKEN=mqk_example1234 mq auth status"],
  "auth logout": ["mq auth logout", "mq auth logout && mq auth login --with-token < token.txt"],
  "auth token": ["mq auth token", 'export MQ_TOKEN="$(mq auth token)"'],

  config: ["mq config set repo acme/web", "mq config list"],
  "config get": ["mq config get repo", "mq config get api-url"],
  "config set": ["mq config set repo acme/web", "mq config set output json", "mq config set timeout 60"],
  "config unset": ["mq config unset repo", "mq config unset output"],
  "config list": ["mq config list", "mq -o json config list"],

  completion: [
    "source <(mq completion bash)",
    "mkdir -p ~/.zfunc && mq completion zsh > ~/.zfunc/_mq",
    "mkdir -p ~/.config/fish/completions && mq completion fish > ~/.config/fish/completions/mq.fish",
  ],

  help: ["mq help logs", "mq help stats failure-rate"],
};

/** The "Examples:" block appended to a command's help. */
export function examplesBlock(lines: readonly string[] | undefined): string {
  if (!lines || lines.length === 0) return "";
  return `\nExamples:\n${lines.map((l) => `  $ ${l}`).join("\n")}`;
}

/** The "Examples:" block of the command at PATH, from the hand-written table. */
export const examplesHelpText = (path: string): string => examplesBlock(COMMAND_EXAMPLES[path]);
