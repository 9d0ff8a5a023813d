// `mq logs --repo a/b,c/d`: the logs of several repositories merged into one, newest first, each
// event naming its repository. Every repository's log is walked with the same pagination as one
// repository's, one page ahead at most (so memory is a page per repository), and the newest head
// of them all is written next. A repository that fails is reported and dropped; the others go on,
// and the exit code says what failed.
import type { Context } from "../../context.js";
import { MqError, UsageError } from "../../errors.js";
import type { QueryInput } from "../../api/client.js";
import { paginate } from "../../api/pagination.js";
import { METADATA_SHAPES_OF, pageCheck } from "../../api/schema/page-check.js";
import { pool, REPO_CONCURRENCY, repoFailureLine, resolveRepos } from "../../cmdutil/repos.js";
import { startSpinner } from "../../iostreams/spinner.js";
import { formatCount } from "../../output/format.js";
import type { Sink } from "../../output/exporter.js";
import type { LogEvent as RawEvent } from "../../api/events.js";
import { LOG_ORDER } from "../../api/pagination-guard.js";
import { checkEventIds, compareEventTimes } from "../../api/event-ids.js";
import { attachElementTexts } from "../../api/raw-json.js";
import type { ApiResponse } from "../../api/client.js";
import type { Dialect } from "../../api/dialects/types.js";

/** What `mq logs` hands over (logs.ts calls this module, not the other way round: no import circle). */
export interface ManyLogsRun {
  opts: { follow: boolean; cursor?: string; limit?: number; limitGiven: boolean; format: string; dialect: Dialect };
  /** the query of one repository's log, page size included */
  query: QueryInput;
  /** the output, with the repository in each table row */
  openOutput: () => Promise<Sink<RawEvent>>;
}

interface Source {
  repository: string;
  iterator: AsyncIterator<RawEvent[]>;
  /** the page being read, from `index` on */
  page: RawEvent[];
  index: number;
  /** the next page, already asked for */
  next?: Promise<IteratorResult<RawEvent[]>>;
  done: boolean;
  /** events of it written: a merged stream cannot take them back when it fails later */
  written: number;
  failed?: boolean;
}

export async function runLogsMany(run: ManyLogsRun, ctx: Context): Promise<void> {
  const { opts } = run;
  if (opts.follow) throw new UsageError("--follow reads one repository: give one --repo.");
  if (opts.cursor !== undefined) throw new UsageError("--cursor belongs to one repository's log: give one --repo.");
  const repos = await resolveRepos(ctx);
  const client = await ctx.apiClient();
  const query = run.query;
  const warned = new Set<string>();
  // against the dialect in effect, as one repository's log is (zod only for a page the generated checks cannot vouch for)
  const checkPage = await pageCheck(opts.dialect.name);
  const against = METADATA_SHAPES_OF[opts.dialect.name];
  const failures: Array<{ repository: string; error: MqError }> = [];
  const spinner = await startSpinner(ctx, `fetching events of ${repos.length} repositories`, { stdoutStreams: opts.format !== "table" });
  const log = (line: string) => spinner.log(line);

  const open = (repository: string, owner: string, name: string): Source => {
    const path = `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/logs`;
    // -o ndjson/json/csv write each event's text as the API sent it, as for one repository; ids
    // beyond 2^53 kept exact, ids beyond int64 refused, before the page is written
    const withTexts = (events: RawEvent[], res: ApiResponse): RawEvent[] => {
      if (opts.format !== "table") attachElementTexts(events, res, "events");
      checkEventIds(events, res);
      return events;
    };
    const check = (body: unknown) =>
      checkPage(body, {
        strict: ctx.globals.strict,
        checkMetadataOf: (type) => !warned.has(type),
        onMetadataMismatch(type, id, message) {
          if (warned.has(type)) return;
          warned.add(type);
          log(`mq: warning: ${type} event ${id} does not match ${against} (${message}); shown as sent. --strict makes this an error.`);
        },
      }) as RawEvent[] | Promise<RawEvent[]>;
    const parse = (body: unknown, _url: URL, res: ApiResponse) => {
      const events = check(body);
      return Array.isArray(events) ? withTexts(events, res) : events.then((e) => withTexts(e, res));
    };
    const pages = paginate(client, path, query, { signal: ctx.signal, parse, order: LOG_ORDER });
    const iterator = (async function* () {
      for await (const page of pages) yield page.events;
    })();
    return { repository, iterator, page: [], index: 0, done: false, written: 0 };
  };

  /** Makes sure `s` has an event to offer (or is done); a failure drops the repository. */
  const fill = async (s: Source): Promise<void> => {
    while (!s.done && s.index >= s.page.length) {
      try {
        const r = await (s.next ?? s.iterator.next());
        s.next = undefined;
        if (r.done) {
          s.done = true;
          return;
        }
        s.page = r.value;
        s.index = 0;
        // one page ahead: the next request runs while this page is written
        s.next = s.iterator.next();
        s.next.catch(() => undefined);
      } catch (err) {
        if (ctx.signal.aborted || !(err instanceof MqError)) throw err;
        s.done = true;
        s.failed = true;
        failures.push({ repository: s.repository, error: err });
        log(repoFailureLine(s.repository, err));
      }
    }
  };

  const sources = repos.map((r) => open(`${r.owner}/${r.name}`, r.owner, r.name));
  const sink = await run.openOutput();
  let count = 0;
  try {
    // the first pages of every repository, a few at a time
    await pool(sources, REPO_CONCURRENCY, fill);
    const batch: RawEvent[] = [];
    for (;;) {
      if (opts.limit !== undefined && count >= opts.limit) break;
      let best: Source | undefined;
      for (const s of sources) {
        if (s.done || s.index >= s.page.length) continue;
        if (!best || compareEventTimes(s.page[s.index]!, best.page[best.index]!) > 0) best = s;
      }
      if (!best) break;
      batch.push(best.page[best.index++]!);
      best.written++;
      count++;
      if (best.index >= best.page.length) {
        // before waiting for the next page, write what is ready
        await sink.write(batch.splice(0));
        spinner.update(`${formatCount(count)} events of ${repos.length} repositories`);
        await fill(best);
      } else if (batch.length >= 100) await sink.write(batch.splice(0));
    }
    await sink.write(batch.splice(0));
  } finally {
    spinner.stop();
    await sink.end().catch(() => undefined);
    for (const s of sources) void s.iterator.return?.(undefined)?.catch?.(() => undefined);
  }
  if (opts.format === "table" || ctx.io.isStderrTerminal()) {
    const more =
      opts.limit !== undefined && count >= opts.limit
        ? `; stopped at ${opts.limit}${opts.limitGiven ? " (--limit)" : ", more may be available (--limit N or --all)"}`
        : "";
    ctx.io.stderr.write(`${repos.length} repositories: ${formatCount(count)} event${count === 1 ? "" : "s"}${more}\n`);
  }
  if (failures.length) {
    const which = failures.map((f) => f.repository).join(", ");
    const partly = partlyWritten(sources);
    throw new MqError(
      failures.length === repos.length
        ? `none of the ${repos.length} repositories could be read to the end (${which})${partly ? `; the output holds only${partly.replace(/^, and/, "")}` : ""}.`
        : `${failures.length} of ${repos.length} repositories could not be read (${which}); the output covers the others${partly}.`,
      failures[0]!.error.exitCode,
    );
  }
}

/** The failed repositories whose first events were written before they failed, in words. */
function partlyWritten(sources: readonly Source[]): string {
  const partly = sources.filter((s) => s.failed && s.written > 0);
  return partly
    .map((s) => `, and the first ${s.written} event${s.written === 1 ? "" : "s"} of ${s.repository} (it stopped there)`)
    .join("");
}
