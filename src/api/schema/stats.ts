// The statistics responses (docs/api.md §2.6, §4.2), built from the endpoint records of src/stats/endpoints.ts:
// one builder per response shape, the figures (and their JSON types) and the category field read
// from the record, so a record is the only place an endpoint's fields are written down.
// Objects are loose: the real service adds fields (sum_*, count_*, summary) that must survive.
import * as z from "zod";
import { STATS_ENDPOINTS, type FieldSpec, type StatsEndpoint } from "../../stats/endpoints.js";
import { CHECKS_OUTCOME_COUNTERS, DateTimeSchema } from "./common.js";

/** The endpoint names, in the order of the records. */
export const STATS_ENDPOINT_NAMES: readonly string[] = STATS_ENDPOINTS.map((e) => e.name);
export type StatsEndpointName = string;

const num = z.number();
const int = z.int();

const intervalShape = { start: DateTimeSchema, end: DateTimeSchema };

// The real service's groups carry no partition_name (nor partition_names): `lenient` builds the
// same schemas with those keys optional, so parseStatsResponse can tell "differs from the contract
// the way the real service does" (a warning) from "broken" (an error).
function groupKeys(lenient: boolean, opts: { priority?: boolean; partitions?: boolean } = {}) {
  const { priority = true, partitions = false } = opts;
  const partition = partitions
    ? { partition_names: lenient ? z.array(z.string()).optional() : z.array(z.string()) }
    : { partition_name: lenient ? z.string().optional() : z.string() };
  return {
    base_ref: z.string(),
    ...partition,
    queue_name: z.string(),
    ...(priority ? { priority_rule_name: z.string().nullable() } : {}),
  };
}

function groupsOf<S extends z.core.$ZodLooseShape>(lenient: boolean, fields: S, opts?: { priority?: boolean; partitions?: boolean }) {
  return z.looseObject({
    groups: z.array(z.looseObject({ ...groupKeys(lenient, opts), stats: z.array(z.looseObject({ ...intervalShape, ...fields })) })),
  });
}

/** QueueChecksOutcome: one optional integer counter per abort code and SUCCESS; unknown counters kept. */
export const QueueChecksOutcomeSchema = z.looseObject(
  Object.fromEntries(CHECKS_OUTCOME_COUNTERS.map((c) => [c, int.optional()])) as {
    [K in (typeof CHECKS_OUTCOME_COUNTERS)[number]]: z.ZodOptional<z.ZodInt>;
  },
);
export type QueueChecksOutcome = z.infer<typeof QueueChecksOutcomeSchema>;

function figureSchema(spec: FieldSpec): z.ZodType {
  const base = spec.type === "int" ? int : num;
  return spec.nullable ? base.nullable() : base;
}

/** The schemas of `names` among the endpoint's figures, in the record's order. */
function figureShape(endpoint: StatsEndpoint, names: readonly string[] = endpoint.fields): Record<string, z.ZodType> {
  return Object.fromEntries(names.map((n) => [n, figureSchema(endpoint.figures[n]!)]));
}

function schemaOf(endpoint: StatsEndpoint, lenient: boolean): z.ZodType {
  const keys = { priority: endpoint.params !== "filters-no-priority", partitions: endpoint.partitionNames === true };
  switch (endpoint.shape) {
    case "time-to-merge":
      return z.array(
        z.looseObject({
          partition_name: lenient ? z.string().optional() : z.string(),
          queues: z.array(z.looseObject({ queue_name: z.string(), time_to_merge: z.looseObject(figureShape(endpoint)) })),
        }),
      );
    case "checks-outcome":
      return z.looseObject({ groups: z.array(z.looseObject({ ...groupKeys(lenient, keys), stats: QueueChecksOutcomeSchema })) });
    case "groups": {
      const category = endpoint.category ? { [endpoint.category]: z.string() } : {};
      return groupsOf(lenient, { ...category, ...figureShape(endpoint) }, keys);
    }
    case "bisection": {
      const sections = endpoint.sections ?? { started: endpoint.fields, completed: [] };
      return z.looseObject({
        started: groupsOf(lenient, figureShape(endpoint, sections.started), keys).shape.groups,
        completed: groupsOf(lenient, figureShape(endpoint, sections.completed), keys).shape.groups,
      });
    }
    case "list":
      return z.looseObject({ [endpoint.listKey ?? "names"]: z.array(z.string()) });
  }
}

function build(lenient: boolean): Record<string, z.ZodType> {
  return Object.fromEntries(STATS_ENDPOINTS.map((e) => [e.name, schemaOf(e, lenient)]));
}

/** The contract's response schema per endpoint name. */
export const STATS_RESPONSE_SCHEMAS = build(false);
/** The same, the group keys the real service omits (partition_name, partition_names) optional. */
export const LENIENT_STATS_RESPONSE_SCHEMAS = build(true);

export function isStatsEndpointName(name: string): name is StatsEndpointName {
  return Object.prototype.hasOwnProperty.call(STATS_RESPONSE_SCHEMAS, name);
}

// the check of an answer, which needs no zod (stats-check.ts)
export { parseStatsResponse, type ParseStatsOptions } from "./stats-check.js";
