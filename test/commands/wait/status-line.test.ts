// mq wait's status line on a terminal, against the bundled simulation at a fixed present (mq's clock
// a week ahead of it: the log's "now" is the server's present, the Date of its answers): the pull
// request's queue, its position among those of its queue and partition, its state, and the
// estimated merge time as a range from now, as `mq queue` gives them at the same instant; the line
// is cut to the terminal's width (a wrapped line would not be rewritten in place).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDuration } from "../../../src/output/format.js";
import { runMq } from "../../reliability/harness.js";
import { drivenServer, type DrivenServer } from "../../helpers/watch.js";

const T0 = new Date("2026-11-20T09:00:00Z");
const WEEK_AHEAD = new Date(T0.getTime() + 7 * 86_400_000);
let server: DrivenServer;
beforeAll(async () => {
  server = await drivenServer(T0, { days: 8, repos: ["acme/web"] });
});
afterAll(() => server?.server.close());

type Row = {
  pull_request: number;
  base_ref: string;
  queue_name: string;
  partition_name: string | null;
  position: number;
  eta_p50: string | null;
  eta_p90: string | null;
};

/** `mq wait N` on a terminal at T0, Ctrl-C at its first sleep */
function waitOnTerminal(pr: number, columns: number) {
  const ac = new AbortController();
  return runMq(["wait", String(pr), "--since", "7d", "--interval", "30"], {
    apiUrl: server.url,
    now: () => WEEK_AHEAD,
    tty: true,
    columns,
    signal: ac.signal,
    sleep: async (_ms: number, signal: AbortSignal) => {
      ac.abort();
      if (signal.aborted) throw new Error("aborted");
    },
  });
}

describe("mq wait's status line", () => {
  it("position of K in its queue and partition, state, and the estimate, as mq queue says at that instant", async () => {
    const q = await runMq(["queue", "--since", "7d", "--until", T0.toISOString(), "-o", "json"], { apiUrl: server.url, now: () => T0 });
    const rows = JSON.parse(q.stdout) as Row[];
    const row = rows.find((r) => r.eta_p50 !== null && r.position > 1) ?? rows[0]!;
    const of = rows.filter(
      (r) => r.base_ref === row.base_ref && r.queue_name === row.queue_name && r.partition_name === row.partition_name,
    ).length;
    const r = await waitOnTerminal(row.pull_request, 250);
    expect(r.code).toBe(130);
    const line = r.stderr.split("\r\x1b[K")[1]!;
    const span = (iso: string) => formatDuration((Date.parse(iso) - T0.getTime()) / 1000);
    expect(line.startsWith(`#${row.pull_request} in ${row.queue_name}, position ${row.position} of ${of}: `)).toBe(true);
    expect(line.endsWith(row.eta_p50 ? `; merge expected in ${span(row.eta_p50)}–${span(row.eta_p90!)}` : "; no estimate yet")).toBe(true);
  });

  it("is cut to the terminal's width", async () => {
    const q = await runMq(["queue", "--since", "7d", "--until", T0.toISOString(), "-o", "json"], { apiUrl: server.url, now: () => T0 });
    const row = (JSON.parse(q.stdout) as Row[])[0]!;
    const r = await waitOnTerminal(row.pull_request, 40);
    const line = r.stderr.split("\r\x1b[K")[1]!;
    expect(line).toHaveLength(39);
    expect(line.endsWith("…")).toBe(true);
  });
});
