// Bad input, table-driven: every case exits 2 with exactly one line on stderr that names the flag
// (or argument) and what is allowed, and the loopback API server receives nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFaultServer, type FaultServer, pageReply } from "../helpers/fault-server.js";
import { lines, runMq } from "./harness.js";

interface Case {
  /** the command line after the global --api-url/--token/--repo */
  args: string[];
  /** stderr must match this (the flag's name and the allowed values) */
  says: RegExp;
  stdin?: string;
  /** run without --api-url/--token (commands that refuse them) */
  bare?: boolean;
  /** run without the harness's own --repo (repeated --repo values add up into a list) */
  ownRepo?: boolean;
}

const long = (n: number, c = "x") => c.repeat(n);

const LOGS: Case[] = [
  { args: ["logs", "--per-page", "0"], says: /--per-page must be an integer from 1 to 100, not "0"/ },
  { args: ["logs", "--per-page", "101"], says: /--per-page must be an integer from 1 to 100, not "101"/ },
  { args: ["logs", "--per-page", "-1"], says: /--per-page must be an integer from 1 to 100/ },
  { args: ["logs", "--per-page", "1.5"], says: /--per-page must be an integer from 1 to 100/ },
  { args: ["logs", "--per-page", "ten"], says: /--per-page must be an integer from 1 to 100/ },
  { args: ["logs", "--pr", "0"], says: /--pr must be an integer from 1 to 2147483646, not "0"/ },
  { args: ["logs", "--pr", "2147483647"], says: /--pr must be an integer from 1 to 2147483646/ },
  { args: ["logs", "--pr", "-4"], says: /--pr must be an integer from 1 to 2147483646/ },
  { args: ["logs", "--pr", "1e3"], says: /--pr must be an integer from 1 to 2147483646/ },
  { args: ["logs", "--pr", "99999999999999999999"], says: /--pr must be an integer from 1 to 2147483646/ },
  { args: ["logs", "--base-ref", long(256)], says: /--base-ref value of 256 characters is too long: give 1 to 255/ },
  { args: ["logs", "--base-ref", ""], says: /--base-ref has an empty value: give 1 to 255/ },
  {
    args: ["logs", "--type", "action.queue.enterd"],
    says: /--type: unknown event type "action.queue.enterd" \(did you mean action.queue.enter/,
  },
  { args: ["logs", "--type", "nope.*"], says: /--type: no event type matches "nope.\*".*families: action\.\*/ },
  { args: ["logs", "--type", "action.merge,,action.close"], says: /--type has an empty value/ },
  { args: ["logs", "--type", "ACTION.MERGE"], says: /--type: unknown event type "ACTION.MERGE"/ },
  { args: ["logs", "--since", "2026-11-19T00:00:00"], says: /--since "2026-11-19T00:00:00" has no timezone: add Z or an offset/ },
  {
    args: ["logs", "--repo", "acme/web.git"],
    ownRepo: true,
    says: /^mq: bad repository from --repo: 'acme\/web\.git' is not owner\/name: did you mean acme\/web\?$/,
  },
  {
    args: ["logs", "--repo", "https://github.com/acme/web"],
    ownRepo: true,
    says: /^mq: bad repository from --repo: 'https:\/\/github\.com\/acme\/web' is not owner\/name: did you mean acme\/web\?$/,
  },
  {
    args: ["prs", "--repo", "git@github.com:acme/web.git,acme/api"],
    ownRepo: true,
    says: /'git@github\.com:acme\/web\.git' is not owner\/name: did you mean acme\/web\?/,
  },
  { args: ["logs", "--since", "2026-11-19 08:00"], says: /--since "2026-11-19 08:00" has no timezone/ },
  { args: ["logs", "--since", "2026-11-31"], says: /--since "2026-11-31" is not an ISO 8601 date-time with a timezone/ },
  {
    args: ["logs", "--since", "2026-02-30T00:00:00Z"],
    says: /--since "2026-02-30T00:00:00Z" is not an ISO 8601 date-time with a timezone/,
  },
  { args: ["logs", "--since", "2026-11-19T24:30:00Z"], says: /--since "2026-11-19T24:30:00Z" is not an ISO 8601/ },
  { args: ["logs", "--since", "2026-13-01T00:00:00Z"], says: /--since "2026-13-01T00:00:00Z" is not an ISO 8601/ },
  { args: ["logs", "--since", "2026-11-19T10:61:00+01:00"], says: /--since .* is not an ISO 8601/ },
  { args: ["logs", "--since", "yesterday"], says: /--since "yesterday" is not .*duration ago \(30m, 1h30m, 7d, 2w\)/ },
  { args: ["logs", "--since", "-5d"], says: /--since "-5d" is not/ },
  { args: ["logs", "--since", "5y"], says: /--since "5y" is not/ },
  { args: ["logs", "--until", "2026-11-20T25:00:00Z"], says: /--until "2026-11-20T25:00:00Z" is not/ },
  { args: ["logs", "--since", "1h", "--until", "2h"], says: /--since \(2026-11-20T11:00:00Z\) is after --until \(2026-11-20T10:00:00Z\)/ },
  { args: ["logs", "--since", "2026-11-20T00:00:00Z", "--until", "2026-11-19T00:00:00Z"], says: /--since .* is after --until/ },
  { args: ["logs", "--limit", "0"], says: /--limit must be an integer from 1 to 1000000000, not "0"/ },
  { args: ["logs", "--limit", "-3"], says: /--limit must be an integer from 1/ },
  { args: ["logs", "--limit", "1000000001"], says: /--limit must be an integer from 1 to 1000000000/ },
  { args: ["logs", "--all", "--limit", "5"], says: /--all and --limit cannot be used together/ },
  { args: ["logs", "--follow", "--all"], says: /--follow and --all cannot be used together/ },
  { args: ["logs", "--follow", "--cursor", "abc"], says: /--follow and --cursor cannot be used together/ },
  { args: ["logs", "--follow", "--until", "1h"], says: /--follow and --until cannot be used together/ },
  { args: ["logs", "--interval", "2"], says: /--interval only applies with --follow/ },
  { args: ["logs", "--follow", "--interval", "0"], says: /--interval must be a number of seconds from 0.1 to 3600, not "0"/ },
  { args: ["logs", "--follow", "--interval", "3601"], says: /--interval must be a number of seconds from 0.1 to 3600/ },
  { args: ["logs", "--follow", "--interval", "soon"], says: /--interval must be a number of seconds from 0.1 to 3600/ },
  { args: ["logs", "--cursor", ""], says: /--cursor is empty/ },
  { args: ["logs", "--cursor", "  "], says: /--cursor is empty/ },
  { args: ["logs", "-o", "ndjson", "--fields", "id,nope"], says: /--fields: unknown field "nope"; available fields: id, received_at/ },
  { args: ["logs", "-o", "json", "--fields", "id,,type"], says: /--fields has an empty value/ },
  { args: ["logs", "-o", "table", "--fields", "id"], says: /--fields applies to -o json, ndjson or csv/ },
  { args: ["logs", "--pr"], says: /option '--pr <number>' argument missing/ },
  { args: ["logs", "--bogus"], says: /unknown option '--bogus'/ },
  { args: ["logs", "extra-arg"], says: /too many arguments.*Expected 0 arguments but got 1/ },
];

const GLOBALS: Case[] = [
  {
    args: ["logs", "-o", "xml"],
    says: /option '-o, --output <format>' argument 'xml' is invalid. Allowed choices are table, json, ndjson, csv/,
  },
  { args: ["--output", "yaml", "logs"], says: /argument 'yaml' is invalid. Allowed choices are table, json, ndjson, csv/ },
  {
    args: ["logs", "--color", "sometimes"],
    says: /--color <when>' argument 'sometimes' is invalid. Allowed choices are auto, always, never/,
  },
  { args: ["logs", "--timeout", "0"], says: /--timeout must be a positive number of seconds/ },
  { args: ["logs", "--timeout", "-2"], says: /--timeout must be a positive number of seconds/ },
  { args: ["logs", "--timeout", "soon"], says: /--timeout must be a positive number of seconds/ },
  // beyond 2^31-1 ms Node's timers fire at once: every request would time out
  { args: ["logs", "--timeout", "2147484"], says: /--timeout must be a positive number of seconds, at most 2147483 \(about 24 days\)/ },
  { args: ["stats", "failure-rate", "--timeout", "1e10"], says: /--timeout must be a positive number of seconds, at most 2147483/ },
  { args: ["logs", "--repo", "a_b/web"], says: /--repo.*owner 'a_b' must be 1 to 40 letters, digits or hyphens/ },
  { args: ["logs", "--repo", `${long(41, "o")}/web`], says: /--repo.*owner '.{41}' must be 1 to 40 letters, digits or hyphens/ },
  { args: ["logs", "--repo", "acme/web/extra"], says: /--repo.*'acme\/web\/extra' is not of the form owner\/name/ },
  { args: ["logs", "--repo", "acme"], says: /--repo.*'acme' is not of the form owner\/name/ },
  { args: ["logs", "--repo", "acme/.."], says: /--repo.*repository name '\.\.' must be/ },
  { args: ["logs", "--repo", "acme/we b"], says: /--repo.*repository name 'we b' must be 1 to 100 letters, digits, '_', '-' or '.'/ },
  { args: ["logs", "--repo", "acme/"], says: /--repo.*repository name '' must be/ },
  { args: ["logs", "--api-url", "ftp://example.com"], says: /--api-url: 'ftp:' is not supported: use an https:\/\/ URL/ },
  { args: ["logs", "--api-url", "not a url"], says: /--api-url: 'not a url' is not a valid URL/ },
  { args: ["logs", "--api-url", "https://user:pw@example.com"], says: /--api-url: the URL must not contain credentials/ },
  { args: ["logs", "--api-url", "https://example.com/?token=x"], says: /--api-url: the URL must not contain a query or a fragment/ },
  { args: ["logs", "--token", "two words"], says: /the token from --token contains spaces or control characters/ },
  { args: ["--bogus", "logs"], says: /unknown option '--bogus'/ },
  { args: ["lgos"], says: /unknown command 'lgos' \(did you mean logs\?\)/ },
];

const STATS: Case[] = [
  { args: ["stats", "failure-rat"], says: /unknown (stats subcommand|command) .failure-rat. \(did you mean failure-rate/ },
  { args: ["stats", "nope"], says: /unknown (stats subcommand|command) .nope./ },
  { args: ["stats", "failure-rate", "--fail-if", "failure_rate >"], says: /--fail-if/ },
  { args: ["stats", "failure-rate", "--fail-if", "nope > 1"], says: /--fail-if.*nope.*failure_rate/ },
  { args: ["stats", "failure-rate", "--fail-if", "failure_rate ~ 0.2"], says: /--fail-if/ },
  { args: ["stats", "failure-rate", "--fail-if", "failure_rate > lots"], says: /--fail-if/ },
  { args: ["stats", "failure-rate", "--fail-if", "median(failure_rate) > 0.1"], says: /--fail-if/ },
  { args: ["stats", "failure-rate", "--fail-if", ""], says: /--fail-if/ },
  { args: ["stats", "failure-rate", "--since", "2026-11-19T00:00:00"], says: /--since "2026-11-19T00:00:00" has no timezone/ },
  { args: ["stats", "failure-rate", "--since", "1h", "--until", "2h"], says: /--since .* is after --until/ },
  { args: ["stats", "failure-rate", "--until", "tomorrow"], says: /--until "tomorrow" is not/ },
  {
    args: ["stats", "branches", "--queue", "default"],
    says: /--queue is not accepted by mq stats branches: it takes only --since and --until/,
  },
  { args: ["stats", "queues", "--base-ref", "main"], says: /--base-ref is not accepted by mq stats queues/ },
  {
    args: ["stats", "running-speculative-checks", "--priority-rule", "hot"],
    says: /--priority-rule is not accepted by mq stats running-speculative-checks: its groups have no priority rule/,
  },
  {
    args: ["stats", "time-to-merge", "--since", "1d"],
    says: /--since is not accepted by mq stats time-to-merge: it takes only --at and --branch/,
  },
  { args: ["stats", "time-to-merge", "--at", "2026-02-30T00:00:00Z"], says: /--at "2026-02-30T00:00:00Z" is not/ },
  { args: ["stats", "time-to-merge", "--branch", ""], says: /--branch has an empty value/ },
  { args: ["stats", "failure-rate", "--queue", "a,,b"], says: /--queue has an empty value: give 1 to 255 characters/ },
  { args: ["stats", "queue-size", "--base-ref", long(256)], says: /--base-ref value of 256 characters is too long/ },
  { args: ["stats", "branches", "--chart"], says: /--chart is not available for mq stats branches/ },
  { args: ["stats", "failure-rate", "--chart", "-o", "json"], says: /--chart .* cannot be combined with -o json/ },
  { args: ["stats", "summary", "--since", "later"], says: /--since "later" is not/ },
  { args: ["stats", "summary", "--at", "1h"], says: /--at is not accepted by mq stats summary/ },
  { args: ["stats", "summary", "--fail-if", "x > 1"], says: /unknown field "x" for mq stats summary/ },
  {
    args: ["stats", "summary", "--fail-if", "check_failure_rate > 0.2", "--fail-if-scope", "some"],
    says: /--fail-if-scope must be one of all, each, both/,
  },
  { args: ["stats", "failure-rate", "--min-count", "x", "--fail-if", "failure_rate > 0.2"], says: /--min-count must be an integer/ },
  { args: ["stats", "failure-rate", "--report", "r.json"], says: /--report only applies to --fail-if checks/ },
  { args: ["stats", "failure-rate", "-o", "xlsx"], says: /argument 'xlsx' is invalid. Allowed choices are table, json, ndjson, csv/ },
  { args: ["stats", "failure-rate", "--repo", "a_b/c"], says: /--repo.*owner 'a_b' must be/, ownRepo: true },
];

const SERVE: Case[] = [
  { args: ["serve", "--port", "65536"], says: /--port must be an integer from 0 to 65535/ },
  { args: ["serve", "--port", "http"], says: /--port must be an integer from 0 to 65535/ },
  { args: ["serve", "--days", "0"], says: /--days must be an integer from 1 to 365, not '0'/ },
  { args: ["serve", "--days", "366"], says: /--days must be an integer from 1 to 365/ },
  { args: ["serve", "--seed", "-1"], says: /--seed must be a non-negative integer/ },
  { args: ["serve", "--now", "2026-11-20T12:00:00"], says: /--now must be an ISO 8601 date-time with a timezone/ },
  { args: ["serve", "--now", "2026-02-30T12:00:00Z"], says: /--now must be an ISO 8601 date-time with a timezone/ },
  { args: ["serve", "--repos", "a_b/c"], says: /--repos must be a comma-separated list of owner\/name, not 'a_b\/c'/ },
  { args: ["serve", "--repos", "acme"], says: /--repos must be a comma-separated list of owner\/name/ },
  { args: ["serve", "--repos", "acme/web/x"], says: /--repos must be a comma-separated list of owner\/name/ },
  {
    args: ["serve", "--events", "x.ndjson", "--seed", "1"],
    says: /--events replays a recorded log: it cannot be combined with --seed or --days/,
  },
  { args: ["serve", "--host", ""], says: /--host must be a host name or IP address/ },
];

const OTHERS: Case[] = [
  { args: ["auth", "login", "--with-token", "--no-check", "--bogus"], says: /unknown option '--bogus'/ },
  { args: ["auth", "login", "--with-token", "--no-check"], bare: true, stdin: "", says: /no token on standard input/ },
  {
    args: ["auth", "login", "--with-token", "--no-check"],
    bare: true,
    stdin: "two words\n",
    says: /the token from standard input contains spaces or control characters/,
  },
  { args: ["auth", "nope"], says: /unknown command 'nope'/ },
  { args: ["config", "get", "colour"], says: /unknown config key 'colour': allowed keys are api-url, repo, output, color, timeout/ },
  {
    args: ["config", "set", "color", "sometimes"],
    says: /bad value for color: 'sometimes' is not allowed; allowed values: auto, always, never/,
  },
  {
    args: ["config", "set", "output", "xml"],
    says: /bad value for output: 'xml' is not allowed; allowed values: table, json, ndjson, csv/,
  },
  { args: ["config", "set", "timeout", "0"], says: /bad value for timeout: '0' is not a positive number of seconds/ },
  {
    args: ["config", "set", "timeout", "3000000"],
    says: /bad value for timeout: '3000000' is more than 2147483 seconds \(about 24 days\), the longest timeout mq can keep/,
  },
  { args: ["config", "set", "repo", "a_b/c"], says: /bad value for repo: owner 'a_b' must be 1 to 40 letters, digits or hyphens/ },
  { args: ["config", "set", "api-url", "ftp://x"], says: /bad value for api-url: 'ftp:' is not supported/ },
  { args: ["config", "set", "repo"], says: /missing required argument 'value'/ },
  { args: ["completion", "powershell"], says: /value 'powershell' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish/ },
  { args: ["completion"], says: /missing required argument 'shell'/ },
];

const ALL = [...LOGS, ...GLOBALS, ...STATS, ...SERVE, ...OTHERS];

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer(() => pageReply([]));
});
afterAll(async () => {
  // nothing may reach the server: verify() also fails on a request the script could not answer
  server.verify();
  await server.close();
});

describe("bad input: exit 2, one line naming the flag, nothing sent", () => {
  it(`covers at least 60 cases (${ALL.length})`, () => {
    expect(ALL.length).toBeGreaterThanOrEqual(60);
  });

  const check = async (c: Case) => {
    const before = server.requests.length;
    // a `serve` whose flags pass by mistake would listen until aborted: bound it
    const r = await runMq(c.args, {
      apiUrl: c.bare ? undefined : server.url,
      repo: c.ownRepo ? false : undefined,
      stdin: c.stdin,
      signal: AbortSignal.timeout(3000),
    });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(server.requests.length - before).toBe(0);
    expect(lines(r.stderr)[0]).toMatch(/^mq: /);
    expect(lines(r.stderr)[0]).toMatch(c.says);
    return lines(r.stderr);
  };
  const name = (c: Case) => c.args.join(" ").slice(0, 90);

  it.each(ALL.map((c) => [name(c), c] as const))("%s", async (_name, c) => {
    expect(await check(c)).toHaveLength(1);
  });
});
