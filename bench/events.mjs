// Synthetic event logs for the streaming benchmark: the shapes of src/api/fixtures/events.json (every
// typed event type, as the contract defines them) cycled, with distinct ids and one event per second,
// so that a window [first, first + n - 1 s] holds exactly n events.
import { createWriteStream, readFileSync } from "node:fs";
import { once } from "node:events";

const FIXTURES = new URL("../src/api/fixtures/events.json", import.meta.url);

/** received_at in the real service's style: microseconds and an explicit offset */
export function serviceTime(ms) {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000+00:00");
}

/**
 * Writes `count` events of `repo` to `path` as ndjson, oldest first: ids 1..count, the i-th event
 * received at `startMs + (i - 1) s`. Returns the window that holds all of them.
 */
export async function writeEventsFile(path, { count, repo, startMs }) {
  const shapes = JSON.parse(readFileSync(FIXTURES, "utf8"));
  const out = createWriteStream(path);
  let chunk = "";
  for (let i = 1; i <= count; i++) {
    const shape = shapes[i % shapes.length];
    chunk += JSON.stringify({ ...shape, id: i, received_at: serviceTime(startMs + (i - 1) * 1000), repository: repo }) + "\n";
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await once(out, "drain");
      chunk = "";
    }
  }
  out.end(chunk);
  await once(out, "finish");
  return { first: new Date(startMs), last: new Date(startMs + (count - 1) * 1000) };
}
