// `mq queue` against a loopback server holding the hand-made history of #7 and #8
// (test/insights/fixture.ts), in both dialects, and against the bundled simulation at a fixed
// present, where it must list exactly the open stays of `mq prs` over the same window.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../../src/server/index.js";
import { prSevenEvents } from "../../insights/fixture.js";
import { runMq } from "../../reliability/harness.js";
import { QUEUE_FIELDS } from "../../../src/queue/records.js";
import { figure } from "../../../src/figures/catalogue.js";

const NOW = new Date("2026-11-20T12:00:00Z");
const servers: Partial<Record<"contract" | "mergify", RunningServer>> = {};
let simulated: RunningServer;
beforeAll(async () => {
  servers.contract = await startServer({ now: NOW, events: { "acme/web": prSevenEvents("contract") as never } });
  // the server speaks the real service's dialect by translating the contract's events, as it does the simulation's
  servers.mergify = await startServer({ now: NOW, dialect: "mergify", events: { "acme/web": prSevenEvents("contract") as never } });
  simulated = await startServer({ now: NOW, days: 3 });
});
afterAll(async () => {
  await Promise.all([servers.contract?.close(), servers.mergify?.close(), simulated?.close()]);
});

async function mq(server: RunningServer, args: string[], tty = false) {
  const before = server.requests.length;
  const r = await runMq([...args, "--color", "never"], { apiUrl: server.url, now: () => NOW, stdoutIsTTY: tty, columns: 100 });
  return { ...r, requests: server.requests.slice(before).map((q) => q.url) };
}

const AT_1030 = ["--since", "2026-11-20T00:00:00Z", "--until", "2026-11-20T10:30:00Z"];
const QUEUE_TYPES =
  "event_type=action.queue.enter&event_type=action.queue.checks_not_started&event_type=action.queue.checks_start&event_type=action.queue.checks_end&event_type=action.queue.batch_bisection_start&event_type=action.queue.batch_bisection_end&event_type=action.queue.merged&event_type=action.queue.leave";

describe("mq queue on a hand-made history", () => {
  // By hand, at 10:30: #7 entered 10:00:00, #8 10:01:00 (queue default, partition __default__ in the
  // contract, none in the real service's dialect); the batch #7 #8 #9 failed at 10:25:00 and was
  // bisected: #7 alone and #8 with #9 run since 10:25:15. No stay merged before 10:30: no estimate.
  it("table: positions in order of entry, bisecting since the split, no estimate", async () => {
    const r = await mq(servers.contract!, ["queue", ...AT_1030, "-o", "table"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      [
        "BASE  QUEUE    PARTITION    POS  PR  IN QUEUE  ETA  STATE",
        "main  default  __default__    1  #7       30m  -    bisecting 4m 45s",
        "main  default  __default__    2  #8       29m  -    bisecting 4m 45s, with #9",
        "",
      ].join("\n"),
    );
    expect(r.stderr).toBe(
      "acme/web: 2 pull requests in the queue at 2026-11-20 10:30:00Z, rebuilt from the queue events since 2026-11-20 00:00:00Z; a stay entered before then with no event since is not seen\n",
    );
    expect(r.requests).toEqual([
      `/v1/repos/acme/web/logs?${QUEUE_TYPES}&received_from=2026-11-20T00%3A00%3A00Z&received_to=2026-11-20T10%3A30%3A00Z&per_page=100`,
    ]);
  });

  for (const dialect of ["contract", "mergify"] as const) {
    it(`json, ${dialect}: the same queue in both dialects`, async () => {
      const r = await mq(servers[dialect]!, ["queue", "--since", "2026-11-20T00:00:00Z", "--until", "2026-11-20T10:10:00Z", "-o", "json"]);
      expect(r.code, r.stderr).toBe(0);
      const partition = dialect === "contract" ? "__default__" : null;
      const row = (pr: number, position: number, entered: string, inQueue: number) => ({
        repository: "acme/web",
        pull_request: pr,
        base_ref: "main",
        queue_name: "default",
        partition_name: partition,
        priority_rule_name: null,
        position,
        entered_at: entered,
        time_in_queue: inQueue,
        state: "checks_running",
        state_since: "2026-11-20T10:05:00Z",
        batch_with: pr === 7 ? [8, 9] : [7, 9],
        eta_p50: null,
        eta_p90: null,
        eta_sample: 0,
        eta_basis: "none",
        entered_before_lookback: false,
      });
      expect(JSON.parse(r.stdout)).toEqual([row(7, 1, "2026-11-20T10:00:00Z", 600), row(8, 2, "2026-11-20T10:01:00Z", 540)]);
    });
  }

  it("marks a stay whose enter is older than the lookback, and filters by queue and partition", async () => {
    const r = await mq(servers.contract!, ["queue", "--since", "2026-11-20T10:00:30Z", "--until", "2026-11-20T10:30:00Z", "-o", "csv"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split("\r\n").map((l) => l.split(",").slice(1, 2).concat(l.split(",").slice(-1)))).toEqual([
      ["pull_request", "entered_before_lookback"],
      ["7", "true"],
      ["8", "false"],
      [""],
    ]);
    const none = await mq(servers.contract!, ["queue", ...AT_1030, "--partition", "api", "-o", "json"]);
    expect([none.code, none.stdout]).toEqual([0, "[]\n"]);
    const one = await mq(servers.contract!, ["queue", ...AT_1030, "--queue", "default", "-o", "csv", "--fields", "pull_request,position"]);
    expect(one.stdout).toBe("pull_request,position\r\n7,1\r\n8,2\r\n");
  });

  it("an empty queue: no rows, the line on stderr says so", async () => {
    const r = await mq(servers.contract!, ["queue", "--since", "2026-11-20T00:00:00Z", "--until", "2026-11-20T09:00:00Z", "-o", "table"]);
    expect([r.code, r.stdout]).toEqual([0, ""]);
    expect(r.stderr).toMatch(/^acme\/web: 0 pull requests in the queue at 2026-11-20 09:00:00Z,/);
  });
});

describe("mq queue: input checked before any request", () => {
  for (const [args, message] of [
    [["--partition", ""], "mq: --partition has an empty value"],
    [["--fields", "pull_request,nope", "-o", "json"], 'mq: --fields: unknown field "nope"'],
    [["--fields", "pull_request"], "mq: --fields applies to -o json, ndjson or csv, not to the table."],
    [["-o", "markdown"], "mq: -o markdown is for statistics"],
    [["--since", "yesterday"], "mq: --since"],
  ] as const) {
    it(`${args.join(" ")}: exit 2`, async () => {
      const r = await mq(servers.contract!, ["queue", ...args, ...((args as readonly string[]).includes("-o") ? [] : ["-o", "table"])]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr.startsWith(message), r.stderr).toBe(true);
      expect(r.stderr.split("\n").length).toBe(2);
      expect(r.requests).toEqual([]);
    });
  }
});

describe("mq queue on the bundled simulation", () => {
  for (const until of ["2026-11-20T09:00:00Z", "2026-11-20T11:47:13Z"]) {
    it(`lists exactly the open stays of mq prs over the same window (until ${until})`, async () => {
      const window = ["--since", "2026-11-19T00:00:00Z", "--until", until];
      const q = await mq(simulated, ["queue", ...window, "-o", "json"]);
      const p = await mq(simulated, ["prs", ...window, "--outcome", "open", "-o", "json"]);
      expect([q.code, p.code]).toEqual([0, 0]);
      const key = (r: Record<string, unknown>) => `${r.pull_request} ${r.entered_at} ${r.base_ref} ${r.queue_name} ${r.partition_name}`;
      const queued: Record<string, unknown>[] = JSON.parse(q.stdout);
      const open: Record<string, unknown>[] = JSON.parse(p.stdout);
      expect(queued.length).toBeGreaterThan(3);
      expect(queued.map(key).sort()).toEqual(open.map(key).sort());
      // positions run 1…k in each base ref, queue and partition
      const groups = new Map<string, number[]>();
      for (const r of queued) {
        const g = `${r.base_ref} ${r.queue_name} ${r.partition_name}`;
        groups.set(g, [...(groups.get(g) ?? []), Number(r.position)]);
      }
      for (const positions of groups.values()) expect(positions).toEqual(positions.map((_, i) => i + 1));
    });
  }
});

describe("mq queue's figures", () => {
  it("are each in the catalogue of figures, which says how the estimate is made", () => {
    const identity = [
      "repository",
      "pull_request",
      "base_ref",
      "queue_name",
      "partition_name",
      "priority_rule_name",
      "batch_with",
      "entered_at",
    ];
    expect(QUEUE_FIELDS.filter((f) => !identity.includes(f) && !figure(f))).toEqual([]);
    expect(figure("eta_p50")?.shownBy).toEqual(["mq queue", "mq wait"]);
  });
});

describe("mq queue over several repositories", () => {
  const window = ["--since", "2026-11-19T00:00:00Z", "--until", "2026-11-20T09:00:00Z"];
  it("each repository's queue, in the order of --repo, the same rows as alone", async () => {
    const alone = async (repo: string) => {
      const r = await runMq(["--repo", repo, "queue", ...window, "-o", "json"], { apiUrl: simulated.url, repo: false, now: () => NOW });
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as unknown[];
    };
    const both = await runMq(["--repo", "acme/api,acme/web", "queue", ...window, "-o", "json"], {
      apiUrl: simulated.url,
      repo: false,
      now: () => NOW,
    });
    expect(both.code, both.stderr).toBe(0);
    const [api, web] = [await alone("acme/api"), await alone("acme/web")];
    expect(api.length).toBeGreaterThan(0);
    expect(web.length).toBeGreaterThan(0);
    expect(JSON.parse(both.stdout)).toEqual([...api, ...web]);
    const table = await runMq(["--repo", "acme/api,acme/web", "queue", ...window, "-o", "table", "--color", "never"], {
      apiUrl: simulated.url,
      repo: false,
      now: () => NOW,
      columns: 200,
    });
    expect(table.stdout.split("\n")[0]).toMatch(/^REPOSITORY +BASE +QUEUE +PARTITION +POS +PR +IN QUEUE +ETA +STATE$/);
    expect(table.stderr).toBe(
      `2 of 2 repositories: ${api.length + web.length} pull requests in the queue at 2026-11-20 09:00:00Z, rebuilt from the queue events since 2026-11-19 00:00:00Z; a stay entered before then with no event since is not seen\n`,
    );
  });

  it("on a terminal at 60, 80 and 120 columns: ETA and STATE (the answer) stay; BASE, QUEUE and PARTITION become one column naming each row's lane; a screen of rows", async () => {
    const at = async (columns: number) => {
      const r = await runMq(["--repo", "acme/web", "queue", ...window, "--color", "never"], {
        apiUrl: simulated.url,
        repo: false,
        now: () => NOW,
        stdoutIsTTY: true,
        columns,
      });
      expect(r.code, r.stderr).toBe(0);
      return r.stdout.trimEnd().split("\n");
    };
    const [narrow, middle, wide] = [await at(60), await at(80), await at(120)];
    for (const [lines, columns] of [
      [narrow, 60],
      [middle, 80],
      [wide, 120],
    ] as const) {
      expect(lines[0], `${columns}`).toMatch(/\bPR( +IN QUEUE)? +ETA +STATE$/);
      for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(columns);
      // each pull request once (its cell is followed by the gap between columns; a batch's are not)
      const prs = lines.filter((l) => /#\d+ {2}/.test(l)).map((l) => /(#\d+) {2}/.exec(l)![1]);
      expect(new Set(prs).size).toBe(prs.length);
      expect(prs.length).toBeGreaterThan(0);
      expect(prs.length).toBeLessThanOrEqual(30);
    }
    expect(wide[0]).toMatch(/^BASE +QUEUE +PARTITION +POS +PR +IN QUEUE +ETA +STATE$/);
    // at 80 the three did not fit: one QUEUE column of what tells the lanes apart, so that no two
    // rows read the same lane and position (PARTITION dropped, two rows read "default 1")
    expect(middle[0]).toMatch(/^QUEUE +POS +PR +ETA +STATE$/);
    const lanes = middle.map((l) => /^(\S.*?) +(\d+) +#\d+ /.exec(l)).filter((m) => m !== null);
    expect(lanes.map((m) => m[1])).toContain("main default/api");
    expect(lanes.map((m) => m[1])).toContain("release/v2 default");
    const places = lanes.map((m) => `${m[1]} ${m[2]}`);
    expect(new Set(places).size).toBe(places.length);
    expect(middle.at(-1)).toBe("not shown at 80 columns: IN QUEUE (a wider terminal or -o csv shows it)");
    // narrower: the position goes with its lane, never shown without it
    expect(narrow[0]).toMatch(/^ +PR +ETA +STATE$/);
    expect(narrow.slice(-2)).toEqual(["not shown at 60 columns: QUEUE, POS, IN QUEUE (a wider", "terminal or -o csv shows them)"]);
  });

  it("a repository that cannot be read is named, the others shown, and its exit code is the command's", async () => {
    const missing = await startServer({ now: NOW, days: 1, repos: ["acme/web"] });
    try {
      const r = await runMq(["--repo", "acme/web,acme/gone", "queue", ...window, "-o", "json"], {
        apiUrl: missing.url,
        repo: false,
        now: () => NOW,
      });
      expect(JSON.parse(r.stdout).length).toBeGreaterThan(0);
      expect(r.stderr).toMatch(/^mq: acme\/gone: .+ HTTP 404 Not Found: Repository not found \(exit 3\)\n/);
      expect(r.stderr).toMatch(/mq: 1 of 2 repositories could not be read \(acme\/gone\); the output covers the others\.\n$/);
      expect(r.code).toBe(3);
    } finally {
      await missing.close();
    }
  });
});
