import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testContext, type TestContext } from "../helpers/context.js";
import { NewCmdLogs, runLogs, type LogsOptions } from "../../src/commands/logs.js";
import { main } from "../../src/main.js";
import { UsageError } from "../../src/errors.js";
import { FIXTURE_EVENTS, makeEvents, startLogServer, useServer, type LogServer } from "./logs-fixture.js";

/** Parses flags with a spy run function; returns the options or the thrown error. */
async function parse(args: string[], init: Parameters<typeof testContext>[0] = {}, output?: LogsOptions["format"]) {
  const ctx = testContext(init);
  if (output) ctx.globals.output = output;
  let seen: LogsOptions | undefined;
  const cmd = NewCmdLogs(ctx, async (o) => {
    seen = o;
  });
  cmd.exitOverride();
  await cmd.parseAsync(args, { from: "user" });
  return seen!;
}

async function parseError(args: string[], init: Parameters<typeof testContext>[0] = {}, output?: LogsOptions["format"]) {
  try {
    await parse(args, init, output);
  } catch (err) {
    return err as UsageError;
  }
  throw new Error("expected a usage error");
}

describe("mq logs flags", () => {
  it("parses every filter into options", async () => {
    const o = await parse([
      "--pr", "4821", "--base-ref", "main", "--type", "action.queue.leave,action.merge", "--type", "action.merge",
      "--since", "2026-11-19T00:00:00Z", "--until", "6h", "--per-page", "50", "--limit", "200",
    ]);
    expect(o).toMatchObject({
      pullRequest: 4821,
      baseRef: "main",
      types: ["action.queue.leave", "action.merge"],
      since: new Date("2026-11-19T00:00:00Z"),
      until: new Date("2026-11-20T06:00:00Z"),
      perPage: 50,
      limit: 200,
      limitGiven: true,
      all: false,
      follow: false,
      format: "ndjson",
    });
  });

  it("expands family globs", async () => {
    const o = await parse(["--type", "ci_issue.*,command.queue"]);
    expect(o.types).toEqual([
      "ci_issue.created", "ci_issue.linked", "ci_issue.merged", "ci_issue.renamed", "ci_issue.reopened",
      "ci_issue.resolved", "ci_issue.unresolved", "command.queue",
    ]);
    expect((await parse(["--type", "action.queue.*"])).types).toHaveLength(10);
  });

  it("defaults: 30 events and a table on a terminal, the whole window as ndjson in a pipe", async () => {
    expect(await parse([], { tty: true })).toMatchObject({ limit: 30, limitGiven: false, format: "table" });
    expect(await parse([], { tty: false })).toMatchObject({ limit: undefined, format: "ndjson" });
    expect(await parse(["--all"], { tty: true })).toMatchObject({ limit: undefined, all: true });
    expect(await parse(["--follow"], { tty: false })).toMatchObject({ limit: 30, follow: true, interval: 5 });
    expect(await parse(["--follow", "--since", "1h"], { tty: false })).toMatchObject({ limit: undefined });
  });

  it.each([
    [["--pr", "0"], '--pr must be an integer from 1 to 2147483646, not "0".'],
    [["--pr", "2147483647"], '--pr must be an integer from 1 to 2147483646, not "2147483647".'],
    [["--pr", "12a"], '--pr must be an integer from 1 to 2147483646, not "12a".'],
    [["--base-ref", ""], "--base-ref has an empty value: give 1 to 255 characters."],
    [["--base-ref", "x".repeat(256)], "--base-ref value of 256 characters is too long: give 1 to 255 characters."],
    [["--per-page", "101"], '--per-page must be an integer from 1 to 100, not "101".'],
    [["--limit", "0"], '--limit must be an integer from 1 to 1000000000, not "0".'],
    [["--type", "action.queue.enterd"], '--type: unknown event type "action.queue.enterd" (did you mean action.queue.enter, action.queue.merged, action.queue.leave?); see `mq logs --help` for the 47 types.'],
    [["--type", "action.quue.*"], '--type: no event type matches "action.quue.*" (did you mean action.queue.*?); families: action.*, action.queue.*, action.queue.checks.*, ci_insights.*, ci_issue.*, command.*, queue.*, queue.pause.*, scheduled_freeze.*.'],
    [["--type", "a,,b"], "--type has an empty value: give an event type such as action.queue.leave, or a family such as action.queue.*."],
    [["--since", "yesterday"], '--since "yesterday" is not an ISO 8601 date-time with a timezone (2026-11-20T09:00:00Z) or a duration ago (30m, 6h, 7d, 2w).'],
    [["--since", "1h", "--until", "2h"], "--since (2026-11-20T11:00:00Z) is after --until (2026-11-20T10:00:00Z)."],
    [["--all", "--limit", "5"], "--all and --limit cannot be used together: --all fetches every event, --limit stops after n."],
    [["--follow", "--all"], "--follow and --all cannot be used together: --follow already prints every new event."],
    [["--follow", "--cursor", "x"], "--follow and --cursor cannot be used together: --follow starts from the newest events."],
    [["--follow", "--until", "1h"], "--follow and --until cannot be used together: --follow has no end."],
    [["--interval", "2"], "--interval only applies with --follow."],
    [["--follow", "--interval", "0"], '--interval must be a number of seconds from 0.1 to 3600, not "0".'],
    [["--cursor", " "], "--cursor is empty: give the cursor printed by an interrupted run."],
    [["--fields", "id,typ"], '--fields: unknown field "typ"; available fields: id, received_at, trigger, repository, pull_request, base_ref, outcome, type, metadata.'],
  ])("%j is a usage error", async (args, message) => {
    const err = await parseError(args);
    expect(err).toBeInstanceOf(UsageError);
    expect(err.exitCode).toBe(2);
    expect(err.message).toBe(message);
  });

  it("refuses --fields with the table", async () => {
    const err = await parseError(["--fields", "id"], {}, "table");
    expect(err.message).toBe("--fields applies to -o json, ndjson or csv, not to the table.");
  });
});

describe("mq logs against a loopback server", () => {
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
    ctx = useServer(testContext(init), server);
    return main(["logs", ...args], ctx);
  }

  it.each([
    [[], "/v1/repos/acme/web/logs?per_page=100"],
    [["--pr", "4821"], "/v1/repos/acme/web/logs?pull_request=4821&per_page=100"],
    [["--base-ref", "release/4.1"], "/v1/repos/acme/web/logs?base_ref=release%2F4.1&per_page=100"],
    [["--type", "queue.pause.*", "--type", "action.merge"], "/v1/repos/acme/web/logs?event_type=queue.pause.create&event_type=queue.pause.delete&event_type=queue.pause.update&event_type=action.merge&per_page=100"],
    [["--since", "2026-11-19T10:00:00+02:00"], "/v1/repos/acme/web/logs?received_from=2026-11-19T08%3A00%3A00Z&per_page=100"],
    [["--since", "7d", "--until", "30m"], "/v1/repos/acme/web/logs?received_from=2026-11-13T12%3A00%3A00Z&received_to=2026-11-20T11%3A30%3A00Z&per_page=100"],
    [["--per-page", "7"], "/v1/repos/acme/web/logs?per_page=7"],
    [["--limit", "5"], "/v1/repos/acme/web/logs?per_page=5"],
    [["--limit", "250"], "/v1/repos/acme/web/logs?per_page=100"],
    [["--all", "--per-page", "50"], "/v1/repos/acme/web/logs?per_page=50"],
    [["--cursor", "40"], "/v1/repos/acme/web/logs?per_page=100&cursor=40"],
  ])("%j sends %s", async (args, expected) => {
    expect(await run(args)).toBe(0);
    expect(server.requests[0]).toBe(expected);
  });

  it("sends nothing on a usage error", async () => {
    expect(await run(["--pr", "-3"])).toBe(2);
    expect(server.requests).toEqual([]);
    expect(ctx.stderrText()).toBe('mq: --pr must be an integer from 1 to 2147483646, not "-3".\n');
  });

  it("ndjson: one event per line, exactly as sent", async () => {
    expect(await run(["-o", "ndjson", "--per-page", "10"])).toBe(0);
    const lines = ctx.stdoutText().trimEnd().split("\n");
    expect(lines.map((l) => JSON.parse(l))).toEqual(FIXTURE_EVENTS);
    expect(server.requests).toHaveLength(5);
    expect(server.requests[1]).toBe("/v1/repos/acme/web/logs?per_page=10&cursor=10");
    expect(ctx.stderrText()).toBe("");
  });

  it("json: one valid array", async () => {
    expect(await run(["-o", "json", "--per-page", "20"])).toBe(0);
    expect(JSON.parse(ctx.stdoutText())).toEqual(FIXTURE_EVENTS);
  });

  it("json: [] when there are no events", async () => {
    expect(await run(["-o", "json", "--pr", "1"])).toBe(0);
    expect(ctx.stdoutText()).toBe("[]\n");
  });

  it("csv: envelope columns and metadata as JSON", async () => {
    expect(await run(["-o", "csv", "--limit", "2"])).toBe(0);
    expect(ctx.stdoutText()).toBe(
      "id,received_at,trigger,repository,pull_request,base_ref,type,metadata\r\n" +
        '900047,2026-11-20T11:59:00.000000+00:00,Rule: automatic merge,acme/web,4821,main,action.assign,"{""added"":[""jdoe""],""removed"":[]}"\r\n' +
        '900046,2026-11-20T11:55:53Z,Rule: automatic merge,acme/web,4821,main,action.backport,"{""to"":""release/4.1"",""pull_request_number"":4833,""conflicts"":false}"\r\n',
    );
  });

  it("--fields selects fields in json, ndjson and csv", async () => {
    expect(await run(["-o", "ndjson", "--limit", "2", "--fields", "type,id,outcome"])).toBe(0);
    expect(ctx.stdoutText()).toBe(
      '{"type":"action.assign","id":900047,"outcome":null}\n{"type":"action.backport","id":900046,"outcome":null}\n',
    );
    await ctx.cleanup();
    expect(await run(["-o", "json", "--limit", "1", "--fields", "id"])).toBe(0);
    expect(JSON.parse(ctx.stdoutText())).toEqual([{ id: 900047 }]);
    await ctx.cleanup();
    expect(await run(["-o", "csv", "--limit", "1", "--fields", "id,pull_request"])).toBe(0);
    expect(ctx.stdoutText()).toBe("id,pull_request\r\n900047,4821\r\n");
  });

  it("stops at --limit in the middle of a page", async () => {
    expect(await run(["--limit", "12", "--per-page", "5"])).toBe(0);
    expect(ctx.stdoutText().trimEnd().split("\n")).toHaveLength(12);
    expect(server.requests).toEqual([
      "/v1/repos/acme/web/logs?per_page=5",
      "/v1/repos/acme/web/logs?per_page=5&cursor=5",
      "/v1/repos/acme/web/logs?per_page=5&cursor=10",
    ]);
  });

  it("on a terminal: a table of the newest 30 with a header saying the limit cut it", async () => {
    expect(await run([], { stdoutIsTTY: true, env: { NO_COLOR: "1" } })).toBe(0);
    expect(server.requests).toEqual(["/v1/repos/acme/web/logs?per_page=30"]);
    expect(ctx.stderrText()).toBe(
      "acme/web: 30 events in the last 24 hours; showing the newest 30, more are available (--limit N or --all)\n",
    );
    const lines = ctx.stdoutText().trimEnd().split("\n");
    expect(lines).toHaveLength(31);
    expect(lines[0]).toMatch(/^TIME +TYPE +PR +BASE +SUMMARY$/);
    expect(lines[1]).toBe("1m ago   action.assign                       #4821  main  assignees +jdoe");
  });

  it("a table off a terminal uses RFC 3339 times and says when --limit cut it", async () => {
    expect(await run(["-o", "table", "--limit", "2"], { env: { NO_COLOR: "1" } })).toBe(0);
    expect(ctx.stdoutText()).toBe(
      "TIME                  TYPE             PR     BASE  SUMMARY\n" +
        "2026-11-20T11:59:00Z  action.assign    #4821  main  assignees +jdoe\n" +
        "2026-11-20T11:55:53Z  action.backport  #4821  main  backported to release/4.1 as #4833\n",
    );
    expect(ctx.stderrText()).toBe(
      "acme/web: 2 events in the last 24 hours; stopped at --limit 2, more are available (--all for every event)\n",
    );
  });

  it("colours the type by family when colour is on", async () => {
    expect(await run(["-o", "table", "--limit", "1", "--color", "always"])).toBe(0);
    expect(ctx.stdoutText()).toContain("\u001b[34maction.assign\u001b[39m");
  });

  it("a failure in the middle of --all keeps whole lines and says how to resume", async () => {
    server.failRequest(3, 503, { detail: "database unavailable" });
    expect(await run(["--all", "--per-page", "10", "--since", "2026-11-19T12:00:00Z", "--type", "action.*"])).toBe(6);
    const out = ctx.stdoutText();
    expect(out.endsWith("\n")).toBe(true);
    const lines = out.trimEnd().split("\n");
    expect(lines).toHaveLength(20);
    for (const l of lines) JSON.parse(l);
    const err = ctx.stderrText();
    expect(err).toContain("HTTP 503");
    expect(err).toContain("database unavailable");
    expect(err).toContain(
      "20 events were written before this. To resume:\n  mq logs --repo acme/web --type " +
        "action.assign,action.backport,action.close,action.comment,action.copy,action.delete_head_branch,action.dismiss_reviews,action.edit,action.platform_actions,action.label,action.merge,action.post_check,action.queue.batch_bisection_end,action.queue.batch_bisection_start,action.queue.change,action.queue.checks.change,action.queue.checks_end,action.queue.checks_not_started,action.queue.checks_start,action.queue.enter,action.queue.leave,action.queue.merged,action.rebase,action.refresh,action.request_reviews,action.requeue,action.review,action.squash,action.unqueue,action.update" +
        " --since 2026-11-19T12:00:00Z --per-page 10 --all -o ndjson --cursor 20\n",
    );
  });

  it("a failure in json output still leaves one valid array", async () => {
    server.failRequest(2, 500, { detail: "boom" });
    expect(await run(["-o", "json", "--per-page", "10"])).toBe(6);
    expect(JSON.parse(ctx.stdoutText())).toHaveLength(10);
    expect(ctx.stderrText()).toContain("To resume:\n  mq logs --repo acme/web --per-page 10 --all -o json --cursor 10\n");
  });

  it("shows a spinner on a terminal stderr while a table is fetched", async () => {
    expect(await run(["--limit", "3"], { tty: true, env: { NO_COLOR: "1" } })).toBe(0);
    expect(ctx.stderrText()).toContain("fetching events of acme/web");
  });

  it("no spinner when ndjson streams to the terminal", async () => {
    expect(await run(["-o", "ndjson", "--limit", "3"], { tty: true })).toBe(0);
    expect(ctx.stderrText()).toBe("acme/web: 3 events in the last 24 hours; stopped at --limit 3, more are available (--all for every event)\n");
    expect(ctx.stdoutText().trimEnd().split("\n")).toHaveLength(3);
  });

  it("maps a 404 to exit 3 with the server's detail", async () => {
    server.failRequest(1, 404, { detail: "Repository not found" });
    expect(await run([])).toBe(3);
    expect(ctx.stdoutText()).toBe("");
    expect(ctx.stderrText()).toContain("Repository not found");
  });
});
