// `mq queue --watch`: each repository's queue followed (src/queue/follower.ts: the lookback read
// once, then only the queue events received since the newest one read, de-duplicated by exact id,
// as `mq logs --follow` does): memory holds the open stays, not the log. On a terminal the
// table is redrawn in place (the loop, the screen and its restoring are src/watch/loop.ts's);
// otherwise one ndjson record per change: a pull request queued at the start, entered, changed
// (position, state, batch), merged or left; and a lane (base ref, queue, partition) that had pull
// requests and has none now: emptied, said only after a poll that read every repository.
import type { Context } from "../../context.js";
import { redact } from "../../errors.js";
import { eachRepo, pool, REPO_CONCURRENCY, type RepoName, someReposFailed } from "../../cmdutil/repos.js";
import { recordTime } from "../../insights/records.js";
import { apiEventSource, type EventSource } from "../../insights/walk.js";
import { messageText } from "../../iostreams/terminal-text.js";
import { formatCount, formatTime } from "../../output/format.js";
import { advance, QueueFollower } from "../../queue/follower.js";
import { queueRecord, type QueueRecord } from "../../queue/records.js";
import { messageSecrets } from "../../secrets.js";
import { GroupsLeft } from "../../watch/changes.js";
import { watchesScreen } from "../../watch/flags.js";
import { runWatchLoop } from "../../watch/loop.js";
import { ServerPresent } from "../../watch/present.js";
import type { QueueOptions } from "./index.js";
import { renderQueueTable } from "./table.js";

interface Follow {
  repo: RepoName;
  repository: string;
  follower: QueueFollower;
  rows: QueueRecord[];
  error?: string;
}

export { advance };

const stayKey = (r: QueueRecord) => `${r.repository}\u0000${r.pull_request}\u0000${r.entered_at}`;
/** what a record per change follows: not the times that move by themselves (time in queue, estimates) */
const signature = (r: QueueRecord) =>
  JSON.stringify([r.base_ref, r.queue_name, r.partition_name, r.position, r.state, r.state_since, r.batch_with]);

export async function watchQueue(opts: QueueOptions, ctx: Context, repos: readonly RepoName[], intervalSeconds: number): Promise<void> {
  // new events come from the API: the archive holds the past only
  const source: EventSource = apiEventSource(ctx);
  // each poll's instant is the server's present; the repositories share one API URL, so one
  // server: asked of the first
  const present = new ServerPresent(ctx, repos[0]!);
  const filter = { queues: opts.queues, partitions: opts.partitions };
  const screen = watchesScreen(ctx, opts.format);
  const clean = (text: string) => messageText(redact(text, messageSecrets(ctx)));
  const follows: Follow[] = [];

  /** the lookback of each repository, once: what following it needs is kept, and the newest event read */
  const readLookback = async (start: Date) => {
    const window = opts.atPresent ? opts.atPresent(start) : opts;
    const lookbackMs = window.until.getTime() - window.since.getTime();
    const { failed, error } = await eachRepo(
      ctx,
      repos,
      async (repo, repository) => {
        const follower = new QueueFollower(source, repo, {
          since: window.since,
          lookbackMs,
          baseRef: opts.baseRef,
          parallel: opts.parallel,
          filter,
        });
        const entries = await follower.start(start);
        follows.push({ repo, repository, follower, rows: entries.map((e) => queueRecord(e, start.getTime())) });
      },
      (line) => ctx.io.stderr.write(`${line}\n`),
    );
    if (follows.length === 0 && error) throw someReposFailed(failed, repos.length, error);
    // in the order of --repo
    follows.sort((a, b) => repos.indexOf(a.repo) - repos.indexOf(b.repo));
  };

  /** one poll: only what arrived since the newest event read, the queue rebuilt at UNTIL */
  const poll = (until: Date) =>
    pool(follows, REPO_CONCURRENCY, async (f) => {
      try {
        f.rows = (await f.follower.poll(until)).map((e) => queueRecord(e, until.getTime()));
        f.error = undefined;
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        // the others go on; this one is tried again next poll, its last queue shown meanwhile
        const message = clean(err instanceof Error ? err.message : String(err));
        if (!screen && message !== f.error) ctx.io.stderr.write(`mq queue: ${f.repository}: ${message}\n`);
        f.error = message;
      }
    });

  const frame = (atMs: number) => {
    const rows = follows.flatMap((f) => f.rows);
    const n = rows.length;
    let more: string | undefined;
    const table = n
      ? renderQueueTable(rows, atMs, ctx, {
          repository: repos.length > 1,
          more: (line) => (more = line),
          how: "mq queue -o table | less shows them all",
        })
      : "";
    const failing = follows.filter((f) => f.error !== undefined).map((f) => `${f.repository}: ${f.error}`);
    const status =
      `${repos.length === 1 ? follows[0]?.repository : `${follows.length} repositories`}: ${formatCount(n)} pull request${n === 1 ? "" : "s"} in the queue at ${formatTime(atMs)}` +
      `; every ${intervalSeconds} s, Ctrl-C to stop`;
    return `${table}${[...(more !== undefined ? [more] : []), ...failing, status].join("\n")}\n`;
  };

  let last: Map<string, QueueRecord> | undefined;
  const lanesLeft = new GroupsLeft();
  const changes = (atMs: number) => {
    const rows = follows.flatMap((f) => f.rows);
    const at = recordTime(atMs);
    const now = new Map(rows.map((r) => [stayKey(r), r]));
    const out: Array<Record<string, unknown>> = [];
    const pick = (r: QueueRecord) => (opts.fields ? Object.fromEntries(opts.fields.map((k) => [k, r[k as keyof QueueRecord]])) : r);
    for (const [key, r] of now) {
      const before = last?.get(key);
      const change =
        last === undefined ? "queued" : before === undefined ? "entered" : signature(before) !== signature(r) ? "changed" : undefined;
      if (change) out.push({ at, change, ...pick(r) });
    }
    for (const [key, r] of last ?? []) {
      if (now.has(key)) continue;
      const f = follows.find((x) => x.repository === r.repository);
      const mergedKey = `${r.pull_request}\u0000${Date.parse(String(r.entered_at))}`;
      const merged = f?.follower.memory.ended.some((m) => m.key === mergedKey && m.mergedAt !== null) === true;
      out.push({ at, change: merged ? "merged" : "left", ...pick(r) });
    }
    last = now;
    // a lane is named by its fields whatever --fields says; a repository whose poll failed kept
    // its rows, but its lanes are not said to have emptied until a poll reads it
    const lanes = rows.map((r) => ({
      repository: r.repository,
      base_ref: r.base_ref,
      queue_name: r.queue_name,
      partition_name: r.partition_name,
    }));
    const complete = follows.every((f) => f.error === undefined);
    for (const lane of lanesLeft.next(lanes, complete)) out.push({ at, change: "emptied", ...lane });
    return out;
  };

  let known: Date | undefined;
  await runWatchLoop(ctx, {
    intervalSeconds,
    screen,
    async tick(_clock, first) {
      let at: Date;
      try {
        at = await present.next();
      } catch (err) {
        // a poll that cannot learn the present tries again at the last one it knew
        if (first || known === undefined || ctx.signal.aborted) throw err;
        at = known;
      }
      known = at;
      if (first) await readLookback(at);
      else await poll(at);
      return screen ? { frame: frame(at.getTime()) } : { records: changes(at.getTime()) };
    },
  });
}
