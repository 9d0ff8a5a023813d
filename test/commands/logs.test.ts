import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testContext, type TestContext } from "../helpers/context.js";
import { NewCmdLogs } from "../../src/commands/logs/index.js";
import { resumeCommand } from "../../src/commands/logs/messages.js";
import type { LogsOptions } from "../../src/commands/logs/options.js";
import { main } from "../../src/main.js";
import { UsageError } from "../../src/errors.js";
import { FIXTURE_EVENTS, makeEvents, startLogServer, useServer, type LogServer } from "./logs-fixture.js";

/** Parses flags with a spy run function; returns the options or the thrown error. */
async function parse(
  args: string[],
  init: Parameters<typeof testContext>[0] = {},
  output?: LogsOptions["format"],
  dialect: "spec" | "mergify" = "spec",
) {
  const ctx = testContext(init);
  if (output) ctx.globals.output = output;
  ctx.globals.dialect = dialect;
  let seen: LogsOptions | undefined;
  const cmd = NewCmdLogs(ctx, {
    logs: async (o) => {
      seen = o;
    },
    aggregate: async () => {},
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
      "--pr",
      "4821",
      "--base-ref",
      "main",
      "--type",
      "action.queue.leave,action.merge",
      "--type",
      "action.merge",
      "--since",
      "2026-11-19T00:00:00Z",
      "--until",
      "6h",
      "--per-page",
      "50",
      "--limit",
      "200",
    ]);
    expect(o).toMatchObject({
      filters: { pull_request: [4821], event_type: ["action.queue.leave", "action.merge"] },
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
      "ci_issue.created",
      "ci_issue.linked",
      "ci_issue.merged",
      "ci_issue.renamed",
      "ci_issue.reopened",
      "ci_issue.resolved",
      "ci_issue.unresolved",
      "command.queue",
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
    [
      ["--type", "action.queue.enterd"],
      '--type: unknown event type "action.queue.enterd" (did you mean action.queue.enter, action.queue.merged, action.queue.leave?); see `mq logs --help` for the 47 types.',
    ],
    [
      ["--type", "action.quue.*"],
      '--type: no event type matches "action.quue.*" (did you mean action.queue.*?); families: action.*, action.queue.*, action.queue.checks.*, ci_insights.*, ci_issue.*, command.*, queue.*, queue.pause.*, scheduled_freeze.*.',
    ],
    [["--type", "a,,b"], "--type has an empty value: give an event type such as action.queue.leave, or a family such as action.queue.*."],
    [
      ["--since", "yesterday"],
      '--since "yesterday" is not an ISO 8601 date-time with a timezone (2026-11-20T09:00:00Z), a date (2026-11-20: midnight UTC) or a duration ago (30m, 1h30m, 7d, 2w).',
    ],
    [
      ["--since", "1h", "--until", "2h"],
      "--since (2026-11-20T11:00:00Z) is after --until (2026-11-20T10:00:00Z): --since must be earlier.",
    ],
    [["--all", "--limit", "5"], "--all and --limit cannot be used together: --all fetches every event, --limit stops after n."],
    [["--follow", "--all"], "--follow and --all cannot be used together: --follow already prints every new event."],
    [["--follow", "--cursor", "x"], "--follow and --cursor cannot be used together: --follow starts from the newest events."],
    [["--follow", "--until", "1h"], "--follow and --until cannot be used together: --follow has no end."],
    [["--interval", "2"], "--interval only applies with --follow."],
    [["--follow", "--interval", "0"], '--interval must be a number of seconds from 0.1 to 3600, not "0".'],
    [["--cursor", " "], "--cursor is empty: give the cursor printed by an interrupted run."],
    [
      ["--fields", "id,typ"],
      '--fields: unknown field "typ"; available fields: id, received_at, trigger, repository, pull_request, base_ref, outcome, type, metadata.',
    ],
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
    [
      ["--type", "queue.pause.*", "--type", "action.merge"],
      "/v1/repos/acme/web/logs?event_type=queue.pause.create&event_type=queue.pause.delete&event_type=queue.pause.update&event_type=action.merge&per_page=100",
    ],
    [["--since", "2026-11-19T10:00:00+02:00"], "/v1/repos/acme/web/logs?received_from=2026-11-19T08%3A00%3A00Z&per_page=100"],
    [
      ["--since", "7d", "--until", "30m"],
      "/v1/repos/acme/web/logs?received_from=2026-11-13T12%3A00%3A00Z&received_to=2026-11-20T11%3A30%3A00Z&per_page=100",
    ],
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
    expect(ctx.stderrText()).toBe("acme/web: the newest 30 events in the last 24 hours; more with --all\n");
    const lines = ctx.stdoutText().trimEnd().split("\n");
    expect(lines).toHaveLength(31);
    expect(lines[0]).toMatch(/^AGE +TYPE +PR +BASE +SUMMARY$/);
    expect(lines[1]).toBe("1m   assign                       #4821  main  assignees +jdoe");
  });

  it("a table off a terminal uses the one form of a time and says when --limit cut it", async () => {
    expect(await run(["-o", "table", "--limit", "2"], { env: { NO_COLOR: "1" } })).toBe(0);
    expect(ctx.stdoutText()).toBe(
      "TIME                  TYPE             PR     BASE  SUMMARY\n" +
        "2026-11-20 11:59:00Z  action.assign    #4821  main  assignees +jdoe\n" +
        "2026-11-20 11:55:53Z  action.backport  #4821  main  backported to release/4.1 as #4833\n",
    );
    expect(ctx.stderrText()).toBe("acme/web: the newest 2 events in the last 24 hours; more with --all\n");
  });

  it("colours the type by family when colour is on", async () => {
    expect(await run(["-o", "table", "--limit", "1", "--color", "always"])).toBe(0);
    expect(ctx.stdoutText()).toContain("\u001b[34maction.assign\u001b[39m");
  });

  it("a failure in the middle of --all keeps whole lines and says how to resume", async () => {
    server.failRequest(3, 503, { detail: "database unavailable" });
    // one walk, page after page (the resume of parallel slices: test/api/slices.test.ts)
    expect(await run(["--all", "--parallel", "1", "--per-page", "10", "--since", "2026-11-19T12:00:00Z", "--type", "action.*"])).toBe(6);
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
        " --since 2026-11-19T12:00:00Z --until 2026-11-20T12:00:00Z --per-page 10 --all -o ndjson --cursor 20\n",
    );
  });

  it("a failure in json output still leaves one valid array", async () => {
    server.failRequest(2, 500, { detail: "boom" });
    expect(await run(["-o", "json", "--per-page", "10"])).toBe(6);
    expect(JSON.parse(ctx.stdoutText())).toHaveLength(10);
    expect(ctx.stderrText()).toContain(
      "To resume:\n  mq logs --repo acme/web --since 2026-11-19T12:00:00Z --until 2026-11-20T12:00:00Z --per-page 10 --all -o json --cursor 10\n",
    );
  });

  it("shows a spinner on a terminal stderr while a table is fetched", async () => {
    expect(await run(["--limit", "3"], { tty: true, env: { NO_COLOR: "1" } })).toBe(0);
    expect(ctx.stderrText()).toContain("fetching events of acme/web");
  });

  it("no spinner when ndjson streams to the terminal", async () => {
    expect(await run(["-o", "ndjson", "--limit", "3"], { tty: true })).toBe(0);
    expect(ctx.stderrText()).toBe("acme/web: the newest 3 events in the last 24 hours; more with --all\n");
    expect(ctx.stdoutText().trimEnd().split("\n")).toHaveLength(3);
  });

  it("the header line is broken between words on a narrow terminal (68 columns wide at 40)", async () => {
    expect(await run(["-o", "ndjson", "--limit", "3"], { tty: true, columns: 40 })).toBe(0);
    expect(ctx.stderrText()).toBe("acme/web: the newest 3 events in the\nlast 24 hours; more with --all\n");
  });

  it("maps a 404 to exit 3 with the server's detail", async () => {
    server.failRequest(1, 404, { detail: "Repository not found" });
    expect(await run([])).toBe(3);
    expect(ctx.stdoutText()).toBe("");
    expect(ctx.stderrText()).toContain("Repository not found");
  });

  it("a table row for every event type", async () => {
    expect(await run(["-o", "table", "--all"], { env: { NO_COLOR: "1" } })).toBe(0);
    expect(ctx.stdoutText()).toMatchInlineSnapshot(`
      "TIME                  TYPE                                PR     BASE  SUMMARY
      2026-11-20 11:59:00Z  action.assign                       #4821  main  assignees +jdoe
      2026-11-20 11:55:53Z  action.backport                     #4821  main  backported to release/4.1 as #4833
      2026-11-20 11:52:46Z  action.close                        #4821  main  closed: "Closing: superseded by #4830"
      2026-11-20 11:49:39Z  action.comment                      #4821  main  commented: "Thanks! This is queued for merge."
      2026-11-20 11:46:32Z  action.copy                         #4821  main  copied to release/4.0 as #4834 (with conflicts)
      2026-11-20 11:43:25Z  action.delete_head_branch           #4821  main  deleted head branch feature/faster-login
      2026-11-20 11:40:18Z  action.dismiss_reviews              #4821  main  dismissed reviews by asmith, bchen
      2026-11-20 11:37:11Z  action.edit                         #4821  main  marked ready for review
      2026-11-20 11:34:04Z  action.platform_actions             #4821  main  ran workflow deploy-preview.yml with environment=preview ref=feature/faster-login
      2026-11-20 11:30:57Z  action.label                        #4821  main  labels +ready-to-merge -work-in-progress
      2026-11-20 11:27:50Z  action.merge                        #4821  main  merged into main
      2026-11-20 11:24:43Z  action.post_check                   #4821  main  check "Rule: automatic merge": success
      2026-11-20 11:21:36Z  action.queue.batch_bisection_end    #4821  main  bisection done in queue "default": culprit #4821, 3 remaining
      2026-11-20 11:18:29Z  action.queue.batch_bisection_start  #4821  main  batch split: 4 → 2×2, depth 1
      2026-11-20 11:15:22Z  action.queue.change                 -      main  queue "default" size 5
      2026-11-20 11:12:15Z  action.queue.checks.change          -      main  queue "default": 2 checks running
      2026-11-20 11:09:08Z  action.queue.checks_end             #4821  main  checks aborted in queue "default": CHECKS_FAILED
      2026-11-20 11:06:01Z  action.queue.checks_not_started     #4821  main  checks not started in queue "default": The draft pull request could not be created
      2026-11-20 11:02:54Z  action.queue.checks_start           #4821  main  checks started in queue "default" for #4820, #4821: First time checking pull request
      2026-11-20 10:59:47Z  action.queue.enter                  #4821  main  entered queue "default"
      2026-11-20 10:56:40Z  action.queue.leave                  #4821  main  left queue "default": Pull request checks failed after 58m 38s
      2026-11-20 10:53:33Z  action.queue.merged                 #4821  main  merged by queue "default" into main after 55m 31s
      2026-11-20 10:50:26Z  action.rebase                       #4821  main  rebased
      2026-11-20 10:47:19Z  action.refresh                      #4821  main  refreshed
      2026-11-20 10:44:12Z  action.request_reviews              #4821  main  requested reviews from asmith, team platform
      2026-11-20 10:41:05Z  action.requeue                      #4821  main  queue_name=default reason="retried after a flaky failure"
      2026-11-20 10:37:58Z  action.review                       #4821  main  review APPROVE by merge-bot
      2026-11-20 10:34:51Z  action.squash                       #4821  main  squashed
      2026-11-20 10:31:44Z  action.unqueue                      #4821  main  removed from the queue
      2026-11-20 10:28:37Z  action.update                       #4821  main  updated with its base branch
      2026-11-20 10:25:30Z  ci_insights.job_retried             #4821  main  job retried by rule "retry flaky network tests": attempt 1/3
      2026-11-20 10:22:23Z  ci_issue.created                    -      -     ci_issue_id=812 name="flaky: test_login_timeout" job_name="ci / test (node 20)"
      2026-11-20 10:19:16Z  ci_issue.linked                     #4821  -     ci_issue_id=812 pull_request_number=4821
      2026-11-20 10:16:09Z  ci_issue.merged                     -      -     ci_issue_id=812 merged_into_ci_issue_id=790
      2026-11-20 10:13:02Z  ci_issue.renamed                    -      -     ci_issue_id=812 old_name="flaky: test_login_timeout" new_name="flaky: login times out on CI"
      2026-11-20 10:09:55Z  ci_issue.reopened                   -      -     ci_issue_id=790
      2026-11-20 10:06:48Z  ci_issue.resolved                   -      -     ci_issue_id=790 resolved_by=jdoe
      2026-11-20 10:03:41Z  ci_issue.unresolved                 -      -     ci_issue_id=790
      2026-11-20 10:00:34Z  command.dequeue                     #4821  main  dequeue command by jdoe
      2026-11-20 09:57:27Z  command.queue                       #4821  main  queue command by jdoe
      2026-11-20 09:54:20Z  command.requeue                     #4821  main  author=jdoe comment_id=2481940112 session_id=3f0c2a9e-8b7d-4e61-a5c4-1d2e3f4a5b6c
      2026-11-20 09:51:13Z  queue.pause.create                  -      -     queue paused by jdoe: "incident INC-311: main is broken"
      2026-11-20 09:48:06Z  queue.pause.delete                  -      -     queue unpaused by release-bot
      2026-11-20 09:44:59Z  queue.pause.update                  -      -     pause updated by jdoe: "incident INC-311: waiting for the revert"
      2026-11-20 09:41:52Z  scheduled_freeze.create             -      -     freeze created by jdoe: "release 4.2 code freeze", 2026-11-21T18:00:00+01:00 → 2026-11-23T08:00:00+01:00
      2026-11-20 09:38:45Z  scheduled_freeze.delete             -      -     freeze "release 4.2 code freeze" deleted by release-bot: "release shipped early"
      2026-11-20 09:35:38Z  scheduled_freeze.update             -      -     freeze "release 4.2 code freeze" updated by jdoe: now 2026-11-21T18:00:00+01:00 → 2026-11-24T08:00:00+01:00
      "
    `);
  });

  it("warns once per type about metadata that differs from the contract, and shows it as sent", async () => {
    await server.close();
    const leave = FIXTURE_EVENTS.find((e) => e.type === "action.queue.leave")!;
    const bad = [1, 2].map((i) => ({ ...leave, id: i, metadata: { ...leave.metadata, merged: "yes" } }));
    server = await startLogServer(bad);
    expect(await run(["-o", "ndjson"])).toBe(0);
    expect(
      ctx
        .stdoutText()
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual(bad);
    expect(ctx.stderrText()).toBe(
      "mq: warning: action.queue.leave event 1 does not match the contract (metadata.merged: Invalid input: expected boolean, received string); shown as sent. --strict makes this an error.\n",
    );
    await ctx.cleanup();
    expect(await run(["-o", "table"], { env: { NO_COLOR: "1" } })).toBe(0);
    expect(ctx.stdoutText()).toContain('  reason="Pull request checks failed" merged=yes queue_name=default');
  });

  it("the table shows exactly the mismatched events as sent, page after page and under --follow", async () => {
    await server.close();
    const leave = FIXTURE_EVENTS.find((e) => e.type === "action.queue.leave")!;
    const at = (i: number) => new Date(Date.parse(leave.received_at) - i * 60_000).toISOString();
    const events = [1, 2, 3].map((i) => ({
      ...leave,
      id: i,
      received_at: at(i),
      metadata: i === 2 ? { ...leave.metadata, merged: "yes" } : leave.metadata,
    }));
    server = await startLogServer(events);
    const asSent = (text: string) => text.split("\n").filter((l) => l.includes("merged=")).length;
    expect(await run(["-o", "table", "--per-page", "1", "--all"], { env: { NO_COLOR: "1" } })).toBe(0);
    expect(server.requests).toHaveLength(3);
    expect(asSent(ctx.stdoutText())).toBe(1);
    expect(ctx.stdoutText()).toContain("merged=yes");
    await ctx.cleanup();

    const ac = new AbortController();
    ctx = useServer(testContext({ signal: ac.signal, env: { NO_COLOR: "1" } }), server);
    const done = main(["logs", "--follow", "--interval", "0.1", "--per-page", "1", "-o", "table"], ctx);
    await waitFor(
      () =>
        ctx
          .stdoutText()
          .split("\n")
          .filter((l) => l.includes("action.queue.leave")).length === 3,
    );
    ac.abort();
    expect(await done).toBe(130);
    expect(asSent(ctx.stdoutText())).toBe(1);
  });

  it("--strict makes a metadata mismatch an error (exit 6)", async () => {
    await server.close();
    const leave = FIXTURE_EVENTS.find((e) => e.type === "action.queue.leave")!;
    server = await startLogServer([{ ...leave, metadata: { ...leave.metadata, merged: "yes" } }]);
    expect(await run(["--strict", "-o", "ndjson"])).toBe(6);
    expect(ctx.stdoutText()).toBe("");
    expect(ctx.stderrText()).toContain("does not match the contract");
  });

  it("Ctrl-C in the middle of --all keeps whole lines, exits 130 and says how to resume", async () => {
    await server.close();
    server = await startLogServer(makeEvents(30));
    const ac = new AbortController();
    const held = server.holdRequest(2);
    ctx = useServer(testContext({ signal: ac.signal }), server);
    const done = main(["logs", "--all", "--per-page", "10"], ctx);
    await held;
    ac.abort();
    expect(await done).toBe(130);
    const lines = ctx.stdoutText().trimEnd().split("\n");
    expect(lines.map((l) => JSON.parse(l).id)).toEqual([30, 29, 28, 27, 26, 25, 24, 23, 22, 21]);
    expect(ctx.stderrText()).toBe(
      "mq: interrupted\n10 events were written before this. To resume:\n  mq logs --repo acme/web --since 2026-11-19T12:00:00Z --until 2026-11-20T12:00:00Z --per-page 10 --all -o ndjson --cursor 10\n",
    );
  });

  it("Ctrl-C on a terminal before the table has sized its columns: no row after it, and the resume point is before the rows not shown", async () => {
    await server.close();
    server = await startLogServer(makeEvents(30));
    const ac = new AbortController();
    const held = server.holdRequest(2);
    ctx = useServer(testContext({ signal: ac.signal, stdoutIsTTY: true, env: { NO_COLOR: "1" } }), server);
    const done = main(["logs", "--all", "--per-page", "10"], ctx);
    await held;
    ac.abort();
    expect(await done).toBe(130);
    // the table held the first page to size its columns: the terminal takes nothing after Ctrl-C
    expect(ctx.stdoutText()).toBe("");
    // so resuming starts where the run started (before, the count said 10 and the resume skipped them)
    expect(ctx.stderrText()).toBe("mq: interrupted\n");
  });

  it("--follow prints the backlog oldest first, then new events as they arrive, once each", async () => {
    const ac = new AbortController();
    // the clock has passed the new events' instant: the watermark never goes past now
    ctx = useServer(testContext({ signal: ac.signal, now: () => new Date("2026-11-20T12:01:00Z") }), server);
    const done = main(["logs", "--follow", "--interval", "0.1", "--limit", "3", "-o", "ndjson"], ctx);
    const ids = () =>
      ctx
        .stdoutText()
        .trimEnd()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l).id as number);
    await waitFor(() => ids().length === 3);
    await waitFor(() => server.requests.length >= 2);
    const fresh = makeEvents(2, Date.parse("2026-11-20T12:00:30Z"), 950001);
    server.appendEvents(fresh);
    await waitFor(() => ids().length === 5);
    await waitFor(() => server.requests.includes("/v1/repos/acme/web/logs?received_from=2026-11-20T12%3A00%3A30Z&per_page=100"));
    ac.abort();
    expect(await done).toBe(130);
    expect(ids()).toEqual([900045, 900046, 900047, 950001, 950002]);
    expect(server.requests[0]).toBe("/v1/repos/acme/web/logs?per_page=3");
    expect(server.requests[1]).toBe("/v1/repos/acme/web/logs?received_from=2026-11-20T11%3A59%3A00Z&per_page=100");
    expect(server.requests.at(-1)).toBe("/v1/repos/acme/web/logs?received_from=2026-11-20T12%3A00%3A30Z&per_page=100");
  });
});

describe("--follow and a future-stamped event", () => {
  it("prints it once, keeps the watermark at now, and keeps printing the events that follow", async () => {
    const server = await startLogServer(makeEvents(3, Date.parse("2026-11-20T11:59:00Z"), 900001));
    try {
      let now = Date.parse("2026-11-20T12:00:00Z");
      const ac = new AbortController();
      const ctx = useServer(testContext({ signal: ac.signal, now: () => new Date(now) }), server);
      const done = main(["logs", "--follow", "--interval", "0.1", "-o", "ndjson"], ctx);
      const ids = () =>
        ctx
          .stdoutText()
          .trimEnd()
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l).id as number);
      await waitFor(() => ids().length === 3);
      // a server whose clock is years ahead, or a hostile one
      server.appendEvents(makeEvents(1, Date.parse("2031-01-01T00:00:00Z"), 950001));
      await waitFor(() => ids().length === 4);
      const polled = server.requests.length;
      await waitFor(() => server.requests.length >= polled + 2);
      now = Date.parse("2026-11-20T12:01:00Z");
      server.appendEvents(makeEvents(2, Date.parse("2026-11-20T12:00:40Z"), 950002));
      await waitFor(() => ids().length === 6);
      const after = server.requests.length;
      await waitFor(() => server.requests.length >= after + 2);
      ac.abort();
      expect(await done).toBe(130);
      // oldest first within each poll; the future event once, though every poll returns it again
      expect(ids()).toEqual([900001, 900002, 900003, 950001, 950002, 950003]);
      const froms = server.requests.map((r) => new URL(r, "http://x").searchParams.get("received_from")).filter((f) => f !== null);
      expect(froms.every((f) => Date.parse(f!) <= Date.parse("2026-11-20T12:01:00Z"))).toBe(true);
      expect(froms.at(-1)).toBe("2026-11-20T12:00:40Z");
    } finally {
      await server.close();
    }
  });
});

async function waitFor(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(cond()).toBe(true);
}

describe("resumeCommand", () => {
  const opts = { format: "ndjson", all: true, filters: {} } as unknown as LogsOptions;
  it("repeats the server the user named, never the token", () => {
    expect(resumeCommand(opts, "acme/web", "c2", undefined, { apiUrl: "https://mq.example.com", offline: false })).toBe(
      "mq logs --repo acme/web --api-url https://mq.example.com --all -o ndjson --cursor c2",
    );
    expect(resumeCommand(opts, "acme/web", "c2", 5, { offline: true })).toBe(
      "mq logs --repo acme/web --offline --limit 5 -o ndjson --cursor c2",
    );
  });
});
