// What one side of the API says, as data: the contract (spec) and the real service (mergify) are
// each one record of this shape. Commands, completion, the client's checks and the bundled server
// ask the record in effect; nothing else knows which side it talks to. Plain data only: this is
// read at start-up (help, completion, flag checks), before zod is loaded.

import type { DialectName } from "../../globals.js";

export { DIALECT_NAMES, type DialectName } from "../../globals.js";

/** One query parameter of an endpoint. */
export interface ParamSpec {
  name: string;
  /** repeatable (`?k=1&k=2`) */
  array: boolean;
  type: "integer" | "string";
  /** the values allowed, for enum parameters */
  enum?: readonly string[];
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  default?: unknown;
  /** the parameter that cannot be sent together with this one */
  exclusiveWith?: string;
}

export interface Dialect {
  name: DialectName;
  /** one line for help and errors */
  title: string;
  /** the values `event_type` accepts */
  eventTypes: readonly string[];
  /** family globs (`action.*`, `action.queue.*`, ...) over eventTypes */
  eventFamilies: readonly string[];
  /** the derived `outcome` labels of events; empty when events carry none */
  outcomes: readonly string[];
  /** `abort_code` values of action.queue.checks_end */
  abortCodes: readonly string[];
  /** query parameters of each endpoint, by path below /repos/{owner}/{repository}/ */
  endpoints: Readonly<Record<string, readonly ParamSpec[]>>;
  /** the longest window, in days, a query may span (undefined: no limit) */
  maxWindowDays?: number;
  /** events per page when per_page is not sent */
  defaultPerPage: number;
  /** the relations of the Link header of /logs */
  linkRels: readonly ("next" | "prev" | "first" | "last")[];
  /** statistics groups carry partition_name, and the filters take it */
  partitions: boolean;
  /** hosts of API URLs that speak this dialect without being told */
  hosts: readonly string[];
  /**
   * statistics answers made of groups of interval records, by path below /repos/{owner}/{repository}/:
   * the groups' keys, an interval record's fields and a group's summary, as this side sends them
   * (absent: the endpoint records of src/stats/endpoints.ts say it, as for the contract)
   */
  statsRecords?: Readonly<Record<string, { keys: readonly string[]; record: readonly string[]; summary: readonly string[] }>>;
}

/** `action.queue.*`, `action.*`, ... for every prefix of every type. */
export function familiesOf(types: readonly string[]): string[] {
  const families = new Set<string>();
  for (const t of types) {
    const parts = t.split(".");
    for (let i = 1; i < parts.length; i++) families.add(parts.slice(0, i).join(".") + ".*");
  }
  return [...families].sort();
}

/** The parameter `name` of `endpoint`, undefined when that side has no such parameter or path. */
export function paramOf(d: Dialect, endpoint: string, name: string): ParamSpec | undefined {
  return d.endpoints[endpoint]?.find((p) => p.name === name);
}

export function hasEndpoint(d: Dialect, endpoint: string): boolean {
  return Object.hasOwn(d.endpoints, endpoint);
}
