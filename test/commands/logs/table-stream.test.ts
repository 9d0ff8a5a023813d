// The long logs table streams its rows through a plain fixed-width writer once the column widths
// are fixed: the whole table must be exactly what renderTable gives for the same rows and widths.
import { afterEach, describe, expect, it, vi } from "vitest";
import fixtures from "../../../src/api/fixtures/events.json";
import { testContext } from "../../helpers/context.js";
import type { LogEvent } from "../../../src/api/events.js";

// 1,300 events of every fixture shape (some with long summaries, others plain), newest first
function events(): LogEvent[] {
  const shapes = fixtures as unknown as LogEvent[];
  return Array.from({ length: 1300 }, (_, i) => {
    const shape = shapes[i % shapes.length]!;
    // the real service's derived outcome on most events (the OUTCOME column, coloured), none on some
    const outcome = ["success", "failure", "pending", undefined][i % 4];
    return {
      ...shape,
      id: 5000 - i,
      received_at: new Date(Date.parse("2026-11-20T11:00:00Z") - i * 37_000).toISOString(),
      ...(outcome ? { outcome } : {}),
    };
  });
}

async function tableText(columns: number, viaCliTable: boolean, outcome = false): Promise<string> {
  vi.resetModules();
  if (viaCliTable) {
    // the streaming writer replaced by renderTable itself, at the same widths
    vi.doMock("../../../src/output/table.js", async (importOriginal) => {
      const real = await importOriginal<typeof import("../../../src/output/table.js")>();
      return {
        ...real,
        fixedWidthRows: (widths: number[]) => (rows: string[][]) => {
          const text = real.renderTable({ head: widths.map(() => "H"), rows, widths });
          return text.slice(text.indexOf("\n") + 1);
        },
      };
    });
  }
  const { createEventTable } = await import("../../../src/commands/logs/table.js");
  const ctx = testContext({ tty: true, columns, env: { FORCE_COLOR: "1" } });
  const table = createEventTable(ctx.io, {
    now: () => new Date("2026-11-20T12:00:00Z"),
    trusted: (ev) => ev.id % 7 !== 0,
    eager: false,
    outcome,
  });
  const all = events();
  for (let i = 0; i < all.length; i += 100) await table.write(all.slice(i, i + 100));
  await table.end();
  vi.doUnmock("../../../src/output/table.js");
  return ctx.stdoutText();
}

describe("the streamed logs table", () => {
  afterEach(() => vi.doUnmock("../../../src/output/table.js"));

  it.each([60, 80, 120, 200])("is byte for byte the renderTable table at %i columns, colours included", async (columns) => {
    const streamed = await tableText(columns, false);
    const reference = await tableText(columns, true);
    expect(streamed.split("\n").length).toBe(1302);
    expect(streamed).toContain("\u001b[");
    expect(streamed).toBe(reference);
  });

  it.each([60, 80, 120])("with the OUTCOME column (the real service's events) too, at %i columns", async (columns) => {
    const streamed = await tableText(columns, false, true);
    const reference = await tableText(columns, true, true);
    expect(streamed.split("\n")[0]).toMatch(/OUTCOME/);
    expect(streamed).toBe(reference);
  });
});

describe("the TIME column off a terminal", () => {
  it("is the instant cut to the second in UTC, in the one form of a time, whatever the spelling (the Date round trip's text)", async () => {
    const fc = (await import("fast-check")).default;
    const { createEventTable } = await import("../../../src/commands/logs/table.js");
    const shape = (fixtures as unknown as LogEvent[])[0]!;
    const spell = fc
      .tuple(
        fc.date({ min: new Date("0001-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z"), noInvalidDate: true }),
        fc.constantFrom("", ".5", ".000001", ".999999999"),
        fc.constantFrom("Z", "z", "+00:00", "-00:00", "+02:00", "-11:30"),
      )
      .map(([d, frac, zone]) => d.toISOString().slice(0, 19) + frac + zone);
    await fc.assert(
      fc.asyncProperty(fc.array(spell, { minLength: 1, maxLength: 20 }), async (instants) => {
        const ctx = testContext({ tty: false });
        const table = createEventTable(ctx.io, { now: () => new Date("2026-11-20T12:00:00Z"), trusted: () => true, eager: true });
        await table.write(instants.map((received_at, i) => ({ ...shape, id: i, received_at })));
        await table.end();
        await new Promise((r) => setImmediate(r));
        const times = ctx
          .stdoutText()
          .split("\n")
          .slice(1, -1)
          .map((line) => line.split("  ")[0]);
        expect(times).toEqual(
          instants.map((s) => new Date(Math.floor(Date.parse(s) / 1000) * 1000).toISOString().replace("T", " ").replace(".000Z", "Z")),
        );
      }),
      { numRuns: 100 },
    );
  });
});
