// The names seen in the window's queue events: base refs (branches) and queues.
import { FACT } from "../simulate/index.js";
import { NAMES, type Names } from "../stats/accumulators.js";
import type { Spec } from "../stats/engine.js";
import { ALL_NAMES, keyOf } from "../stats/keys.js";

const QUEUE_TYPES = [
  "action.queue.enter",
  "action.queue.leave",
  "action.queue.merged",
  "action.queue.checks_start",
  "action.queue.checks_end",
  "action.queue.change",
];
/** the facts of those events (not checks.change, not bisections) */
const QUEUE_FACTS = [FACT.enter, FACT.change, FACT.checksStart, FACT.checksEnd, FACT.leave, FACT.merged];

/** queue names or base refs seen in queue events: one set for the window */
function names(field: "base_ref" | "queue_name", out: string, what: string): Spec<Names> {
  return {
    types: QUEUE_TYPES,
    whole: true,
    ...NAMES,
    add: (acc, e, t) => void acc(ALL_NAMES, t).add(keyOf(e)[field]),
    facts: { kinds: QUEUE_FACTS, add: (cell, f) => void cell(ALL_NAMES).add(field === "base_ref" ? f.lane.base : f.lane.queue.name) },
    doc: { from: "any `action.queue.enter/leave/merged/checks_start/checks_end/change`", figure: `sorted distinct ${what} in the window` },
    render: (slots) => {
      const set = new Set(slots.get(0)?.get(ALL_NAMES) ?? []);
      if (field === "base_ref") set.delete("");
      return { [out]: [...set].sort() };
    },
  };
}

export const BRANCHES = names("base_ref", "base_refs", "base refs");
export const QUEUES = names("queue_name", "queue_names", "queue names");
