// Levels sampled as they change: the queue's size (action.queue.change) and its running checks
// (action.queue.checks.change).
import { FACT } from "../simulate/index.js";
import { addToSpread } from "../stats/accumulators.js";
import { meta } from "../stats/fields.js";
import { noPriority, noPriorityKey } from "../stats/keys.js";
import { distribution } from "./distribution.js";

/** queue_size: avg / max / min of the size the queue.change events report */
export const QUEUE_SIZE = distribution(
  "action.queue.change",
  (e) => (typeof meta(e).size === "number" ? (meta(e).size as number) : undefined),
  ["avg_size", "max_size", "min_size"],
  // a: the size
  { kinds: [FACT.change], add: (cell, f, c) => addToSpread(cell(c.key), f.a) },
  { from: "`action.queue.change`", figure: "avg / max / min of `size` over the events of the bucket" },
);

/** running_speculative_checks: avg / max / min of running checks, per group without its priority */
export const RUNNING_SPECULATIVE_CHECKS = distribution(
  "action.queue.checks.change",
  (e) => (typeof meta(e).running_checks === "number" ? (meta(e).running_checks as number) : undefined),
  ["avg_running_checks", "max_running_checks", "min_running_checks"],
  // a: the running checks (the fact has no priority, as its event)
  { kinds: [FACT.checksChange], add: (cell, f, c) => addToSpread(cell(noPriorityKey(c.key)), f.a) },
  { from: "`action.queue.checks.change`", figure: "avg / max / min of `running_checks`; groups without `priority_rule_name`" },
  { keyFn: noPriority },
);
