// The golden captures (test/golden/golden.e2e.test.ts): each command's default screen, the screens
// of the views people read most, and the README's screens. A line is what a person types: `mq` is
// mq itself (with the test's pinned clock), in a shell that has MQ_API_URL, MQ_TOKEN and MQ_REPO set.

export interface ScreenCapture {
  /** the files' name: NAME.WIDTH.txt */
  name: string;
  /** the shell line, as typed */
  line: string;
  /** the exit status (default 0) */
  code?: number;
  /** the widths (default WIDTHS) */
  widths?: readonly number[];
  /** a screen longer than this is a flood (default 60) */
  maxLines?: number;
  /** a command that runs until stopped: Ctrl-C once the screen shows this */
  interruptWhen?: RegExp;
  /** a command that redraws a screen of its own until stopped (--watch): that screen once it shows this, then Ctrl-C */
  screenWhen?: RegExp;
  /**
   * what differs from run to run and is no part of the layout, each character but spaces and line
   * breaks replaced by "#" (the widths and the wrapping stay): the archive's size on disk
   */
  mask?: readonly RegExp[];
  /** the widths at which the screen does not fit yet (a line too wide, or too many lines): a known fault */
  overflows?: readonly number[];
  /** shown in the README (at 80 columns): its lines, or the first `lines` of them and "..." */
  readme?: { lines?: number };
}

export const WIDTHS: readonly number[] = [60, 80, 120];
const AT_80: readonly number[] = [80];

export const CAPTURES: readonly ScreenCapture[] = [
  // every command's default screen
  // mq's own help (options, commands, examples and the exit codes) is the one screen longer than 60
  // lines; at 60 an example is wider (a command to copy is never broken)
  { name: "help", line: "mq --help", maxLines: 110, overflows: [60] },
  { name: "help-environment", line: "mq help environment" },
  { name: "logs", line: "mq logs" },
  { name: "stats", line: "mq stats" },
  { name: "stats-failure-rate", line: "mq stats failure-rate" },
  { name: "stats-summary", line: "mq stats summary --since 7d" },
  { name: "insights", line: "mq insights --since 7d", maxLines: 90 },
  { name: "prs", line: "mq prs --since 1d" },
  { name: "pr", line: "mq pr 316403 --since 10d" },
  { name: "queue", line: "mq queue" },
  { name: "why", line: "mq why 323006" },
  { name: "wait", line: "mq wait 323006" },
  // a watch's screen as it is redrawn (the alternate screen, its status line last), before Ctrl-C
  { name: "stats-summary-watch", line: "mq stats summary --since 7d --watch --interval 3600", screenWhen: /Ctrl-C to stop/, code: 130 },
  // at 60 the command to try is wider: a command to copy is never broken
  { name: "serve", line: "mq serve --port 0 --days 1", interruptWhen: /http:\/\//, overflows: [60] },
  { name: "archive-status", line: "mq archive status", mask: [/\d+\.\d\sMiB/g] },
  {
    name: "exporter",
    line: "mq exporter --repo acme/web --since 1h --listen 127.0.0.1:0",
    interruptWhen: /http:\/\//,
  },
  { name: "auth-status", line: "mq auth status" },
  { name: "config-list", line: "mq config list" },
  { name: "completion", line: "mq completion", code: 2 },
  // the views behind the figures
  { name: "logs-pr", line: "mq logs --pr 319114 --since 7d" },
  { name: "stats-failure-rate-intervals", line: "mq stats failure-rate --intervals --queue hotfix --base-ref main --partition api" },
  { name: "stats-checks-retries", line: "mq stats checks-retries --since 7d" },
  { name: "stats-exit-reasons", line: "mq stats queues-pr-exit-reasons --since 7d" },
  // at 60 each group's label (base · partition · queue · rule) wraps onto a second line: 68 lines for
  // 30 groups; a label cut short would hide which group a row is
  { name: "stats-batch-bisection", line: "mq stats batch-bisection --since 7d", overflows: [60] },
  { name: "stats-chart", line: "mq stats queues-entered-count --since 7d --chart --queue hotfix" },
  // several repositories: a row each and the total; the gate's verdicts per repository and on the total
  { name: "stats-many-failure-rate", line: "mq stats failure-rate --repo acme/web,acme/api --since 7d" },
  { name: "stats-many-summary", line: "mq stats summary --repo acme/web,acme/api --since 7d" },
  {
    name: "stats-many-gate",
    line: "mq stats checks-retries --repo acme/web,acme/api --since 7d --fail-if 'recovery_rate < 95%' --fail-if-scope both",
    code: 1,
  },
  {
    name: "insights-many-gate",
    line: "mq insights --repo acme/web,acme/api --since 7d -o none --fail-if 'p95(queue_time) > 1h' --fail-if 'merged < 10' --fail-if-scope both",
    code: 1,
  },
  // the README's screens: its lines as written, at 80 columns
  { name: "readme-logs", line: "mq --offline logs --repo acme/web --limit 5", widths: AT_80, readme: {} },
  {
    name: "readme-jq",
    line: "mq --offline logs --repo acme/web --type action.queue.leave --since 7d | jq -r '.metadata.reason' | sort | uniq -c | sort -rn | head -5",
    widths: AT_80,
    readme: {},
  },
  { name: "readme-failure-rate", line: "mq --offline stats failure-rate --repo acme/web --since 7d", widths: AT_80, readme: { lines: 6 } },
  {
    name: "readme-chart",
    line: "mq --offline stats failure-rate --repo acme/web --since 7d --chart --queue hotfix",
    widths: AT_80,
    readme: { lines: 4 },
  },
  {
    name: "readme-gate",
    line: "mq --offline stats summary --repo acme/web --since 7d --fail-if 'check_failure_rate > 30%' --fail-if 'max_queue_time > 3d'",
    widths: AT_80,
    readme: {},
  },
  { name: "readme-insights", line: "mq --offline insights --repo acme/web --since 7d", widths: AT_80, maxLines: 90, readme: { lines: 22 } },
  { name: "readme-prs", line: "mq --offline prs --repo acme/web --since 1d --slowest 3", widths: AT_80, readme: {} },
  {
    name: "readme-pr",
    line: "mq --offline pr $(mq --offline prs --repo acme/web --since 1d --slowest 1 -o csv --fields pull_request | tail -n 1) --repo acme/web",
    widths: AT_80,
    readme: { lines: 14 },
  },
  { name: "readme-queue", line: "mq --offline queue --repo acme/web --base-ref main --queue default", widths: AT_80, readme: {} },
  { name: "readme-help-exit-codes", line: "mq help exit-codes", widths: AT_80, readme: { lines: 4 } },
];
