// `mq logs aggregate`'s run: the facet counts of /logs/aggregate as a table (with each value's
// share) or as records, and the service's document as sent for -o json.
import type { Context } from "../../context.js";
import { ContractError } from "../../errors.js";
import { filterQuery } from "../../cmdutil/logs-filters.js";
import { formatInstant } from "../../cmdutil/time.js";
import { colors } from "../../iostreams/color.js";
import { terminalText } from "../../iostreams/terminal-text.js";
import { exportAll } from "../../output/exporter.js";
import { formatCount, formatPercent, formatTimeText } from "../../output/format.js";
import type { LogsAggregateOptions } from "./aggregate.js";

/** The facet lists of the response, in the order shown, and the name each row carries. */
export const FACETS = [
  ["by_event_type", "type"],
  ["by_outcome", "outcome"],
  ["by_trigger", "trigger"],
  ["by_pull_request", "pull_request"],
  ["by_batch_pull_request", "batch_pull_request"],
] as const;

interface FacetCount {
  value: string;
  count: number;
}

interface AggregateBody {
  total: number;
  interval_size_seconds: number;
  histogram: Array<{ start: string; end: string; count: number }>;
  [facet: string]: unknown;
}

function isFacetList(v: unknown): v is FacetCount[] {
  return Array.isArray(v) && v.every((r) => r !== null && typeof r === "object" && typeof (r as FacetCount).count === "number");
}

export async function runLogsAggregate(opts: LogsAggregateOptions, ctx: Context): Promise<void> {
  const repo = await ctx.resolveRepo();
  const client = await ctx.apiClient();
  const path = `/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.name)}/logs/aggregate`;
  if (opts.filters.event_type?.length === 0) {
    // --type named only families this dialect has no type of: nothing can match
    ctx.io.stderr.write(`${repo.owner}/${repo.name}: 0 events\n`);
    return;
  }
  const res = await client.get(path, {
    ...filterQuery(opts.filters, opts.dialect, "logs/aggregate"),
    base_ref: opts.baseRef,
    received_from: opts.since ? formatInstant(opts.since) : undefined,
    received_to: opts.until ? formatInstant(opts.until) : undefined,
  });
  const body = res.body as AggregateBody;
  if (body === null || typeof body !== "object" || typeof body.total !== "number") {
    throw new ContractError("response does not match the service's OpenAPI: /logs/aggregate: expected an object with a total");
  }
  // one row per facet value; an unknown or malformed facet list is skipped, never a crash
  const rows: Array<{ facet: string; value: string; count: number }> = [];
  for (const [key, name] of FACETS) {
    const list = body[key];
    if (isFacetList(list)) for (const r of list) rows.push({ facet: name, value: String(r.value), count: r.count });
  }
  // the histogram and its interval, in every format (csv and the table dropped them)
  const histogram = Array.isArray(body.histogram) ? body.histogram.filter(isBucket) : [];
  const interval = typeof body.interval_size_seconds === "number" ? body.interval_size_seconds : undefined;
  type Row = { facet: string; value: string; count?: number; start?: string; end?: string };
  await exportAll<Row>(
    opts.format,
    ctx.io,
    {
      // -o json: the service's document as sent, for jq
      document: () => body,
      csvColumns: () => ["facet", "value", "count", "start", "end"],
      table: async () => {
        // the table code and its width tables only when a table is drawn (output/table.ts)
        const { renderTable } = await import("../../output/table.js");
        const share = (n: number) => (body.total > 0 ? formatPercent(n / body.total) : "-");
        // a bucket's bounds in the one form of a time when they are UTC instants, escaped otherwise
        const when = (v: string) => formatTimeText(String(v)) ?? terminalText(String(v));
        const tableColors = colors(ctx.io, "stdout");
        return {
          async write() {},
          async end() {
            ctx.io.stderr.write(`${repo.owner}/${repo.name}: ${formatCount(body.total)} events\n`);
            ctx.io.stdout.write(
              renderTable({
                head: ["FACET", "VALUE", "COUNT", "SHARE"],
                rows: rows.map((r) => [r.facet, terminalText(r.value), formatCount(r.count), share(r.count)]),
                columns: ctx.io.tableWidth(),
                colors: tableColors,
                align: ["left", "left", "right", "right"],
              }),
            );
            if (histogram.length === 0) return;
            ctx.io.stdout.write(`\nhistogram${interval !== undefined ? `, interval_size_seconds ${interval}` : ""}\n`);
            ctx.io.stdout.write(
              renderTable({
                head: ["START", "END", "COUNT"],
                rows: histogram.map((b) => [when(b.start), when(b.end), formatCount(b.count)]),
                columns: ctx.io.tableWidth(),
                colors: tableColors,
                align: ["left", "left", "right"],
              }),
            );
          },
        };
      },
    },
    () => [
      { facet: "total", value: "", count: body.total },
      ...rows,
      ...(interval !== undefined ? [{ facet: "interval_size_seconds", value: String(interval) }] : []),
      ...histogram.map((b) => ({ facet: "histogram", value: "", count: b.count, start: b.start, end: b.end })),
    ],
  );
}

function isBucket(v: unknown): v is { start: string; end: string; count: number } {
  const b = v as { start?: unknown; end?: unknown; count?: unknown } | null;
  return b !== null && typeof b === "object" && typeof b.start === "string" && typeof b.end === "string" && typeof b.count === "number";
}
