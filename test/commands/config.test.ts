import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/main.js";
import { NewCmdConfig, type ConfigOptions } from "../../src/commands/config/index.js";
import { testContext } from "../helpers/context.js";

async function mq(args: string[], env: Record<string, string> = {}) {
  const ctx = testContext({ env });
  const code = await main(args, ctx);
  return { code, out: ctx.stdoutText(), err: ctx.stderrText(), ctx };
}

describe("mq config", () => {
  it("set, get, list and unset each key", async () => {
    const first = await mq(["config", "set", "repo", "acme/web"]);
    expect(first.code).toBe(0);
    const env = { MQ_CONFIG_DIR: first.ctx.configDir() };
    for (const [k, v, shown] of [
      ["api-url", "https://api.example.com/v1/", "https://api.example.com"],
      ["output", "csv", "csv"],
      ["color", "never", "never"],
      ["timeout", "12.5", "12.5"],
    ] as const) {
      expect((await mq(["config", "set", k, v], env)).code).toBe(0);
      expect(await mq(["config", "get", k], env)).toMatchObject({ code: 0, out: `${shown}\n`, err: "" });
    }
    expect((await mq(["config", "list"], env)).out).toBe(
      "api-url=https://api.example.com\nrepo=acme/web\noutput=csv\ncolor=never\ntimeout=12.5\n",
    );
    expect(JSON.parse((await mq(["config", "list", "-o", "json"], env)).out)).toEqual({
      "api-url": "https://api.example.com",
      repo: "acme/web",
      output: "csv",
      color: "never",
      timeout: "12.5",
    });
    expect((await mq(["config", "unset", "color"], env)).code).toBe(0);
    expect(await mq(["config", "get", "color"], env)).toMatchObject({ code: 0, out: "" });
  });

  it("list never shows a stored token", async () => {
    const login = testContext({ stdin: "mqk_secret_value_1234" });
    await main(["auth", "login", "--with-token", "--no-check"], login);
    const env = { MQ_CONFIG_DIR: login.configDir() };
    await mq(["config", "set", "repo", "acme/web"], env);
    const list = await mq(["config", "list"], env);
    expect(list.out).toBe("repo=acme/web\n");
    const json = await mq(["config", "list", "-o", "json"], env);
    expect(json.out).not.toContain("mqk_secret_value_1234");
  });

  it("rejects bad values with exit 2 and the allowed values, writing nothing", async () => {
    const cases: Array<[string, string, string]> = [
      ["output", "xml", "mq: bad value for output: 'xml' is not allowed; allowed values: table, json, ndjson, csv\n"],
      ["color", "blue", "mq: bad value for color: 'blue' is not allowed; allowed values: auto, always, never\n"],
      ["timeout", "-3", "mq: bad value for timeout: '-3' is not a positive number of seconds\n"],
      ["repo", "nope", "mq: bad value for repo: 'nope' is not of the form owner/name\n"],
    ];
    for (const [key, value, err] of cases) {
      const r = await mq(["config", "set", key, value]);
      expect(r.code).toBe(2);
      expect(r.err).toBe(err);
    }
    const url = await mq(["config", "set", "api-url", "https://u:p@x.example.com"]);
    expect(url.code).toBe(2);
    expect(url.err).not.toContain("u:p");
  });

  it("rejects unknown keys and refuses tokens without echoing them", async () => {
    expect((await mq(["config", "get", "colour"])).err).toBe(
      "mq: unknown config key 'colour': allowed keys are api-url, repo, output, color, timeout, dialect\n",
    );
    const t = await mq(["config", "set", "token", "mqk_do_not_echo"]);
    expect(t.code).toBe(2);
    expect(t.err).toBe("mq: tokens are not config keys\nuse mq auth login --with-token to store one, mq auth token to print it\n");
  });

  it("a corrupt file exits 7 and is left unchanged by list", async () => {
    const ctx = testContext();
    const path = join(ctx.configDir(), "config.json");
    writeFileSync(path, "{oops");
    expect(await main(["config", "list"], ctx)).toBe(7);
    expect(readFileSync(path, "utf8")).toBe("{oops");
  });

  it("parses subcommands into options", async () => {
    const seen: ConfigOptions[] = [];
    const cmd = NewCmdConfig(testContext(), async (o) => void seen.push(o));
    await cmd.parseAsync(["set", "repo", "a/b"], { from: "user" });
    await cmd.parseAsync(["get", "repo"], { from: "user" });
    await cmd.parseAsync(["list"], { from: "user" });
    expect(seen).toEqual([{ action: "set", key: "repo", value: "a/b" }, { action: "get", key: "repo" }, { action: "list" }]);
  });
});
