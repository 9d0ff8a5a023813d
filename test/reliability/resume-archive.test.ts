// The archive path of `mq logs` (--archive) gives the same honest resume as the API path after a
// full disk: the count names the events the output holds whole (a file cut back to them), and the
// resume command, an --until from the archive, gives every other event of the window exactly once.
// Before, a failed write from the archive gave no resume hint at all.
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { createContext } from "../../src/context.js";
import { main } from "../../src/main.js";
import { openArchive } from "../../src/archive/db.js";
import { fullDisk } from "../helpers/full-disk.js";
import { tempDir } from "../helpers/tmp.js";
import { lines } from "./harness.js";
import { runMq } from "../helpers/archive.js";

const COUNT = 5000;
let dataDir: string;
beforeAll(async () => {
  dataDir = tempDir("mq-archive-resume-");
  const archive = await openArchive(join(dataDir, "archive.duckdb"), { create: true });
  try {
    // COUNT events of acme/web a second apart from 10:00, ids 1..COUNT; two pairs share an instant
    await archive.run(
      `INSERT INTO events (repository, id, received_at, type, raw, archived_at, dialect)
       SELECT 'acme/web', i, TIMESTAMPTZ '2026-11-20 10:00:00+00' + to_seconds(CASE WHEN i IN (2001, 3001) THEN i - 1 ELSE i END),
         'action.rebase',
         '{"id":' || i || ',"received_at":"' || strftime(TIMESTAMPTZ '2026-11-20 10:00:00+00' + to_seconds(CASE WHEN i IN (2001, 3001) THEN i - 1 ELSE i END), '%Y-%m-%dT%H:%M:%SZ') || '","trigger":"t","repository":"acme/web","pull_request":null,"base_ref":null,"type":"action.rebase","metadata":{}}',
         now(), 'spec'
       FROM range(1, ${COUNT + 1}) t(i)`,
    );
    await archive.run(
      "INSERT INTO coverage VALUES ('acme/web', TIMESTAMPTZ '2026-11-20 00:00:00+00', TIMESTAMPTZ '2026-11-20 12:00:00+00')",
    );
  } finally {
    archive.close();
  }
}, 60_000);

const ARGS = [
  "logs",
  "--archive",
  "--repo",
  "acme/web",
  "--since",
  "2026-11-20T00:00:00Z",
  "--until",
  "2026-11-20T12:00:00Z",
  "--all",
  "-o",
  "ndjson",
];

async function toFullDisk(room: number, opts: { file: boolean; shortWrite?: boolean }) {
  const disk = fullDisk(room, opts);
  const stderr = new PassThrough();
  let err = "";
  stderr.on("data", (c: Buffer) => (err += c.toString()));
  const config = tempDir("mq-test-config-");
  const ctx = createContext({
    env: { MQ_CONFIG_DIR: config, HOME: config, MQ_DATA_DIR: dataDir },
    now: () => new Date("2026-11-20T12:00:00Z"),
    io: {
      stdout: disk.stream,
      stderr,
      stdin: new PassThrough(),
      stdinIsTTY: false,
      stdoutIsTTY: false,
      stderrIsTTY: false,
      columns: 100,
      ...(opts.file ? { stdoutFile: disk.file } : {}),
    },
  });
  const code = await main(ARGS, ctx);
  await new Promise((r) => setImmediate(r));
  return { code, stderr: err, text: disk.text() };
}

describe("mq logs --archive on a full disk", () => {
  let all = "";
  beforeAll(async () => {
    const r = await runMq(ARGS, { dataDir });
    expect(r.code, r.stderr).toBe(0);
    all = r.stdout;
    expect(lines(all)).toHaveLength(COUNT);
  });

  it.each([
    ["a file, the failing write cut short", { file: true }],
    ["a file whose short write was reported as done", { file: true, shortWrite: true }],
    ["a stream that is not a file", { file: false }],
  ])("%s: the count is what the output holds whole, and the resume command gives the rest exactly once", async (name, opts) => {
    const r = await toFullDisk(Math.floor(all.length * 0.7), opts);
    expect(r.code).toBe(74);
    const err = lines(r.stderr);
    expect(err[0]).toBe("mq: could not write the output: no space left on the device (ENOSPC)");
    const m = /^([\d,]+) events were written before this\. (.*) To resume:$/.exec(err[1]!);
    expect(m, err[1]).not.toBeNull();
    const count = Number(m![1]!.replace(/,/g, ""));
    expect(count).toBeGreaterThan(0);
    const whole = lines(all).slice(0, count).join("\n") + "\n";
    if (opts.file) {
      expect(m![2]).toBe("The file ends with the last of them, whole.");
      expect(r.text).toBe(whole);
    } else {
      expect(m![2]).toBe("If the output ends with part of a line, it is the start of the event after them: remove it before appending.");
      expect(r.text.startsWith(whole), name).toBe(true);
    }
    const command = err[2]!.trim();
    expect(command).toMatch(/^mq logs --repo acme\/web --archive --since 2026-11-20T00:00:00Z --until \S+ --all -o ndjson$/);
    const rest = await runMq(command.split(" ").slice(1), { dataDir });
    expect(rest.code, rest.stderr).toBe(0);
    // following the hint: every event exactly once
    expect(whole + rest.stdout).toBe(all);
  });
});
