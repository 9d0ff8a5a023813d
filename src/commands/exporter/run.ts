// `mq exporter`'s run: the metrics server started, then a round of polls every --interval seconds
// (each repository's new events since its position, REPO_CONCURRENCY at once) until Ctrl-C or
// SIGTERM. A repository that fails is counted, logged when its error changes, named by /readyz,
// and tried again next round; the others go on. Loaded when `mq exporter` runs (cli.ts).
import { setTimeout as sleep } from "node:timers/promises";
import type { Context } from "../../context.js";
import { AuthError, ContractError, HttpError, NetworkError, redact, UsageError } from "../../errors.js";
import { compareEventTimes, eventIdKey } from "../../api/event-ids.js";
import type { LogEvent } from "../../api/events.js";
import { DEFAULT_PARALLEL } from "../../api/slice-limits.js";
import { pool, REPO_CONCURRENCY } from "../../cmdutil/repos.js";
import { QUEUE_EVENT_TYPES } from "../../insights/dialects.js";
import { apiEventSource, walkLog, type EventSource } from "../../insights/walk.js";
import { messageText } from "../../iostreams/terminal-text.js";
import { wrapLine } from "../../iostreams/terminal-width.js";
import { followFrom, followQueue } from "../../queue/follow.js";
import { DEFAULT_QUEUE_LOOKBACK_MS, readQueue } from "../../queue/reconstruct.js";
import { renderExposition } from "../../output/openmetrics.js";
import { messageSecrets } from "../../secrets.js";
import { startMetricsServer, type MetricsServer } from "./http.js";
import type { ExporterOptions } from "./index.js";
import { countError, countEvent, metricFamilies, pruneEvictions, setQueueSize } from "./metrics.js";
import { loadState, saveState, type ExporterState, type Position } from "./state.js";

interface Follow {
  repository: string;
  owner: string;
  name: string;
  /** a round has ended after a poll that read everything up to its start */
  caughtUp: boolean;
  /** a poll of the round in progress succeeded */
  read?: boolean;
  /** the last error's message, until a poll succeeds */
  error?: string;
}

/** The kind label of a failed poll: a few values, never the message. */
export function errorKind(err: unknown): string {
  if (err instanceof AuthError) return "auth";
  if (err instanceof HttpError) {
    if (err.status === 401 || err.status === 403) return "auth";
    if (err.status === 404) return "not_found";
    if (err.status === 429) return "rate_limited";
    if (err.status >= 500) return "server";
    return "other";
  }
  if (err instanceof ContractError) return "contract";
  if (err instanceof NetworkError) return "network";
  return "other";
}

/**
 * Counts the events of one poll, oldest first, that the position has not read, and moves the
 * position to the newest of them; returns them (the queue follows them too). The API has no "after
 * id": a poll asks from the position's instant, and the ids read at that instant are skipped. A
 * repository without a position is read from FROM, and its events are counted from SINCE on.
 */
export function countNew(state: ExporterState, repository: string, events: LogEvent[], since: number, from = since): LogEvent[] {
  const pos: Position = state.positions[repository] ?? { watermark: from, seen: [] };
  // exact ids (beyond 2^53 too); a state file may hold them as numbers, which are their own text below 2^53
  const seen = new Set(pos.seen.map(String));
  const added: LogEvent[] = [];
  events.sort(compareEventTimes);
  for (const ev of events) {
    const t = Date.parse(ev.received_at);
    if (!Number.isFinite(t) || t < pos.watermark || seen.has(eventIdKey(ev))) continue;
    added.push(ev);
    if (t >= since) countEvent(state.metrics, repository, ev);
    if (t > pos.watermark) {
      pos.watermark = t;
      seen.clear();
    }
    seen.add(eventIdKey(ev));
  }
  state.positions[repository] = { watermark: pos.watermark, seen: [...seen] };
  return added;
}

export async function runExporter(opts: ExporterOptions, ctx: Context): Promise<void> {
  const follows: Follow[] = opts.repos.map((r) => ({ repository: `${r.owner}/${r.name}`, owner: r.owner, name: r.name, caughtUp: false }));
  const state = loadState(
    opts.stateDir,
    follows.map((f) => f.repository),
  );
  const clean = (text: string) => messageText(redact(text, messageSecrets(ctx)));
  // a line on stderr, wrapped to the terminal when it is one
  const say = (line: string) => ctx.io.stderr.write(`${wrapLine(line, ctx.io.messageWidth())}\n`);
  // /metrics shows the state as of the last round's end: rendered then, in the formats scrapers
  // asked for during the round (both before the first scrape), a scrape costs nothing (40
  // repositories' histograms are a megabyte of text, a second of CPU on a busy machine)
  type Format = "openmetrics" | "prometheus";
  let version = 0;
  let asked = new Set<Format>();
  let prepared = new Set<Format>(["openmetrics", "prometheus"]);
  const rendered = new Map<Format, { version: number; text: string }>();
  const exposition = (format: Format) => {
    asked.add(format);
    const cached = rendered.get(format);
    if (cached?.version === version) return cached.text;
    const text = renderExposition(metricFamilies(state.metrics), format);
    rendered.set(format, { version, text });
    return text;
  };
  const prepare = () => {
    if (asked.size > 0) prepared = asked;
    asked = new Set();
    rendered.clear();
    const families = metricFamilies(state.metrics);
    for (const format of prepared) rendered.set(format, { version, text: renderExposition(families, format) });
  };
  let server: MetricsServer;
  try {
    server = await startMetricsServer(opts.host, opts.port, opts.auth, {
      metrics: exposition,
      notReady: () => {
        const behind = follows.filter((f) => !f.caughtUp || f.error !== undefined);
        if (behind.length === 0) return undefined;
        return `not ready: ${behind.map((f) => `${f.repository} (${f.error !== undefined ? `failing: ${f.error}` : "catching up"})`).join(", ")}`;
      },
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE")
      throw new UsageError(`--listen ${opts.host}:${opts.port}: the address is already in use (port 0 picks a free one).`);
    if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND" || code === "EACCES")
      throw new UsageError(`--listen ${opts.host}:${opts.port}: cannot listen there (${code}).`);
    throw err;
  }
  ctx.onCleanup(() => server.close());
  ctx.io.stdout.write(`${server.url}\n`);
  say(
    `mq exporter: serving ${server.url}/metrics for ${follows.length} ${follows.length === 1 ? "repository" : "repositories"}, polling every ${opts.interval} s` +
      `${opts.stateDir ? `, state in ${opts.stateDir}` : ""}`,
  );
  say("Press Ctrl-C to stop.");

  // the queue size is mq queue's reconstruction over its lookback: a repository without a position
  // is read from the lookback's start (or --since, when earlier), and its counters from --since
  const since = opts.since.getTime();
  const firstFrom = Math.min(since, ctx.now().getTime() - DEFAULT_QUEUE_LOOKBACK_MS);
  const source = apiEventSource(ctx);

  // The first round walks the lookback once, as `mq queue` does (readQueue), each event handed to
  // the reconstruction as it arrives and then dropped: only the events to count (from --since) and
  // those at the newest instant (the position) are held, not the week's events of the repository.
  const firstRound = async (f: Follow, until: Date) => {
    const toCount: LogEvent[] = [];
    let newest = Number.NEGATIVE_INFINITY;
    let atNewest: LogEvent[] = [];
    const note = (ev: LogEvent) => {
      const t = Date.parse(ev.received_at);
      if (t >= since) toCount.push(ev);
      else if (t > newest) {
        newest = t;
        atNewest = [ev];
      } else if (t === newest) atNewest.push(ev);
    };
    // one walk from the earlier of --since and the lookback's start; the queue gets the lookback's part
    const observed: EventSource = {
      ...source,
      events: (q) =>
        (async function* () {
          const start = q.since.getTime();
          for await (const ev of source.events({ ...q, since: new Date(Math.min(start, firstFrom)) })) {
            note(ev);
            if (Date.parse(ev.received_at) >= start) yield ev;
          }
        })(),
    };
    const snap = await readQueue(observed, {
      owner: f.owner,
      name: f.name,
      since: new Date(until.getTime() - DEFAULT_QUEUE_LOOKBACK_MS),
      until,
      parallel: DEFAULT_PARALLEL,
      keep: true,
    });
    // counted once the walk is whole: a walk cut short counts nothing
    countNew(state, f.repository, toCount.length > 0 ? toCount : atNewest, since, firstFrom);
    return { entries: snap.entries, memory: followFrom(snap.memory!, until) };
  };

  // a later round: only the events since the position, added to the open stays
  const nextRound = async (f: Follow, from: number, until: Date) => {
    const events: LogEvent[] = [];
    for await (const ev of walkLog(ctx, {
      owner: f.owner,
      name: f.name,
      since: new Date(from),
      until,
      types: QUEUE_EVENT_TYPES,
      // a poll's few seconds page after page; a resumed repository's backlog in parallel time slices
      parallel: f.caughtUp ? 1 : DEFAULT_PARALLEL,
    }))
      events.push(ev);
    const added = countNew(state, f.repository, events, since, firstFrom);
    return followQueue(f, state.queue[f.repository] ?? { kept: [], ended: [], closed: {} }, added, until);
  };
  const pollOne = async (f: Follow) => {
    const position = state.positions[f.repository];
    const until = ctx.now();
    try {
      const queue = position === undefined ? await firstRound(f, until) : await nextRound(f, position.watermark, until);
      state.queue[f.repository] = queue.memory;
      setQueueSize(state.metrics, f.repository, queue.entries);
      f.read = true;
      if (f.error !== undefined) say(`mq exporter: ${f.repository}: reading again`);
      f.error = undefined;
    } catch (err) {
      if (ctx.signal.aborted) return;
      countError(state.metrics, f.repository, errorKind(err));
      const message = clean(err instanceof Error ? err.message : String(err));
      // logged once per change: a repository failing every poll for an hour is one line, not 120
      if (message !== f.error) say(`mq exporter: ${f.repository}: ${message}`);
      f.error = message;
    }
  };

  try {
    while (!ctx.signal.aborted) {
      await pool(follows, REPO_CONCURRENCY, pollOne);
      for (const f of follows) f.caughtUp ||= f.read === true;
      version++;
      prepare();
      pruneEvictions(state.metrics, ctx.now().getTime());
      if (opts.stateDir !== undefined) saveState(opts.stateDir, state);
      await sleep(opts.interval * 1000, undefined, { signal: ctx.signal }).catch(() => undefined);
    }
  } finally {
    await server.close();
  }
  // a poll cut short counted nothing of what it read, so the state saved last matches the counts
  say("mq exporter: stopped");
}
