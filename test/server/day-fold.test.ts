// A window's calendar days are folded one at a time by the server's thread (from the front) and by
// a helper thread (from the back): a day's partials must not depend on the direction, and must be
// the one-pass fold's (every simulated day's facts, oldest simulated day first). Partials cross
// to the server's thread packed: unpacked, they are the same values, in the same order, under this
// thread's own interned group keys.
import { describe, expect, it } from "vitest";
import { DayFolder, foldAll } from "../../src/server/stats/day-fold.js";
import { simulateDayFacts } from "../../src/server/simulate/index.js";
import { CONTRACT_VIEW, FactAccumulation, type FactView } from "../../src/server/stats/index.js";
import { PartialsPacker, PartialsUnpacker, STATS_SPECS, type Partials } from "../../src/server/stats/index.js";
import { MERGIFY_FACT_VIEW } from "../../src/server/dialects/mergify-events.js";

const DAY = 86_400_000;
// 20405 is a Thursday (day 0, 1970-01-01, was one): the Friday after it reaches into Monday
const [FIRST, END] = [20406, 20411];
const VIEWS: Array<[string, FactView]> = [
  ["the contract's shape", CONTRACT_VIEW],
  ["the real service's shape", MERGIFY_FACT_VIEW],
];

/** every calendar day of [first, end) in one pass over the facts of each simulated day, oldest first */
function onePass(repo: string, seed: number, view: FactView, historyDay: number): Map<number, Partials> {
  const out = new Map<number, FactAccumulation>();
  for (let d = FIRST; d < END; d++) out.set(d, new FactAccumulation(d, view));
  for (let s = Math.max(FIRST - 3, historyDay); s < END; s++) {
    for (const f of simulateDayFacts({ repo, seed, day: s })) out.get(Math.floor(f.t / DAY))?.add(f);
  }
  return new Map([...out].map(([d, acc]) => [d, acc.partials]));
}

/** a partials' every key (interned objects) and value, in order */
const entries = (p: Partials) => [...p].map(([name, slots]) => [name, [...slots].map(([slot, m]) => [slot, [...m]])]);

describe("a day's partials, whichever thread and direction fold it", () => {
  it.each(VIEWS)("%s: every day, some days, blocks from the back and one pass alike, every endpoint", (_, view) => {
    for (const historyDay of [FIRST - 10, FIRST - 1]) {
      const expected = onePass("acme/web", 0, view, historyDay);
      const options = { repo: "acme/web", seed: 0, view, historyDay };
      const all = [FIRST, FIRST + 1, FIRST + 2, FIRST + 3, FIRST + 4];
      const got = new Map<string, Map<number, Partials>>();
      // the server's thread: the days it is given, from the front, some skipped (the helper took them)
      for (const [name, days, asked] of [
        ["every day", all, all],
        ["every other day", all, [FIRST, FIRST + 2, FIRST + 4]],
        ["listed with gaps", [FIRST + 1, FIRST + 3, FIRST + 4], [FIRST + 1, FIRST + 3, FIRST + 4]],
      ] as const) {
        const folder = new DayFolder(options, days);
        got.set(name, new Map(asked.map((d) => [d, foldAll(folder.fold(d))])));
      }
      // the helper: blocks from the back, each block by a folder of its own
      const blocks = new Map<number, Partials>();
      for (const block of [all.slice(3), all.slice(1, 3), all.slice(0, 1)]) {
        const folder = new DayFolder(options, block);
        for (const d of block) blocks.set(d, foldAll(folder.fold(d)));
      }
      got.set("blocks from the back", blocks);
      for (const [name, days] of got) {
        for (const [d, partials] of days)
          expect(entries(partials), `${name}: day ${d}, history from ${historyDay}`).toEqual(entries(expected.get(d)!));
      }
    }
  });

  it("a day is asked for once, in order, and only a listed one", () => {
    const folder = new DayFolder({ repo: "acme/web", seed: 0, view: CONTRACT_VIEW, historyDay: 0 }, [FIRST, FIRST + 2]);
    expect(() => foldAll(folder.fold(FIRST + 1))).toThrow(/not listed/);
    foldAll(folder.fold(FIRST + 2));
    expect(() => foldAll(folder.fold(FIRST))).toThrow(/not listed after/);
  });

  it("a simulated day's facts fold only into the calendar days it reaches", () => {
    const folder = new DayFolder({ repo: "acme/web", seed: 0, view: CONTRACT_VIEW, historyDay: 0 }, []);
    // Friday 20406 reaches Monday 20409, Saturday and Sunday the next day only
    expect(folder.simulatedDaysOf(20409)).toEqual([20406, 20408, 20409]);
    expect(folder.simulatedDaysOf(20406)).toEqual([20405, 20406]);
    // none before the history
    expect(new DayFolder({ repo: "acme/web", seed: 0, view: CONTRACT_VIEW, historyDay: 20407 }, []).simulatedDaysOf(20409)).toEqual([
      20408, 20409,
    ]);
  });

  it.each(VIEWS)("%s: packed and unpacked, the same values in the same order under this thread's interned keys", (_, view) => {
    const folder = new DayFolder({ repo: "bench/year0", seed: 42, view, historyDay: 0 }, [FIRST, FIRST + 1, FIRST + 2]);
    const days = [FIRST, FIRST + 1, FIRST + 2].map((d) => foldAll(folder.fold(d)));
    // one stream of messages: the keys a day names are sent the first time only
    const packer = new PartialsPacker();
    const unpacker = new PartialsUnpacker();
    const packed = days.map((day) => structuredClone(packer.pack(day)));
    expect(packed[0]!.keys.length).toBeGreaterThan(10);
    expect(packed[1]!.keys.length).toBeLessThan(packed[0]!.keys.length);
    const back = packed.map((p) => unpacker.unpack(p));
    days.forEach((day, i) => {
      expect([...back[i]!.keys()]).toEqual(Object.keys(STATS_SPECS));
      expect(entries(back[i]!)).toEqual(entries(day));
      for (const [name, slots] of day) {
        for (const [slot, m] of slots) {
          // the very key objects: the merge of a window looks values up by key identity
          const got = back[i]!.get(name)!.get(slot)!;
          expect([...got.keys()]).toHaveLength(m.size);
          [...got.keys()].forEach((k, n) => expect(k, `${name}: ${JSON.stringify(k)}`).toBe([...m.keys()][n]));
        }
      }
    });
    // checks_retries' sessions carry their group key, interned as well
    const sessions = [...days[0]!.get("checks-retries")!.get(0)!.values()][0] as Map<string, { key: object }>;
    const unpacked = [...back[0]!.get("checks-retries")!.get(0)!.values()][0] as Map<string, { key: object }>;
    expect(sessions.size).toBeGreaterThan(0);
    for (const [sid, s] of sessions) expect(unpacked.get(sid)!.key).toBe(s.key);
  });
});
