// Pull requests that entered the queue and that it merged, per interval.
import { FACT } from "../simulate/index.js";
import { COUNT, type Count } from "../stats/accumulators.js";
import { interval } from "../stats/buckets.js";
import { grouped, type Spec } from "../stats/engine.js";
import { byKey, keyOf, matches, mergedKeyOf, type GroupKey } from "../stats/keys.js";

/** queues_entered_count: action.queue.enter events per group and interval, zeros included */
export const QUEUES_ENTERED_COUNT: Spec<Count> = {
  types: ["action.queue.enter"],
  ...COUNT,
  add: (acc, e, t) => void acc(keyOf(e), t).n++,
  doc: { from: "`action.queue.enter`", figure: "`entered` = number of events in the bucket" },
  facts: { kinds: [FACT.enter], add: (cell, _f, c) => void cell(c.key).n++ },
  render: (slots, buckets, f) => ({ groups: grouped(slots, buckets, byKey(f), (a, b) => [{ ...interval(b), entered: a?.n ?? 0 }], true) }),
};

/** queues_merged_count: action.queue.merged events per group (by partition_names) and interval, zeros included */
export const QUEUES_MERGED_COUNT: Spec<Count> = {
  types: ["action.queue.merged"],
  ...COUNT,
  add: (acc, e, t) => void acc(mergedKeyOf(e), t).n++,
  doc: { from: "`action.queue.merged`", figure: "`merged` = number of events; groups keyed by `partition_names`" },
  facts: { kinds: [FACT.merged], add: (cell, _f, c) => void cell(c.mergedKey()).n++ },
  render: (slots, buckets, f) => ({
    groups: grouped(
      slots,
      buckets,
      (k) => matches(k as GroupKey, f, (k as { partition_names: string[] }).partition_names),
      (a, b) => [{ ...interval(b), merged: a?.n ?? 0 }],
      true,
    ),
  }),
};
