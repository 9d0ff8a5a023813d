// The archive's reader: a window read in slices of whole hours, newest first, gives what one query
// over the window gives: every event once (instants on an hour boundary included), newest first,
// ids descending within an instant, --limit across slices, batches of the size asked. Fast,
// in-process.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openArchive, type Archive } from "../../src/archive/db.js";
import { readArchivedEvents, readQueueFacts, type ArchivedEventsQuery } from "../../src/archive/reader.js";
import { queueFactsOf } from "../../src/archive/queue-facts.js";
import { stayEvent } from "../../src/insights/dialects.js";
import { tempDataDir } from "../helpers/archive.js";

const SINCE = new Date("2026-11-17T12:00:00Z");
const UNTIL = new Date("2026-11-20T12:00:00Z");
// [id, received_at, type]
const EVENTS: Array<[number, string, string]> = [
  [1, "2026-11-17T11:59:59.999Z", "action.queue.enter"], // before the window
  [2, "2026-11-17T12:00:00.000Z", "action.queue.enter"], // its start, inclusive
  [3, "2026-11-18T03:00:00.000Z", "action.label"],
  [4, "2026-11-18T12:00:00.000Z", "action.queue.leave"], // a day boundary
  [5, "2026-11-18T12:00:00.000Z", "action.queue.enter"], // the same instant, a higher id
  [6, "2026-11-19T11:59:59.999Z", "action.queue.merged"],
  [7, "2026-11-19T12:00:00.000Z", "action.queue.enter"], // the next boundary
  [8, "2026-11-20T12:00:00.000Z", "action.queue.leave"], // its end, inclusive
  [9, "2026-11-20T12:00:00.001Z", "action.queue.enter"], // after the window
];

let archive: Archive;
beforeAll(async () => {
  archive = await openArchive(join(tempDataDir(), "archive.duckdb"), { create: true });
  for (const [id, at, type] of EVENTS) {
    const raw = JSON.stringify({ id, received_at: at, type, pull_request: 1, base_ref: "main", metadata: {} });
    await archive.run(
      "INSERT INTO events VALUES ('acme/web', ?, ?::TIMESTAMPTZ, ?, 1, 'main', NULL, NULL, ?, current_timestamp, ?, 'spec')",
      [id, at, type, raw, queueFactsOf(type, raw)],
    );
  }
});
afterAll(() => archive.close());

async function read(q: Partial<ArchivedEventsQuery>): Promise<{ ids: number[]; batches: number[] }> {
  const ids: number[] = [];
  const batches: number[] = [];
  for await (const batch of readArchivedEvents(archive, { repository: "Acme/Web", ...q })) {
    batches.push(batch.length);
    for (const e of batch) {
      expect(JSON.parse(e.raw)).toEqual(e.event);
      ids.push(e.event.id);
    }
  }
  return { ids, batches };
}

describe("readArchivedEvents", () => {
  it("reads a window of three days: each event once, newest first, both ends inclusive, whatever the slices", async () => {
    for (const rowsPerQuery of [undefined, 1, 2, 3]) {
      expect((await read({ since: SINCE, until: UNTIL, rowsPerQuery })).ids, `${rowsPerQuery} per query`).toEqual([8, 7, 6, 5, 4, 3, 2]);
    }
  });

  it("gives what one query over the window gives, whatever the window and the slices", async () => {
    const oneQuery = (await read({})).ids;
    expect(oneQuery).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect((await read({ rowsPerQuery: 1 })).ids).toEqual(oneQuery);
    for (const rowsPerQuery of [undefined, 1, 2]) {
      for (const [since, until] of [
        ["2026-11-18T12:00:00.000Z", "2026-11-19T12:00:00.000Z"],
        ["2026-11-18T12:00:00.000Z", "2026-11-18T12:00:00.000Z"],
        ["2026-11-16T00:00:00.000Z", "2026-11-21T00:00:00.000Z"],
        ["2026-11-17T12:00:00.000Z", "2026-11-19T11:59:59.999Z"],
      ]) {
        const s = Date.parse(since!);
        const u = Date.parse(until!);
        const expected = EVENTS.filter(([, at]) => Date.parse(at) >= s && Date.parse(at) <= u)
          .sort((a, b) => Date.parse(b[1]) - Date.parse(a[1]) || b[0] - a[0])
          .map(([id]) => id);
        expect(
          (await read({ since: new Date(s), until: new Date(u), rowsPerQuery })).ids,
          `${since} to ${until}, ${rowsPerQuery} per query`,
        ).toEqual(expected);
      }
    }
  });

  it("applies the type filter and --limit across days, in batches of the size asked", async () => {
    const queue = ["action.queue.enter", "action.queue.leave", "action.queue.merged"];
    expect((await read({ since: SINCE, until: UNTIL, types: queue })).ids).toEqual([8, 7, 6, 5, 4, 2]);
    expect(await read({ since: SINCE, until: UNTIL, types: queue, limit: 4, batchSize: 3 })).toEqual({
      ids: [8, 7, 6, 5],
      batches: [3, 1],
    });
    expect(await read({ since: SINCE, until: UNTIL, types: queue, limit: 4, batchSize: 3, rowsPerQuery: 1 })).toEqual({
      ids: [8, 7, 6, 5],
      batches: [3, 1],
    });
    expect((await read({ since: SINCE, until: UNTIL, limit: 0 })).ids).toEqual([]);
  });

  it("reads queue_facts in the same order and slices: each queue event cut down to what a stay reads", async () => {
    const queue = ["action.queue.enter", "action.queue.leave", "action.queue.merged"];
    for (const rowsPerQuery of [undefined, 1]) {
      const whole = (await read({ since: SINCE, until: UNTIL, types: queue, rowsPerQuery })).ids;
      const cut: unknown[] = [];
      for await (const batch of readQueueFacts(archive, {
        repository: "acme/web",
        since: SINCE,
        until: UNTIL,
        types: queue,
        rowsPerQuery,
      })) {
        for (let i = 0; i < batch.length; i++) cut.push(batch.at(i));
      }
      const raws = new Map(
        EVENTS.map(([id, at, type]) => [id, { id, received_at: at, type, pull_request: 1, base_ref: "main", metadata: {} }]),
      );
      expect(cut).toEqual(whole.map((id) => JSON.parse(JSON.stringify(stayEvent(raws.get(id)!)))));
    }
  });
});
