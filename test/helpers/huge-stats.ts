// Statistics answers far larger than a real one (well under the 64 MB body cap): one group with
// 130,000 hourly intervals, or 150,000 groups of one interval. Spreads such as Math.max(...xs)
// over them overflowed the stack (exit 70, "Maximum call stack size exceeded").
import type { Reply } from "./fault-server.js";

const START = Date.parse("2010-01-01T00:00:00Z");
const HOUR = 3_600_000;

function interval(i: number, entered: number): string {
  return `{"start":"${new Date(START + i * HOUR).toISOString()}","end":"${new Date(START + (i + 1) * HOUR).toISOString()}","entered":${entered}}`;
}

/** A `queues_entered_count` answer: `groups` groups of `intervals` intervals each. */
export function hugeEnteredCount(groups: number, intervals: number): Reply {
  const parts: string[] = [];
  for (let g = 0; g < groups; g++) {
    const stats: string[] = [];
    for (let i = 0; i < intervals; i++) stats.push(interval(i, (i + g) % 5));
    parts.push(
      `{"base_ref":"main","partition_name":"p${g}","queue_name":"default","priority_rule_name":null,"stats":[${stats.join(",")}]}`,
    );
  }
  return { status: 200, headers: { "content-type": "application/json" }, body: `{"groups":[${parts.join(",")}]}` };
}
