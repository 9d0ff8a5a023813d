import { describe, expect, it } from "vitest";
import { OUTPUT_FORMATS } from "../../src/context.js";
import { exportAll, FORMATS, openExport, type Export } from "../../src/output/exporter.js";
import { testContext } from "../helpers/context.js";

type Row = { id: number; tags: string[]; note?: string };

function rowsExport(extra: Partial<Export<Row>> = {}): Export<Row> & { tableCalls: Row[][] } {
  const tableCalls: Row[][] = [];
  return {
    tableCalls,
    table: () => ({
      async write(items) {
        tableCalls.push([...items]);
      },
      async end() {},
    }),
    ...extra,
  };
}

const ROWS: Row[] = [
  { id: 1, tags: ["a", "b"], note: 'say "hi"' },
  { id: 2, tags: [] },
];

describe("exporter", () => {
  it("has one entry per output format", () => {
    expect(Object.keys(FORMATS).sort()).toEqual([...OUTPUT_FORMATS].sort());
  });

  it("json streams the records as an array, valid however many pages", async () => {
    const ctx = testContext();
    const sink = await openExport("json", ctx.io, rowsExport());
    await sink.write(ROWS.slice(0, 1));
    await sink.write(ROWS.slice(1));
    await sink.end();
    expect(JSON.parse(ctx.stdoutText())).toEqual(ROWS);
  });

  it("json prints the document instead when there is one, pretty, without asking for items", async () => {
    const ctx = testContext();
    await exportAll("json", ctx.io, rowsExport({ document: () => ({ whole: true }) }), () => {
      throw new Error("items asked for");
    });
    expect(ctx.stdoutText()).toBe('{\n  "whole": true\n}\n');
  });

  it("ndjson keeps arrays; csv writes them as JSON, or joined when the export asks", async () => {
    let ctx = testContext();
    await exportAll("ndjson", ctx.io, rowsExport(), () => ROWS);
    expect(ctx.stdoutText()).toBe('{"id":1,"tags":["a","b"],"note":"say \\"hi\\""}\n{"id":2,"tags":[]}\n');
    ctx = testContext();
    await exportAll("csv", ctx.io, rowsExport({ csvColumns: () => ["id", "tags", "note"] }), () => ROWS);
    expect(ctx.stdoutText()).toBe('id,tags,note\r\n1,"[""a"",""b""]","say ""hi"""\r\n2,[],\r\n');
    ctx = testContext();
    await exportAll("csv", ctx.io, rowsExport({ csvColumns: () => ["id", "tags"], csvJoinArrays: true }), () => ROWS);
    expect(ctx.stdoutText()).toBe('id,tags\r\n1,"a,b"\r\n2,\r\n');
  });

  it("--fields selects and orders record fields (a missing one is null)", async () => {
    const ctx = testContext();
    await exportAll("ndjson", ctx.io, rowsExport({ fields: ["note", "id"] }), () => ROWS);
    expect(ctx.stdoutText()).toBe('{"note":"say \\"hi\\"","id":1}\n{"note":null,"id":2}\n');
  });

  it("table hands the items to the command's renderer and writes nothing itself", async () => {
    const ctx = testContext();
    const x = rowsExport();
    await exportAll("table", ctx.io, x, () => ROWS);
    expect(x.tableCalls).toEqual([ROWS]);
    expect(ctx.stdoutText()).toBe("");
  });
});
