import { PassThrough } from "node:stream";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/main.js";
import { NewCmdAuthLogin, type AuthLoginOptions } from "../../src/commands/auth/login.js";
import { runAuthLogin } from "../../src/commands/auth/run.js";
import { createContext } from "../../src/context.js";
import { loopbackServers } from "../helpers/loopback.js";
import { testContext, type TestContext } from "../helpers/context.js";

const TOKEN = "mqk_0123456789secretabcd";
const serve = loopbackServers();

const stored = (ctx: TestContext) => JSON.parse(readFileSync(join(ctx.configDir(), "config.json"), "utf8"));

describe("mq auth login", () => {
  it("--with-token reads standard input, trims it, stores it per API URL, prints only the mask", async () => {
    const ctx = testContext({ stdin: `  ${TOKEN}\n` });
    expect(await main(["auth", "login", "--with-token", "--no-check"], ctx)).toBe(0);
    expect(stored(ctx)).toEqual({ tokens: { "https://api.mergify.com": TOKEN } });
    expect(statSync(join(ctx.configDir(), "config.json")).mode & 0o777).toBe(0o600);
    expect(ctx.stdoutText()).toBe("");
    expect(ctx.stderrText()).toBe(
      `Logged in to https://api.mergify.com: mqk_****abcd stored in ${join(ctx.configDir(), "config.json")} (not checked: --no-check)\n`,
    );
  });

  it("stores under the API URL in effect and warns when MQ_TOKEN overrides it", async () => {
    const ctx = testContext({ stdin: TOKEN, env: { MQ_TOKEN: "mqk_other_env_token" } });
    expect(await main(["auth", "login", "--with-token", "--no-check", "--api-url", "https://api.example.com/v1"], ctx)).toBe(0);
    expect(stored(ctx).tokens).toEqual({ "https://api.example.com": TOKEN });
    expect(ctx.stderrText()).toContain("note: $MQ_TOKEN is set and takes precedence over the stored token\n");
    expect(ctx.stderrText()).not.toContain("mqk_other_env_token");
  });

  it("rejects an empty standard input (exit 2)", async () => {
    const ctx = testContext({ stdin: " \n" });
    expect(await main(["auth", "login", "--with-token", "--no-check"], ctx)).toBe(2);
    expect(ctx.stderrText()).toBe("mq: no token on standard input\n");
  });

  it("refuses the token as a positional argument without echoing it (exit 2)", async () => {
    const ctx = testContext();
    expect(await main(["auth", "login", TOKEN], ctx)).toBe(2);
    expect(ctx.stderrText()).toBe(
      "mq: mq auth login does not take the token as an argument (it would stay in shell history and the process list)\n" +
        "pipe it in with: mq auth login --with-token < token.txt, or run mq auth login on a terminal to be prompted\n",
    );
    expect(ctx.stderrText()).not.toContain(TOKEN);
  });

  it("without --with-token and without a terminal says how to pipe it", async () => {
    const ctx = testContext();
    expect(await main(["auth", "login"], ctx)).toBe(2);
    expect(ctx.stderrText()).toBe("mq: no terminal to prompt on\npipe the token in with: mq auth login --with-token < token.txt\n");
  });

  it("prompts on a terminal without echo (raw mode), handling backspace", async () => {
    const stdin = Object.assign(new PassThrough(), {
      rawModes: [] as boolean[],
      setRawMode(on: boolean) {
        this.rawModes.push(on);
      },
    });
    const stderr = new PassThrough();
    const chunks: Buffer[] = [];
    stderr.on("data", (c: Buffer) => chunks.push(c));
    const ctx = createContext({
      io: { stdin, stdout: new PassThrough(), stderr, stdinIsTTY: true },
      env: { MQ_CONFIG_DIR: testContext().configDir() },
    });
    const done = runAuthLogin({ withToken: false, check: false }, ctx);
    setImmediate(() => stdin.write(`${TOKEN}x\u007f\r`));
    await done;
    expect(stdin.rawModes).toEqual([true, false]);
    const err = Buffer.concat(chunks).toString();
    expect(err.startsWith("Paste the API token for https://api.mergify.com (input hidden): \nLogged in")).toBe(true);
    expect(err).not.toContain(TOKEN);
    expect((await ctx.config()).getToken("https://api.mergify.com")).toBe(TOKEN);
  });

  it("checks by default: GETs the repository's queues with the new token, says what it checked, stores it", async () => {
    const api = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"queue_names": []}');
    });
    const ctx = testContext({ stdin: TOKEN });
    expect(await main(["auth", "login", "--with-token", "--repo", "acme/web", "--api-url", api.url], ctx)).toBe(0);
    expect(api.seen.map((r) => r.url)).toEqual(["/v1/repos/acme/web/stats/queues"]);
    expect(api.seen[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(stored(ctx).tokens).toEqual({ [api.url]: TOKEN });
    expect(ctx.stderrText()).toBe(
      `Token checked: ${api.url} accepted it for acme/web (its queue list)\n` +
        `Logged in to ${api.url}: mqk_****abcd stored in ${join(ctx.configDir(), "config.json")}\n`,
    );
    // --check, the opt-in of before, is still accepted and changes nothing
    const again = testContext({ stdin: TOKEN });
    expect(await main(["auth", "login", "--with-token", "--check", "--repo", "acme/web", "--api-url", api.url], again)).toBe(0);
    expect(api.seen).toHaveLength(2);
  });

  it("a rejected token (403) exits 4 and stores nothing", async () => {
    const api = await serve((_req, res) => {
      res.writeHead(403, { "content-type": "application/json" });
      res.end(JSON.stringify({ detail: "No access" }));
    });
    const ctx = testContext({ stdin: TOKEN });
    expect(await main(["auth", "login", "--with-token", "--repo", "acme/web", "--api-url", api.url], ctx)).toBe(4);
    expect(ctx.stderrText()).toBe(
      `mq: the token was not accepted for acme/web by ${api.url} (HTTP 403: No access)\nnothing was stored; check the token and its rights on the repository\n`,
    );
    expect(() => statSync(join(ctx.configDir(), "config.json"))).toThrow();
  });

  it("a repository the token cannot see (404) exits 3 and stores nothing", async () => {
    const api = await serve((_req, res) => {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ detail: "Not Found" }));
    });
    const ctx = testContext({ stdin: TOKEN });
    expect(await main(["auth", "login", "--with-token", "--repo", "acme/nope", "--api-url", api.url], ctx)).toBe(3);
    expect(ctx.stderrText()).toBe(
      `mq: ${api.url} knows no repository acme/nope that this token can read (HTTP 404: Not Found)\n` +
        "nothing was stored; check the repository (--repo) and the token's rights on it\n",
    );
    expect(() => statSync(join(ctx.configDir(), "config.json"))).toThrow();
  });

  it("an API URL that does not answer exits 6, stores nothing and names --no-check", async () => {
    const ctx = testContext({ stdin: TOKEN });
    expect(await main(["auth", "login", "--with-token", "--repo", "acme/web", "--api-url", "http://127.0.0.1:9", "--no-retry"], ctx)).toBe(
      6,
    );
    expect(ctx.stderrText()).toMatch(
      /\nnothing was stored; mq auth login checks the token on a repository; --no-check stores it without checking\n$/,
    );
    expect(() => statSync(join(ctx.configDir(), "config.json"))).toThrow();
  });

  it("without a repository to check on, exits 2 before reading the token, naming --no-check", async () => {
    const ctx = testContext({ stdin: TOKEN });
    expect(await main(["auth", "login", "--with-token"], ctx)).toBe(2);
    expect(ctx.stderrText()).toBe(
      "mq: no repository given\nset it with --repo owner/name, the MQ_REPO environment variable, or mq config set repo owner/name\n" +
        "mq auth login checks the token on a repository; --no-check stores it without checking\n",
    );
    expect((ctx.io.stdin as PassThrough).readableLength).toBe(TOKEN.length);
  });

  it("parses its flags", async () => {
    const seen: AuthLoginOptions[] = [];
    for (const args of [["--with-token"], ["--no-check"], ["--check"]]) {
      await NewCmdAuthLogin(testContext(), async (o) => void seen.push(o)).parseAsync(args, { from: "user" });
    }
    expect(seen).toEqual([
      { withToken: true, check: true },
      { withToken: false, check: false },
      { withToken: false, check: true },
    ]);
  });
});

describe("mq auth status", () => {
  it("shows the masked token and where it comes from, for each source", async () => {
    const ctx = testContext({ env: { MQ_TOKEN: TOKEN } });
    expect(await main(["auth", "status"], ctx)).toBe(0);
    expect(ctx.stdoutText()).toBe("API URL: https://api.mergify.com (default)\nToken:   mqk_****abcd (from $MQ_TOKEN)\n");

    const flag = testContext({ env: { MERGIFY_TOKEN: "mqk_zzzzzzzzzzzz9999" } });
    expect(await main(["auth", "status", "--token", TOKEN, "--api-url", "https://x.example.com"], flag)).toBe(0);
    expect(flag.stdoutText()).toBe(
      "API URL: https://x.example.com (from the --api-url flag)\nToken:   mqk_****abcd (from the --token flag)\n",
    );

    const fromFile = testContext({ stdin: TOKEN });
    await main(["auth", "login", "--with-token", "--no-check"], fromFile);
    const again = testContext({ env: { MQ_CONFIG_DIR: fromFile.configDir() } });
    expect(await main(["auth", "status"], again)).toBe(0);
    expect(again.stdoutText()).toBe(
      `API URL: https://api.mergify.com (default)\nToken:   mqk_****abcd (from ${join(fromFile.configDir(), "config.json")})\n`,
    );
    for (const c of [ctx, flag, again]) expect(c.stdoutText() + c.stderrText()).not.toContain(TOKEN);
  });

  it("exits 4 when there is no token", async () => {
    const ctx = testContext();
    expect(await main(["auth", "status"], ctx)).toBe(4);
    expect(ctx.stdoutText()).toBe("");
    expect(ctx.stderrText()).toBe("mq: not logged in to https://api.mergify.com\nrun mq auth login, set MQ_TOKEN, or use --offline\n");
  });

  it("with --debug still never shows the token", async () => {
    const ctx = testContext({ env: { MQ_TOKEN: TOKEN } });
    expect(await main(["auth", "status", "--debug"], ctx)).toBe(0);
    expect(ctx.stdoutText() + ctx.stderrText()).not.toContain(TOKEN);
  });
});

describe("mq auth logout and token", () => {
  it("token prints the raw token; logout removes it; then token exits 4", async () => {
    const login = testContext({ stdin: TOKEN });
    await main(["auth", "login", "--with-token", "--no-check"], login);
    const env = { MQ_CONFIG_DIR: login.configDir() };

    const tok = testContext({ env });
    expect(await main(["auth", "token"], tok)).toBe(0);
    expect(tok.stdoutText()).toBe(`${TOKEN}\n`);

    const out = testContext({ env });
    expect(await main(["auth", "logout"], out)).toBe(0);
    expect(out.stderrText()).toBe(
      `Logged out of https://api.mergify.com: the token was removed from ${join(login.configDir(), "config.json")}\n`,
    );
    expect(stored(out)).toEqual({});

    const twice = testContext({ env });
    expect(await main(["auth", "logout"], twice)).toBe(0);
    expect(twice.stderrText()).toBe("No token was stored for https://api.mergify.com\n");

    const none = testContext({ env });
    expect(await main(["auth", "token"], none)).toBe(4);
    expect(none.stdoutText()).toBe("");
  });
});
