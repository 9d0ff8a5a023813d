import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PassThrough, Writable } from "node:stream";
import { createRecordWriter, csvRow, type RecordWriterOptions } from "../../src/output/records.js";
import { attachRawJson } from "../../src/api/raw-json.js";
import { OutputError } from "../../src/errors.js";

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
    await w.writeMany([
      { id: 1, type: "a", x: 1 },
      { id: 2, type: "b" },
    ]);
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

  it("a chunk leaves no listener behind and makes no abort signal (a long walk writes thousands)", async () => {
    const s = sink();
    const before = { close: s.stream.listenerCount("close"), error: s.stream.listenerCount("error") };
    let controllers = 0;
    const Real = globalThis.AbortController;
    globalThis.AbortController = class extends Real {
      constructor() {
        super();
        controllers++;
      }
    };
    try {
      const w = createRecordWriter("ndjson", s.stream);
      for (let i = 0; i < 3; i++) await w.writeMany([{ id: i }, { id: i + 10 }]);
      await w.end();
    } finally {
      globalThis.AbortController = Real;
    }
    expect(controllers).toBe(0);
    expect({ close: s.stream.listenerCount("close"), error: s.stream.listenerCount("error") }).toEqual(before);
    expect(s.text()).toBe('{"id":0}\n{"id":10}\n{"id":1}\n{"id":11}\n{"id":2}\n{"id":12}\n');
  });

  it("a write that fails rejects with an OutputError for that chunk, and nothing is thrown elsewhere", async () => {
    const full = new Writable({
      write(_chunk, _enc, cb) {
        cb(Object.assign(new Error("no space left on device"), { code: "ENOSPC" }));
      },
    });
    const w = createRecordWriter("ndjson", full);
    await expect(w.write({ id: 1 })).rejects.toBeInstanceOf(OutputError);
    expect(w.bytes).toBe(0);
  });

  it("csvRow leaves plain values bare", () => {
    expect(csvRow(["a", 1, true, undefined])).toBe("a,1,true,\r\n");
  });

  it("csvRow quotes a cell as RFC 4180 does: quotes doubled, any text", () => {
    // RFC 4180's rule as a regex replace: what the quoting did before it sliced around each quote
    const rfc4180 = (t: string) => (/[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t);
    expect(csvRow(['"', '""', 'a"b"c', '{"k":"v"}', "a,b", "a\nb", "a\rb", ""])).toBe(
      '"""","""""","a""b""c","{""k"":""v""}","a,b","a\nb","a\rb",\r\n',
    );
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.oneof(fc.constantFrom('"', ",", "\r", "\n", "a", "é"), fc.string({ maxLength: 1 })) }), {
          maxLength: 4,
        }),
        (cells) => {
          expect(csvRow(cells)).toBe(cells.map(rfc4180).join(",") + "\r\n");
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("createRecordWriter: exact text, the CSV guard, a terminal", () => {
  const TEXT = '{"id":12345678901234567890,"f":1.0,"m":{"z":1e2,"a":"\\u00e9"},"s":"=1+1"}';
  function rawRecord(): Record<string, unknown> {
    const record = JSON.parse(TEXT) as Record<string, unknown>;
    attachRawJson(record, TEXT, { start: 0, end: TEXT.length, spaced: false });
    return record;
  }

  it("ndjson and json write a record's text as sent; --fields takes each member's text", async () => {
    const cases: Array<["ndjson" | "json", RecordWriterOptions, string]> = [
      ["ndjson", {}, TEXT + "\n"],
      ["json", {}, `[\n${TEXT}\n]\n`],
      ["ndjson", { fields: ["m", "id", "nope"] }, '{"m":{"z":1e2,"a":"\\u00e9"},"id":12345678901234567890,"nope":null}\n'],
    ];
    for (const [format, opts, expected] of cases) {
      const s = sink();
      const w = createRecordWriter(format, s.stream, opts);
      await w.write(rawRecord());
      await w.end();
      expect(s.text()).toBe(expected);
    }
  });

  it("csv: numbers and JSON as sent, formulas neutralised unless the guard is off", async () => {
    const guarded = sink();
    const w = createRecordWriter("csv", guarded.stream, { csvColumns: ["id", "f", "m", "s"] });
    await w.write(rawRecord());
    await w.write({ id: -3, f: "-3", m: "@x", s: "+1" });
    await w.end();
    expect(guarded.text()).toBe('id,f,m,s\r\n12345678901234567890,1.0,"{""z"":1e2,""a"":""\\u00e9""}",\'=1+1\r\n-3,-3,\'@x,+1\r\n');
    const raw = sink();
    const w2 = createRecordWriter("csv", raw.stream, { csvColumns: ["s"], csvGuard: false });
    await w2.write(rawRecord());
    await w2.end();
    expect(raw.text()).toBe("s\r\n=1+1\r\n");
  });

  it("on a terminal: JSON keeps its value with unsafe characters as \\u escapes; csv cells escaped", async () => {
    const s = sink();
    const w = createRecordWriter("ndjson", s.stream, { terminal: true });
    await w.write({ a: "x\u009b2J\u202e" });
    await w.end();
    expect(s.text()).toBe('{"a":"x\\u009b2J\\u202e"}\n');
    const c = sink();
    const w2 = createRecordWriter("csv", c.stream, { terminal: true });
    await w2.write({ a: "x\x1b]0;t\x07" });
    await w2.end();
    expect(c.text()).toBe("a\r\nx\\x1b]0;t\\x07\r\n");
  });
});
