// The contract of /work/shared/spec/api.md (the bundled server's default) as a dialect record.
import { ABORT_CODES } from "../abort-codes.js";
import { EVENT_TYPES } from "../event-types.js";
import { STATS_ENDPOINTS, type StatsParamKind } from "../../stats/endpoints.js";
import { familiesOf, type Dialect, type ParamSpec } from "./types.js";

const dateTime = (name: string): ParamSpec => ({ name, array: false, type: "string", format: "date-time" });
const names = (name: string): ParamSpec => ({ name, array: true, type: "string", minLength: 1, maxLength: 255, maxItems: 255 });

/** spec 4.2: the standard filter set F and its variants */
const STATS_PARAMS: Record<StatsParamKind, ParamSpec[]> = {
  filters: [names("base_ref"), names("partition_name"), names("queue_name"), names("priority_rule_name"), dateTime("start_at"), dateTime("end_at")],
  "filters-no-priority": [names("base_ref"), names("partition_name"), names("queue_name"), dateTime("start_at"), dateTime("end_at")],
  range: [dateTime("start_at"), dateTime("end_at")],
  "time-to-merge": [dateTime("at"), { name: "branch", array: false, type: "string" }],
};

/** spec 4.1 */
const LOGS_PARAMS: ParamSpec[] = [
  { name: "pull_request", array: false, type: "integer", minimum: 1, exclusiveMaximum: 2147483647 },
  { name: "base_ref", array: false, type: "string", minLength: 1, maxLength: 255 },
  { name: "event_type", array: true, type: "string", enum: EVENT_TYPES },
  dateTime("received_from"),
  dateTime("received_to"),
  { name: "cursor", array: false, type: "string" },
  { name: "per_page", array: false, type: "integer", minimum: 1, maximum: 100, default: 10 },
];

export const SPEC_DIALECT: Dialect = {
  name: "spec",
  title: "the contract of docs/api.md",
  eventTypes: EVENT_TYPES,
  eventFamilies: familiesOf(EVENT_TYPES),
  outcomes: [],
  abortCodes: ABORT_CODES,
  endpoints: {
    logs: LOGS_PARAMS,
    ...Object.fromEntries(STATS_ENDPOINTS.filter((e) => e.dialects.includes("spec")).map((e) => [`stats/${e.path}`, STATS_PARAMS[e.params]])),
  },
  defaultPerPage: 10,
  linkRels: ["next", "prev", "first", "last"],
  partitions: true,
  hosts: [],
};
