import { describe, expect, it } from "vitest";
import { PassThrough, Writable } from "node:stream";
import { createRecordWriter, csvRow } from "../../src/output/records.js";

function sink() {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on("data", (c: Buffer) => chunks.push(c.toString("utf8")));
  return { stream, chunks, text: () => chunks.join("") };
}

describe("createRecordWriter", () => {
  it("json: one valid array, written record by record", async () => {
    const s = sink();
    const w = createRecordWriter("json", s.stream);
    await w.write({ id: 1 });
    await w.write({ id: 2, t: "x" });
    await w.end();
    expect(s.text()).toBe('[\n{"id":1},\n{"id":2,"t":"x"}\n]\n');
    expect(JSON.parse(s.text())).toEqual([{ id: 1 }, { id: 2, t: "x" }]);
    expect(s.chunks).toHaveLength(3);
  });

  it("json: [] when there is nothing to write", async () => {
    const s = sink();
    const w = createRecordWriter("json", s.stream);
    await w.end();
    await w.end();
    expect(s.text()).toBe("[]\n");
  });

  it("ndjson: one line per record, fields selected in the order given", async () => {
    const s = sink();
    const w = createRecordWriter("ndjson", s.stream, { fields: ["type", "id"] });
    await w.writeMany([{ id: 1, type: "a", x: 1 }, { id: 2, type: "b" }]);
    await w.end();
    expect(s.text()).toBe('{"type":"a","id":1}\n{"type":"b","id":2}\n');
    expect(w.count).toBe(2);
  });

  it("csv: RFC 4180 with a header, quoting, nulls empty and objects as JSON", async () => {
    const s = sink();
    const w = createRecordWriter("csv", s.stream, { csvColumns: ["id", "text", "meta", "pr"] });
    await w.write({ id: 1, text: 'say "hi", then\nleave', meta: { a: [1] }, pr: null });
    await w.end();
    expect(s.text()).toBe('id,text,meta,pr\r\n1,"say ""hi"", then\nleave","{""a"":[1]}",\r\n');
  });

  it("csv: header only when there are no records", async () => {
    const s = sink();
    const w = createRecordWriter("csv", s.stream, { fields: ["id", "type"] });
    await w.end();
    expect(s.text()).toBe("id,type\r\n");
  });

  it("waits for 'drain' when the stream pushes back", async () => {
    let drained = 0;
    const slow = new Writable({
      highWaterMark: 4,
      write(_chunk, _enc, cb) {
        setTimeout(cb, 1);
      },
    });
    slow.on("drain", () => drained++);
    const w = createRecordWriter("ndjson", slow);
    for (let i = 0; i < 5; i++) await w.write({ id: i, pad: "xxxxxxxx" });
    await w.end();
    expect(drained).toBe(5);
  });

  it("csvRow leaves plain values bare", () => {
    expect(csvRow(["a", 1, true, undefined])).toBe("a,1,true,\r\n");
  });
});
