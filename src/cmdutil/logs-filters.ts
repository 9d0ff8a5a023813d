// The list filters of `mq logs` (and `mq logs aggregate`): one row per flag, naming the query
// parameter it fills. Whether a flag can be used, whether it repeats and which flags exclude each
// other come from the dialect in effect (its /logs parameters), so a flag the other side lacks is
// refused in one line before anything is sent.
import { Option } from "commander";
import { UsageError } from "../errors.js";
import { paramOf, type Dialect } from "../api/dialects/types.js";
import { DIALECTS, MERGIFY_DIALECT, SPEC_DIALECT } from "../api/dialects/index.js";
import { closestMatches } from "../closest.js";
import { collectList, collectWhole, parseIntFlag, requireNonEmptyItems } from "./lists.js";

export const MAX_PULL_REQUEST = 2147483646;

export type FilterValue = "pull-request" | "event-type" | "outcome" | "text";

export interface LogsFilter {
  /** the flag as typed */
  flag: string;
  /** commander's attribute name for it */
  key: string;
  /** the query parameter */
  param: string;
  value: FilterValue;
  help: string;
}

export const LOGS_FILTERS: readonly LogsFilter[] = [
  { flag: "--pr", key: "pr", param: "pull_request", value: "pull-request", help: "only events of these pull requests" },
  { flag: "--not-pr", key: "notPr", param: "not_pull_request", value: "pull-request", help: "leave out events of these pull requests" },
  {
    flag: "--type",
    key: "type",
    param: "event_type",
    value: "event-type",
    help: "only these event types, or family globs such as action.queue.*",
  },
  { flag: "--not-type", key: "notType", param: "not_event_type", value: "event-type", help: "leave out these event types or families" },
  { flag: "--outcome", key: "outcome", param: "outcome", value: "outcome", help: "only events with this outcome" },
  { flag: "--not-outcome", key: "notOutcome", param: "not_outcome", value: "outcome", help: "leave out events with this outcome" },
  { flag: "--trigger", key: "trigger", param: "trigger", value: "text", help: "only events with exactly this trigger" },
  { flag: "--not-trigger", key: "notTrigger", param: "not_trigger", value: "text", help: "leave out events with exactly this trigger" },
  {
    flag: "--batch-pr",
    key: "batchPr",
    param: "batch_pull",
    value: "pull-request",
    help: "only the checks and bisection events of these batch (draft) pull requests",
  },
  {
    flag: "--not-batch-pr",
    key: "notBatchPr",
    param: "not_batch_pull",
    value: "pull-request",
    help: "leave out the events of these batch (draft) pull requests",
  },
];

/** parameter -> values, in the order typed, duplicates dropped */
export type LogsFilterValues = Partial<Record<string, Array<string | number>>>;

export const collectFilter = collectList;

/** the placeholder and help of a filter's flag, with what each dialect says of it */
export function filterHelp(f: LogsFilter, dialects: readonly Dialect[]): string {
  const has = dialects.filter((d) => paramOf(d, "logs", f.param) !== undefined).map((d) => d.name);
  // a trigger may hold a comma ("Rule: a, b"): its flag repeats, and is never split
  const each = f.value === "text" ? "; repeatable (the value is taken whole, commas included)" : "; repeatable, comma-separated";
  const repeat = dialects.some((d) => paramOf(d, "logs", f.param)?.array) ? each : "";
  const only = has.length < dialects.length ? ` (${has.join(", ")} dialect only)` : "";
  return `${f.help}${repeat}${only}`;
}

function notAvailable(flag: string, d: Dialect, param: string): UsageError {
  return new UsageError(
    `${flag} is not available with the ${d.name} dialect: ${d.title} has no ${param} filter (see --dialect in \`mq --help\`).`,
  );
}

/** Expands family globs and checks every type against the dialect; duplicates are dropped, order kept. */
export function expandTypes(items: readonly string[], d: Dialect, flag = "--type"): string[] {
  if (items.some((i) => i.trim() === "")) {
    throw new UsageError(`${flag} has an empty value: give an event type such as action.queue.leave, or a family such as action.queue.*.`);
  }
  const out = new Set<string>();
  const dialectNote = d.name === "spec" ? "" : ` with the ${d.name} dialect`;
  for (const raw of items) {
    const item = raw.trim();
    if (item.endsWith(".*")) {
      const prefix = item.slice(0, -1);
      const matches = d.eventTypes.filter((t) => t.startsWith(prefix));
      // a family of the other side (ci_issue.* against the real service) matches no event here:
      // no event is of it, which is an answer, not a mistake
      if (matches.length === 0 && Object.values(DIALECTS).some((o) => o.eventFamilies.includes(item))) continue;
      if (matches.length === 0) {
        const close = closestMatches(item, d.eventFamilies);
        throw new UsageError(
          `${flag}: no event type matches "${item}"${dialectNote}${close.length ? ` (did you mean ${close.join(", ")}?)` : ""}; families: ${d.eventFamilies.join(", ")}.`,
        );
      }
      for (const m of matches) out.add(m);
    } else if (d.eventTypes.includes(item)) {
      out.add(item);
    } else {
      const close = closestMatches(item, d.eventTypes);
      const other = Object.values(DIALECTS).find((o) => o !== d && o.eventTypes.includes(item));
      if (other !== undefined) {
        throw new UsageError(
          `${flag}: "${item}" is a type of the ${other.name} dialect only; ${d.title} (--dialect ${d.name}) has no such type${close.length ? ` (did you mean ${close.join(", ")}?)` : ""}.`,
        );
      }
      throw new UsageError(
        `${flag}: unknown event type "${item}"${dialectNote}${close.length ? ` (did you mean ${close.join(", ")}?)` : ""}; see \`mq logs --help\` for the ${d.eventTypes.length} types.`,
      );
    }
  }
  return [...out];
}

/**
 * Checks the list filters typed against the dialect: available, repeatable where the dialect says
 * so, values valid, no two that exclude each other. Throws a one-line UsageError.
 */
export function parseLogsFilters(flags: Record<string, unknown>, d: Dialect, endpoint = "logs"): LogsFilterValues {
  const out: LogsFilterValues = {};
  for (const f of LOGS_FILTERS) {
    const raw = flags[f.key] as string[] | undefined;
    if (raw === undefined) continue;
    const param = paramOf(d, endpoint, f.param);
    if (param === undefined) throw notAvailable(f.flag, d, f.param);
    let values: Array<string | number>;
    switch (f.value) {
      case "pull-request":
        values = [...new Set(raw.map((v) => parseIntFlag(f.flag, v, 1, MAX_PULL_REQUEST)))];
        break;
      case "event-type":
        values = expandTypes(raw, d, f.flag);
        // only families of the other side: an exclusion of nothing is no filter, an inclusion of
        // nothing is an empty answer (the caller sends no request)
        if (values.length === 0 && f.param !== "event_type") continue;
        break;
      case "outcome": {
        const allowed = param.enum ?? d.outcomes;
        values = [...new Set(requireNonEmptyItems(f.flag, raw))];
        const bad = values.find((v) => !allowed.includes(String(v)));
        if (bad !== undefined) throw new UsageError(`${f.flag}: "${bad}" is not an outcome; allowed values: ${allowed.join(", ")}.`);
        break;
      }
      case "text":
        values = requireNonEmptyItems(f.flag, raw, 1000);
        break;
    }
    if (!param.array && values.length > 1) {
      throw new UsageError(`${f.flag} takes one value with the ${d.name} dialect: ${d.title} filters on a single ${f.param}.`);
    }
    out[f.param] = values;
  }
  for (const f of LOGS_FILTERS) {
    const other = paramOf(d, endpoint, f.param)?.exclusiveWith;
    if (other === undefined || out[f.param] === undefined || out[other] === undefined) continue;
    // the inclusion named first, whichever side the OpenAPI states the pair on
    const [first, second] = [f.param, other].sort((x, y) => Number(x.startsWith("not_")) - Number(y.startsWith("not_")));
    const flagOf = (param: string) => LOGS_FILTERS.find((g) => g.param === param)?.flag ?? param;
    throw new UsageError(`${flagOf(first!)} and ${flagOf(second!)} cannot be used together: the API refuses ${first} with ${second}.`);
  }
  return out;
}

/** The flags that give `values` back, for a resume command. */
export function filterArgs(values: LogsFilterValues): string[] {
  const args: string[] = [];
  for (const f of LOGS_FILTERS) {
    const v = values[f.param];
    if (v === undefined || v.length === 0) continue;
    if (f.value === "text") for (const one of v) args.push(f.flag, String(one));
    else args.push(f.flag, v.join(","));
  }
  return args;
}

/** The query parameters of `values`: a list where the dialect repeats the parameter, else the one value. */
export function filterQuery(
  values: LogsFilterValues,
  d: Dialect,
  endpoint = "logs",
): Record<string, string | number | Array<string | number> | undefined> {
  const q: Record<string, string | number | Array<string | number> | undefined> = {};
  for (const f of LOGS_FILTERS) {
    const v = values[f.param];
    if (v === undefined) continue;
    q[f.param] = paramOf(d, endpoint, f.param)?.array === false ? v[0] : v;
  }
  return q;
}

const PLACEHOLDER: Record<string, string> = { "pull-request": "<number>", "event-type": "<type>", outcome: "<outcome>", text: "<trigger>" };

/** The list filters as commander options, help naming the dialects that have each. */
export function logsFilterOptions(): Option[] {
  const dialects = [SPEC_DIALECT, MERGIFY_DIALECT];
  return LOGS_FILTERS.map((f) =>
    new Option(`${f.flag} ${PLACEHOLDER[f.value]}`, filterHelp(f, dialects)).argParser(f.value === "text" ? collectWhole : collectFilter),
  );
}

/** Event types of both dialects for help: what they share, and what only one side has. */
export function eventTypesHelp(): string {
  const spec = new Set(SPEC_DIALECT.eventTypes);
  const real = new Set(MERGIFY_DIALECT.eventTypes);
  const both = [...spec].filter((t) => real.has(t));
  return `
Event types: ${both.join(", ")}
Only with --dialect spec (the contract, mq serve): ${[...spec].filter((t) => !real.has(t)).join(", ")}
Only with --dialect mergify (the real service): ${[...real].filter((t) => !spec.has(t)).join(", ")}
Families: ${[...new Set([...SPEC_DIALECT.eventFamilies, ...MERGIFY_DIALECT.eventFamilies])].sort().join(", ")}
Outcomes (mergify): ${MERGIFY_DIALECT.outcomes.join(", ")}`;
}

/** A --since/--until window longer than the dialect allows, refused before it becomes a 422. */
export function checkWindow(d: Dialect, since: Date | undefined, until: Date | undefined, now: Date, flags = "--since/--until"): void {
  if (d.maxWindowDays === undefined || since === undefined) return;
  const days = ((until ?? now).getTime() - since.getTime()) / 86_400_000;
  if (days > d.maxWindowDays) {
    throw new UsageError(
      `${flags} spans ${Math.ceil(days)} days: with the ${d.name} dialect, ${d.title} answers at most ${d.maxWindowDays} days at once.`,
    );
  }
}
