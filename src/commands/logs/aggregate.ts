// `mq logs aggregate`: the real service's facet counts over the event log (/logs/aggregate): how
// many events of each type, outcome, trigger, pull request and batch pull request, with the same
// filters as `mq logs`. Only the real service has this endpoint: with the contract, one line, exit 2.
import { Command, Option } from "commander";
import type { Context, OutputFormat } from "../../context.js";
import { UsageError } from "../../errors.js";
import { hasEndpoint, type Dialect } from "../../api/dialects/index.js";
import { requireNonEmptyItems, singleValue } from "../../cmdutil/lists.js";
import { checkWindow, logsFilterOptions, parseLogsFilters, type LogsFilterValues } from "../../cmdutil/logs-filters.js";
import { parseTimeWindow, TIME_VALUE_HELP } from "../../cmdutil/time.js";
import { resolveOutputFormat } from "../../cmdutil/output.js";

export interface LogsAggregateOptions {
  dialect: Dialect;
  filters: LogsFilterValues;
  baseRef?: string;
  since?: Date;
  until?: Date;
  format: OutputFormat;
}

interface RawFlags {
  baseRef?: string;
  since?: string;
  until?: string;
  [filter: string]: unknown;
}

export function NewCmdLogsAggregate(ctx: Context, runF: (opts: LogsAggregateOptions) => Promise<void>): Command {
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
      await runF(opts);
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
