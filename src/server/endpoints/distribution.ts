// avg / max / min of a value per group and bucket: the shape of several endpoints (queue size,
// running checks, batch size, total queue time).
import type { StoredEvent } from "../store.js";
import { addToSpread, SPREAD, type Spread } from "../stats/accumulators.js";
import { interval } from "../stats/buckets.js";
import { grouped, type EndpointDoc, type FactReader, type Spec } from "../stats/engine.js";
import { round } from "../stats/fields.js";
import { byKey, keyOf } from "../stats/keys.js";

/**
 * The value is an integer (ms for durations, shown in seconds) so sums are exact in any order. A
 * dedupe key counts its first event only.
 */
export function distribution(
  type: string,
  value: (e: StoredEvent, t: number) => number | undefined,
  fields: [avg: string, max: string, min: string],
  facts: FactReader<Spread>,
  doc: EndpointDoc,
  options: { keyFn?: (e: StoredEvent) => object; dedupe?: (e: StoredEvent) => string | undefined; unit?: number } = {},
): Spec<Spread> {
  const keyFn = options.keyFn ?? keyOf;
  const unit = options.unit ?? 1;
  return {
    types: [type],
    ...SPREAD,
    add: (acc, e, t, sink) => {
      const v = value(e, t);
      if (v === undefined || !Number.isFinite(v)) return;
      const d = options.dedupe?.(e);
      if (d !== undefined) {
        if (!sink.first("dedupe", d)) return;
      }
      addToSpread(acc(keyFn(e), t), v);
    },
    facts,
    doc,
    render: (slots, buckets, f, _from, _to, o) => ({
      groups: grouped(
        slots,
        buckets,
        byKey(f),
        (a, b) => {
          const rec: Record<string, unknown> = {
            ...interval(b),
            [fields[0]]: round(a!.sum / unit / a!.n),
            [fields[1]]: a!.max / unit,
            [fields[2]]: a!.min / unit,
          };
          if (o.sums) {
            const name = fields[0].replace(/^avg_/, "");
            rec[`sum_${name}`] = round(a!.sum / unit);
            rec[`count_${name}`] = a!.n;
          }
          return [rec];
        },
        false,
      ),
    }),
  };
}
