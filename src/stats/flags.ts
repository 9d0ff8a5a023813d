// The flags of `mq stats <endpoint>` as data: one row per flag, naming the query parameter it sets
// and the kinds of endpoint that accept it. An endpoint record's `accepts` is read from here, and
// commands/stats builds its options, its "not accepted" messages and its query from the same rows.

/** Which query parameters an endpoint takes. */
export type StatsParamKind =
  | "filters" // the standard filter set F
  | "filters-no-priority" // F without priority_rule_name (running-speculative-checks)
  | "range" // start_at and end_at only (branches, queues)
  | "time-to-merge"; // at and branch

export interface StatsFlag {
  /** as users type it */
  readonly flag: string;
  /** commander's option key */
  readonly key: "baseRef" | "partition" | "queue" | "priorityRule" | "since" | "until" | "at" | "branch";
  readonly value: string;
  readonly help: string;
  /** array filters of F: repeatable, comma-separated, sent as this query parameter */
  readonly filterParam?: string;
  readonly acceptedBy: readonly StatsParamKind[];
}

const F: readonly StatsParamKind[] = ["filters", "filters-no-priority"];
const WINDOW: readonly StatsParamKind[] = ["filters", "filters-no-priority", "range"];

/** In the order messages list them. */
export const STATS_FLAGS: readonly StatsFlag[] = [
  {
    flag: "--base-ref",
    key: "baseRef",
    value: "<name>",
    filterParam: "base_ref",
    acceptedBy: F,
    help: "only this base ref (repeatable, comma-separated)",
  },
  {
    flag: "--partition",
    key: "partition",
    value: "<name>",
    filterParam: "partition_name",
    acceptedBy: F,
    help: "only this partition (repeatable, comma-separated)",
  },
  {
    flag: "--queue",
    key: "queue",
    value: "<name>",
    filterParam: "queue_name",
    acceptedBy: F,
    help: "only this queue (repeatable, comma-separated)",
  },
  {
    flag: "--priority-rule",
    key: "priorityRule",
    value: "<name>",
    filterParam: "priority_rule_name",
    acceptedBy: ["filters"],
    help: "only this priority rule (repeatable, comma-separated)",
  },
  // --since's help is completed by the command (it names the time syntax)
  { flag: "--since", key: "since", value: "<time>", acceptedBy: WINDOW, help: "start of the window" },
  { flag: "--until", key: "until", value: "<time>", acceptedBy: WINDOW, help: "end of the window (default: now)" },
  { flag: "--at", key: "at", value: "<time>", acceptedBy: ["time-to-merge"], help: "time to merge as of this instant" },
  { flag: "--branch", key: "branch", value: "<name>", acceptedBy: ["time-to-merge"], help: "time to merge for this branch" },
];

export function acceptedFlags(kind: StatsParamKind): readonly string[] {
  return STATS_FLAGS.filter((f) => f.acceptedBy.includes(kind)).map((f) => f.flag);
}
