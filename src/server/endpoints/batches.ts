// Batches: their size, their bisections, and the batches whose checks were cut short because a
// batch behind them passed (the real service's skip_intermediate_results).
import { FACT } from "../simulate/index.js";
import { addBisectionEnd, addBisectionStart, addToSpread, BISECTIONS, COUNT, type Bisections, type Count } from "../stats/accumulators.js";
import { interval } from "../stats/buckets.js";
import { grouped, type Slots, type Spec } from "../stats/engine.js";
import { meta, round, trainCar } from "../stats/fields.js";
import { byKey, keyOf } from "../stats/keys.js";
import { distribution } from "./distribution.js";

const BISECTION_START = "action.queue.batch_bisection_start";

/** batch_size: avg / max / min of the pull requests of each train car, counted once per car */
export const BATCH_SIZE = distribution(
  "action.queue.checks_start",
  (e) => {
    // the contract lists the batch at the top; the real service nests it in the speculative check
    const m = meta(e);
    const n =
      m.pull_request_numbers ?? (m.speculative_check_pull_request as { pull_request_numbers?: unknown } | undefined)?.pull_request_numbers;
    return Array.isArray(n) ? n.length : undefined;
  },
  ["avg_batch_size", "max_batch_size", "min_batch_size"],
  // a: the batch's size; flag: the car's first fact (a car starts once, its facts all at one time)
  { kinds: [FACT.checksStart], add: (cell, f, c) => void (f.flag && addToSpread(cell(c.key), f.a)) },
  { from: "`action.queue.checks_start`", figure: "avg / max / min of `pull_request_numbers.length`, once per `train_car_id`" },
  { dedupe: (e) => (trainCar(e) === undefined ? undefined : `batch:${trainCar(e)}`) },
);

/** batch_bisection: bisections started (depth, batch size before the split) and completed (culprit found, gave up) */
export const BATCH_BISECTION: Spec<Bisections> = {
  types: [BISECTION_START, "action.queue.batch_bisection_end"],
  ...BISECTIONS,
  add: (acc, e, t) => {
    const m = meta(e);
    const a = acc(keyOf(e), t);
    if (e.type === BISECTION_START) {
      addBisectionStart(
        a,
        typeof m.bisection_depth === "number" ? m.bisection_depth : 0,
        typeof m.batch_size_before_split === "number" ? m.batch_size_before_split : 0,
      );
    } else {
      addBisectionEnd(a, m.culprit_found === true, m.max_failure_resolution_reached === true);
    }
  },
  doc: {
    from: "`batch_bisection_start` / `_end`",
    figure:
      "started: count, mean and max `bisection_depth`, mean `batch_size_before_split`; completed: count, `culprit_found` count, `max_failure_resolution_reached` count",
  },
  facts: {
    kinds: [FACT.bisectionStart, FACT.bisectionEnd],
    add: (cell, f, c) => {
      // start: a the depth, b the size before the split; end: flag culprit found, flag2 max reached
      if (f.kind === FACT.bisectionStart) addBisectionStart(cell(c.key), f.a, f.b);
      else addBisectionEnd(cell(c.key), f.flag, f.flag2);
    },
  },
  render: (slots, buckets, f) => {
    const only = (keep: (a: Bisections) => boolean): Slots<Bisections> =>
      new Map([...slots].map(([s, m]) => [s, new Map([...m].filter(([, a]) => keep(a)))]));
    return {
      started: grouped(
        only((a) => a.started > 0),
        buckets,
        byKey(f),
        (a, b) => [
          {
            ...interval(b),
            bisection_count: a!.started,
            avg_depth: round(a!.depthSum / a!.started),
            max_depth: a!.maxDepth,
            avg_batch_size_before_split: round(a!.sizeSum / a!.started),
          },
        ],
        false,
      ),
      completed: grouped(
        only((a) => a.completed > 0),
        buckets,
        byKey(f),
        (a, b) => [
          {
            ...interval(b),
            bisection_completed_count: a!.completed,
            culprit_found_count: a!.culpritFound,
            max_failure_reached_count: a!.maxReached,
          },
        ],
        false,
      ),
    };
  },
};

/**
 * skip_intermediate_results: batches whose checks were cut short because a batch behind them
 * passed (checks_end aborted with INTERMEDIATE_RESULTS_SKIPPED), each batch counted once, per
 * interval, zeros included (every group with checks in the window is listed).
 */
export const SKIP_INTERMEDIATE_RESULTS: Spec<Count> = {
  types: ["action.queue.checks_end"],
  ...COUNT,
  add: (acc, e, t, sink) => {
    const a = acc(keyOf(e), t);
    const m = meta(e);
    if (m.abort_code !== "INTERMEDIATE_RESULTS_SKIPPED") return;
    const batch = typeof m.batch_id === "string" ? m.batch_id : typeof m.train_car_id === "string" ? m.train_car_id : undefined;
    if (batch !== undefined) {
      if (!sink.first("skipped", batch)) return;
    }
    a.n++;
  },
  doc: {
    from: "`action.queue.checks_end`",
    figure:
      "`batches_saved` = checks_end events whose `abort_code` is `INTERMEDIATE_RESULTS_SKIPPED`, once per `batch_id` (else `train_car_id`); every bucket listed, zeros included, for every group with checks in the window",
  },
  facts: {
    kinds: [FACT.checksEnd],
    add: (cell, f, c) => {
      // text: the abort code; flag: the car's first fact (a car ends once)
      const a = cell(c.key);
      if (f.text === "INTERMEDIATE_RESULTS_SKIPPED" && f.flag) a.n++;
    },
  },
  render: (slots, buckets, f) => ({
    groups: grouped(slots, buckets, byKey(f), (a, b) => [{ ...interval(b), batches_saved: a?.n ?? 0 }], true),
  }),
};
