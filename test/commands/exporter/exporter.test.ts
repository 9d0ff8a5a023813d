// `mq exporter`'s flags: each bad one refused with one line, exit 2, before any request (the runs
// against the bundled server are in exporter.e2e.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../../src/main.js";
import { startServer, type RunningServer } from "../../../src/server/index.js";
import { testContext } from "../../helpers/context.js";
import { tempDir } from "../../helpers/tmp.js";
import { NOW, TOKEN, until } from "./harness.js";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, seed: 5, days: 1, now: NOW, token: TOKEN, repos: ["acme/web"] });
});
afterAll(() => server.close());

describe("mq exporter flags", () => {
  const refused: Array<[string[], string]> = [
    [
      ["--listen", "localhost"],
      "mq: --listen must be HOST:PORT (e.g. 127.0.0.1:9469, [::1]:9469; port 0 picks a free one), not 'localhost'.\n",
    ],
    [
      ["--listen", "127.0.0.1:70000"],
      "mq: --listen must be HOST:PORT (e.g. 127.0.0.1:9469, [::1]:9469; port 0 picks a free one), not '127.0.0.1:70000'.\n",
    ],
    [
      ["--listen", "0.0.0.0:9469"],
      "mq: --listen 0.0.0.0:9469 listens beyond this machine: give --bearer-token-file FILE or --basic-auth-file FILE too, so that only scrapers holding it are answered.\n",
    ],
    [["--interval", "0"], "mq: --interval must be a number of seconds from 1 to 3600, not '0'.\n"],
    [
      ["--since", "yesterday"],
      'mq: --since "yesterday" is not an ISO 8601 date-time with a timezone (2026-11-20T09:00:00Z), a date (2026-11-20: midnight UTC) or a duration ago (30m, 1h30m, 7d, 2w).\n',
    ],
    [["--since", "2027-01-01T00:00:00Z"], "mq: --since is in the future: give a past date-time or a duration.\n"],
    [["--bearer-token-file", "/nonexistent/token"], "mq: --bearer-token-file: cannot read /nonexistent/token (ENOENT).\n"],
    [
      ["--bearer-token-file", "a", "--basic-auth-file", "b"],
      "mq: --bearer-token-file and --basic-auth-file cannot be combined: give one.\n",
    ],
  ];
  it.each(refused)("refuses %j with one line, exit 2, and no request", async (args, line) => {
    const ctx = testContext({ now: () => NOW });
    const before = server.requests.length;
    expect(await main(["--api-url", server.url, "--token", TOKEN, "exporter", "--repo", "acme/web", ...args], ctx)).toBe(2);
    expect(ctx.stderrText()).toBe(line);
    expect(ctx.stdoutText()).toBe("");
    expect(server.requests.length).toBe(before);
  });

  it("needs --repo, and checks each name of a list or @FILE", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "repos.txt"), "acme/web\n# a comment\nnot a repo\n");
    const ctx = testContext({ now: () => NOW, cwd: dir });
    expect(await main(["--api-url", server.url, "exporter"], ctx)).toBe(2);
    expect(ctx.stderrText()).toBe("mq: mq exporter needs --repo: owner/name, repeated, comma-separated, or @FILE (one a line).\n");
    const ctx2 = testContext({ now: () => NOW, cwd: dir });
    expect(await main(["--api-url", server.url, "exporter", "--repo", "@repos.txt"], ctx2)).toBe(2);
    expect(ctx2.stderrText()).toMatch(/^mq: bad repository from --repo @repos\.txt, line 3: .*\n$/);
  });

  it("a basic-auth file must hold USER:PASSWORD, and is never echoed", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "auth"), "s3cr3t-without-user\n");
    const ctx = testContext({ now: () => NOW, cwd: dir });
    expect(await main(["--api-url", server.url, "exporter", "--repo", "acme/web", "--basic-auth-file", "auth"], ctx)).toBe(2);
    expect(ctx.stderrText()).toBe("mq: --basic-auth-file: auth must hold one line USER:PASSWORD.\n");
  });
});

describe("mq exporter on a terminal", () => {
  it("wraps its lines on stderr to the terminal's width", async () => {
    const ac = new AbortController();
    const ctx = testContext({ now: () => NOW, signal: ac.signal, stderrIsTTY: true, columns: 60 });
    const done = main(
      [
        "--api-url",
        server.url,
        "--token",
        TOKEN,
        "exporter",
        "--repo",
        "acme/web,acme/gone",
        "--listen",
        "127.0.0.1:0",
        "--interval",
        "3600",
      ],
      ctx,
    );
    // the start-up lines, and the line naming the repository that fails (the server has no acme/gone)
    await until("a failing repository named", () => (/acme\/gone/.test(ctx.stderrText()) ? true : undefined));
    ac.abort();
    expect(await done).toBe(0);
    const lines = ctx.stderrText().trimEnd().split("\n");
    // a word longer than a line (the failing request's URL) stays whole, on a line of its own
    expect(lines.filter((l) => l.length > 60 && l.includes(" "))).toEqual([]);
    expect(lines.join(" ")).toMatch(
      /^mq exporter: serving http:\/\/127\.0\.0\.1:\d+\/metrics for 2 repositories, polling every 3600 s Press Ctrl-C to stop\. /,
    );
  });
});
