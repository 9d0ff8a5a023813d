// The logs table as the operator reads it: the summary gets the room at 60, 80 and 120 columns,
// ages on a terminal, clock times when following, the banner and the waiting line of --follow,
// --fields implying ndjson, one header sentence, an empty result that repeats the filters, and a
// spinner that honours NO_COLOR.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../../src/main.js";
import { eventColumnWidths } from "../../../src/commands/logs/table.js";
import { testContext, type TestContext } from "../../helpers/context.js";
import { FIXTURE_EVENTS, makeEvents, startLogServer, useServer, type LogServer } from "../logs-fixture.js";

let server: LogServer;
let ctx: TestContext;
beforeEach(async () => {
  server = await startLogServer(FIXTURE_EVENTS);
});
afterEach(async () => {
  await ctx?.cleanup();
  await server.close();
});

async function run(args: string[], init: Parameters<typeof testContext>[0] = {}): Promise<number> {
  ctx = useServer(testContext({ env: { NO_COLOR: "1" }, ...init }), server);
  return main(["logs", ...args], ctx);
}

/** Where SUMMARY starts in the header, and how wide the summary cells are. */
function summaryRoom(text: string, columns: number): number {
  const head = text.split("\n")[0]!;
  return columns - head.indexOf("SUMMARY");
}

describe("the logs table fits the terminal and gives the summary the room", () => {
  for (const columns of [60, 80, 120]) {
    it(`at ${columns} columns no line is wider, and the summary has ${columns >= 80 ? "at least 40" : "the most"} characters`, async () => {
      expect(await run(["--limit", "30"], { tty: true, columns })).toBe(0);
      const out = ctx.stdoutText();
      for (const line of out.split("\n")) expect(line.length, line).toBeLessThanOrEqual(columns);
      if (columns >= 80) expect(summaryRoom(out, columns)).toBeGreaterThanOrEqual(40);
      else expect(summaryRoom(out, columns)).toBeGreaterThanOrEqual(28);
    });
  }

  it("ages in a few characters, types without action., compact PR", async () => {
    expect(await run(["--limit", "2"], { tty: true, columns: 80 })).toBe(0);
    expect(ctx.stdoutText()).toBe(
      "AGE  TYPE      PR     BASE  SUMMARY\n" +
        "1m   assign    #4821  main  assignees +jdoe\n" +
        "4m   backport  #4821  main  backported to release/4.1 as #4833\n",
    );
  });

  it("type and base ref give way before the summary", () => {
    // time, type, pr, base, summary as wide as their widest cells: at 80, type gives way until
    // the summary has 40 (72 = 80 minus four gaps)
    expect(eventColumnWidths([3, 27, 5, 10, 90], 80)).toEqual([3, 14, 5, 10, 40]);
    expect(eventColumnWidths([3, 27, 5, 10, 20], 120)).toEqual([3, 27, 5, 10, 20]);
    const narrow = eventColumnWidths([3, 27, 5, 10, 90], 60);
    expect(narrow.reduce((a, b) => a + b, 0) + 8).toBeLessThanOrEqual(60);
  });
});

describe("one true header sentence", () => {
  it("says how many, the window, and what brings more", async () => {
    expect(await run(["--limit", "2", "-o", "ndjson"], { stderrIsTTY: true })).toBe(0);
    expect(ctx.stderrText()).toMatch(/(^|\x1b\[0K|…)acme\/web: the newest 2 events in the last 24 hours; more with --all\n$/);
  });

  it("an empty result repeats the filters and suggests the next step", async () => {
    expect(await run(["--pr", "1", "--type", "action.merge"], { tty: true, columns: 80 })).toBe(0);
    expect(ctx.stdoutText()).toBe("");
    // broken between words to the 80 columns (it is 146 wide); after the spinner's last frame
    const err = ctx.stderrText();
    const message = err
      .slice(err.lastIndexOf("…") + 1)
      .replace(/^(\x1b\[[0-9;?]*[A-Za-z])*/, "")
      .trimEnd()
      .split("\n");
    expect(message.join(" ")).toBe(
      "acme/web: no events in the last 24 hours matching --pr 1 --type action.merge; try a longer window (--since 7d) or without one of --pr 1, --type action.merge.",
    );
    for (const line of message.slice(1)) expect(line.length).toBeLessThanOrEqual(80);
  });

  it("an empty result names the filters as typed (a glob, quoted), and one filter as the one to drop", async () => {
    const said = async (args: string[]) => {
      expect(await run(args, { tty: true, columns: 300 })).toBe(0);
      const err = ctx.stderrText();
      return err
        .slice(err.lastIndexOf("…") + 1)
        .replace(/^(\x1b\[[0-9;?]*[A-Za-z])*/, "")
        .trimEnd();
    };
    expect(await said(["--pr", "1"])).toBe(
      "acme/web: no events in the last 24 hours matching --pr 1; try a longer window (--since 7d) or without --pr 1.",
    );
    await ctx.cleanup();
    expect(await said(["--pr", "1", "--type", "action.queue.*"])).toBe(
      "acme/web: no events in the last 24 hours matching --pr 1 --type 'action.queue.*'; try a longer window (--since 7d) or without one of --pr 1, --type 'action.queue.*'.",
    );
  });
});

describe("--fields", () => {
  it("implies ndjson on a terminal when no -o is given", async () => {
    expect(await run(["--limit", "1", "--fields", "id,type"], { tty: true })).toBe(0);
    expect(ctx.stdoutText()).toBe('{"id":900047,"type":"action.assign"}\n');
  });
});

async function waitFor(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(cond()).toBe(true);
}

describe("--follow shows it is alive", () => {
  it("a banner, times instead of ages, and a waiting line on the terminal's stderr", async () => {
    const ac = new AbortController();
    ctx = useServer(testContext({ signal: ac.signal, tty: true, columns: 80, env: { NO_COLOR: "1", TZ: "UTC" } }), server);
    const done = main(["logs", "--follow", "--interval", "0.1", "--limit", "2", "--base-ref", "main"], ctx);
    await waitFor(() => ctx.stderrText().includes("waiting for new events"));
    server.appendEvents(makeEvents(1, Date.parse("2026-11-20T12:00:30Z"), 950001));
    await waitFor(() => ctx.stdoutText().trimEnd().split("\n").length === 4);
    ac.abort();
    expect(await done).toBe(130);
    const err = ctx.stderrText();
    // broken between words to the 80 columns
    expect(err.split("\n").slice(0, 2).join(" ").replace(/^.*…/, "")).toBe(
      "following acme/web (--base-ref main): the newest 2 events, then new ones every 0.1s; Ctrl-C to stop",
    );
    expect(err.split("\n")[1]).toBe("0.1s; Ctrl-C to stop");
    // the waiting line is rewritten in place and cleared before rows and before the last message
    expect(err).toMatch(/\r\x1b\[2Kwaiting for new events · checked \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ, last event (now|\d+[smhd] ago)/);
    expect(err.endsWith("\r\x1b[2Kmq: interrupted\n")).toBe(true);
    const lines = ctx.stdoutText().trimEnd().split("\n");
    expect(lines[0]).toMatch(/^TIME +TYPE/);
    for (const line of lines.slice(1)) expect(line).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ {2}/);
  });

  it("no waiting line off a terminal: a log gets data only", async () => {
    const ac = new AbortController();
    ctx = useServer(testContext({ signal: ac.signal, env: { NO_COLOR: "1" } }), server);
    const done = main(["logs", "--follow", "--interval", "0.1", "--limit", "1", "-o", "ndjson"], ctx);
    await waitFor(() => server.requests.length >= 3);
    ac.abort();
    expect(await done).toBe(130);
    expect(ctx.stderrText()).not.toContain("waiting");
    expect(ctx.stderrText()).not.toContain("\x1b");
  });
});

describe("the spinner", () => {
  for (const [what, args, env] of [
    ["NO_COLOR", [], { NO_COLOR: "1" }],
    ["--color never", ["--color", "never"], {}],
  ] as const) {
    it(`draws no colour with ${what}`, async () => {
      ctx = useServer(testContext({ stderrIsTTY: true, stdoutIsTTY: false, env: { ...env } }), server);
      expect(await main(["logs", "-o", "table", "--limit", "1", ...args], ctx)).toBe(0);
      const err = ctx.stderrText();
      expect(err).toContain("fetching events of acme/web…");
      expect(err).not.toMatch(/\x1b\[3\dm/);
    });
  }
});
