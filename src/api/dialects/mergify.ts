// The real service as a dialect record: everything below comes from its OpenAPI
// (mergify.generated.ts, generated from docs/mergify-openapi.json) except the facts the
// OpenAPI does not state, each marked with where it comes from.
import {
  MERGIFY_ABORT_CODES,
  MERGIFY_ENDPOINTS,
  MERGIFY_EVENT_TYPES,
  MERGIFY_OUTCOMES,
  MERGIFY_SERVER_URL,
  MERGIFY_STATS_RECORDS,
  type MergifyParam,
} from "./mergify.generated.js";
import { familiesOf, type Dialect, type ParamSpec } from "./types.js";

const ENUMS: Record<string, readonly string[]> = { EventType: MERGIFY_EVENT_TYPES, EventOutcome: MERGIFY_OUTCOMES };

function toParam(p: MergifyParam): ParamSpec {
  const { enumRef, ...rest } = p;
  return enumRef !== undefined ? { ...rest, enum: ENUMS[enumRef] } : rest;
}

export const MERGIFY_DIALECT: Dialect = {
  name: "mergify",
  title: "the real service's OpenAPI",
  eventTypes: MERGIFY_EVENT_TYPES,
  eventFamilies: familiesOf(MERGIFY_EVENT_TYPES),
  outcomes: MERGIFY_OUTCOMES,
  abortCodes: MERGIFY_ABORT_CODES,
  endpoints: Object.fromEntries(Object.entries(MERGIFY_ENDPOINTS).map(([path, params]) => [path, params.map(toParam)])),
  // Not in the OpenAPI; observed on the service (issue 13): events are kept 90 days, and a window
  // longer than about 93 days is a 422.
  maxWindowDays: 93,
  defaultPerPage: Number(MERGIFY_ENDPOINTS.logs!.find((p) => p.name === "per_page")?.default ?? 10),
  // The OpenAPI's example of the Link header lists four relations: the bundled server sends them all
  // (the service was seen sending only next and prev, issue 13; mq follows next only)
  linkRels: ["next", "prev", "first", "last"],
  // no stats group or filter of the OpenAPI has a partition
  partitions: false,
  hosts: [new URL(MERGIFY_SERVER_URL).hostname],
  statsRecords: MERGIFY_STATS_RECORDS,
};
