// What a watch of figures writes in a pipe: a record whose figures differ from the previous poll's
// record of the same identity (its text fields and rank), the window's and intervals' bounds being
// neither identity nor figure.
import { describe, expect, it } from "vitest";
import { FigureChanges, ndjsonRecords } from "../../src/watch/changes.js";

describe("FigureChanges", () => {
  it("the first poll writes every record; later ones only those whose figures changed, `at` first", () => {
    const c = new FigureChanges();
    const poll = (entered: number, merged: number, end: string) => [
      { repository: "acme/web", figure: "entered", value: entered, unit: "count" },
      { repository: "acme/web", figure: "merged", value: merged, unit: "count" },
      { start_at: "2026-11-19T09:00:00Z", end_at: end, entered, merged },
    ];
    expect(c.next(poll(3, 2, "2026-11-20T09:00:00Z"), "T0")).toEqual(poll(3, 2, "2026-11-20T09:00:00Z").map((r) => ({ at: "T0", ...r })));
    // the window moved, no figure did: nothing
    expect(c.next(poll(3, 2, "2026-11-20T09:00:10Z"), "T1")).toEqual([]);
    expect(c.next(poll(4, 2, "2026-11-20T09:00:20Z"), "T2")).toEqual([
      { at: "T2", repository: "acme/web", figure: "entered", value: 4, unit: "count" },
      { at: "T2", start_at: "2026-11-19T09:00:00Z", end_at: "2026-11-20T09:00:20Z", entered: 4, merged: 2 },
    ]);
  });

  it("a group's intervals are told apart by their start; a null that becomes a number is a change", () => {
    const c = new FigureChanges();
    const group = (a: number | null, b: number) => [
      { queue_name: "default", start: "09:00", avg_size: a },
      { queue_name: "default", start: "10:00", avg_size: b },
    ];
    c.next(group(null, 2), "T0");
    expect(c.next(group(1, 2), "T1")).toEqual([{ at: "T1", queue_name: "default", start: "09:00", avg_size: 1 }]);
    // the window moved on by an hour: the 09:00 interval left it, an 11:00 one is new
    expect(
      c.next(
        [
          { queue_name: "default", start: "10:00", avg_size: 2 },
          { queue_name: "default", start: "11:00", avg_size: 2 },
        ],
        "T2",
      ),
    ).toEqual([{ at: "T2", queue_name: "default", start: "11:00", avg_size: 2 }]);
  });

  it("records alike in every text field are told apart by their rank", () => {
    const c = new FigureChanges();
    c.next(
      [
        { q: "a", v: 1 },
        { q: "a", v: 2 },
      ],
      "T0",
    );
    expect(
      c.next(
        [
          { q: "a", v: 1 },
          { q: "a", v: 3 },
        ],
        "T1",
      ),
    ).toEqual([{ at: "T1", q: "a", v: 3 }]);
  });

  it("ndjsonRecords reads the object lines of a caught run", () => {
    expect(ndjsonRecords('{"a":1}\n\nnot json\n{"b":2}\n')).toEqual([{ a: 1 }, { b: 2 }]);
  });
});

describe("a group that leaves the window", () => {
  const poll = (queues: string[]) => queues.map((q) => ({ repository: "acme/web", queue_name: q, start: "09:00", avg_size: 1 }));

  it("is said by one record of its group fields and left_window: true, after the records that changed", () => {
    const c = new FigureChanges();
    c.next(poll(["default", "hotfix"]), "T0");
    expect(c.next([{ repository: "acme/web", queue_name: "default", start: "09:00", avg_size: 2 }], "T1")).toEqual([
      { at: "T1", repository: "acme/web", queue_name: "default", start: "09:00", avg_size: 2 },
      { at: "T1", repository: "acme/web", queue_name: "hotfix", left_window: true },
    ]);
    // once: gone is gone; back again, its records are new
    expect(c.next(poll(["default"]), "T2")).toEqual([
      { at: "T2", repository: "acme/web", queue_name: "default", start: "09:00", avg_size: 1 },
    ]);
    expect(c.next(poll(["default", "hotfix"]), "T3")).toEqual([
      { at: "T3", repository: "acme/web", queue_name: "hotfix", start: "09:00", avg_size: 1 },
    ]);
  });

  it("not after an incomplete poll (a repository not read has not left), nor for a record of the whole window", () => {
    const c = new FigureChanges();
    c.next([...poll(["default"]), { start_at: "a", end_at: "b", entered: 1 }], "T0");
    expect(c.next([{ start_at: "a", end_at: "c", entered: 1 }], "T1", false)).toEqual([]);
    expect(c.next([{ start_at: "a", end_at: "d", entered: 1 }], "T2")).toEqual([
      { at: "T2", repository: "acme/web", queue_name: "default", left_window: true },
    ]);
  });
});
