// `mq logs aggregate`: the real service's facet counts over the event log (/logs/aggregate): how
// many events of each type, outcome, trigger, pull request and batch pull request, with the same
// filters as `mq logs`. Only the real service has this endpoint: with the contract, one line, exit 2.
import { Command, Option } from "commander";
import type { Context, OutputFormat } from "../../context.js";
import { UsageError } from "../../errors.js";
import { hasEndpoint, type Dialect } from "../../api/dialects/index.js";
import { requireNonEmptyItems, singleValue } from "../../cmdutil/lists.js";
import { checkWindow, filterQuery, logsFilterOptions, parseLogsFilters, type LogsFilterValues } from "../../cmdutil/logs-filters.js";
import { formatInstant, parseTimeWindow, TIME_VALUE_HELP } from "../../cmdutil/time.js";
import { resolveOutputFormat } from "../../cmdutil/output.js";

export interface LogsAggregateOptions {
  dialect: Dialect;
  filters: LogsFilterValues;
  baseRef?: string;
  since?: Date;
  until?: Date;
  format: OutputFormat;
}

/** The facet lists of the response, in the order shown, and the name each row carries. */
export const FACETS = [
  ["by_event_type", "type"],
  ["by_outcome", "outcome"],
  ["by_trigger", "trigger"],
  ["by_pull_request", "pull_request"],
  ["by_batch_pull_request", "batch_pull_request"],
] as const;

interface RawFlags {
  baseRef?: string;
  since?: string;
  until?: string;
  [filter: string]: unknown;
}

export function NewCmdLogsAggregate(ctx: Context, runF?: (opts: LogsAggregateOptions) => Promise<void>): Command {
  const cmd = new Command("aggregate").description(
    "Count the log's events by type, outcome, trigger, pull request and batch pull request (the real service only).",
  );
  for (const o of logsFilterOptions()) cmd.addOption(o);
  return cmd
    .addOption(new Option("--base-ref <ref>", "only events of pull requests targeting this base ref").argParser(singleValue("--base-ref")))
    .addOption(new Option("--since <time>", `start of the window: ${TIME_VALUE_HELP} (default: 24h before --until)`))
    .addOption(new Option("--until <time>", "end of the window (default: now)"))
    .action(async (flags: RawFlags) => {
      const { dialect } = await ctx.dialect();
      const opts = parseLogsAggregateFlags(flags, ctx, dialect);
      await (runF ?? runLogsAggregate)(opts, ctx);
    });
}

export function parseLogsAggregateFlags(flags: RawFlags, ctx: Context, dialect: Dialect): LogsAggregateOptions {
  if (!hasEndpoint(dialect, "logs/aggregate")) {
    throw new UsageError(
      `mq logs aggregate needs the mergify dialect: ${dialect.title} has no /logs/aggregate (use --dialect mergify against a server that has it).`,
    );
  }
  const filters = parseLogsFilters(flags, dialect, "logs/aggregate");
  let baseRef: string | undefined;
  if (flags.baseRef !== undefined) baseRef = requireNonEmptyItems("--base-ref", [flags.baseRef], 255)[0];
  const { since, until } = parseTimeWindow({ since: flags.since, until: flags.until }, ctx.now());
  checkWindow(dialect, since, until, ctx.now());
  return { dialect, filters, baseRef, since, until, format: resolveOutputFormat(ctx) };
}

/** A server's string made safe for a terminal: control and bidi characters shown as escapes. */
function printable(text: string): string {
  return text.replace(
    /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

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
  const { ContractError } = await import("../../errors.js");
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
  type Row = (typeof rows)[number];
  const { exportAll } = await import("../../output/exporter.js");
  await exportAll<Row>(
    opts.format,
    ctx.io,
    {
      // -o json: the service's document as sent (histogram included), for jq
      document: () => body,
      csvColumns: () => ["facet", "value", "count"],
      table: async () => {
        const [{ renderTable }, { colors }] = await Promise.all([import("../../output/table.js"), import("../../iostreams/color.js")]);
        const share = (n: number) => (body.total > 0 ? `${((100 * n) / body.total).toFixed(1)}%` : "-");
        return {
          async write() {},
          async end() {
            ctx.io.stderr.write(`${repo.owner}/${repo.name}: ${body.total.toLocaleString("en-US")} events\n`);
            ctx.io.stdout.write(
              renderTable({
                head: ["FACET", "VALUE", "COUNT", "SHARE"],
                rows: rows.map((r) => [r.facet, printable(r.value), r.count.toLocaleString("en-US"), share(r.count)]),
                columns: ctx.io.tableWidth(),
                colors: colors(ctx.io, "stdout"),
                align: ["left", "left", "right", "right"],
              }),
            );
          },
        };
      },
    },
    () => [{ facet: "total", value: "", count: body.total }, ...rows],
  );
}
