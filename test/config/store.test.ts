import { mkdirSync, readFileSync, statSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openConfigAt } from "../../src/config/store.js";
import { ConfigError } from "../../src/errors.js";
import { main } from "../../src/main.js";
import { testContext } from "../helpers/context.js";

const fresh = () => join(mkdtempSync(join(tmpdir(), "mq-store-")), "nested", "mq");
const mode = (p: string) => statSync(p).mode & 0o777;

describe("config store", () => {
  it("creates the folder 0700 and the file 0600", () => {
    const dir = fresh();
    const store = openConfigAt(dir);
    expect(mode(dir)).toBe(0o700);
    store.set("repo", "acme/web");
    expect(store.path).toBe(join(dir, "config.json"));
    expect(mode(store.path)).toBe(0o600);
    store.setToken("https://api.mergify.com", "mqk_abc");
    expect(mode(store.path)).toBe(0o600);
  });

  it("tightens a hand-made file to 0600 on the next write", () => {
    const dir = fresh();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "config.json"), "{}\n", { mode: 0o644 });
    const store = openConfigAt(dir);
    store.setToken("https://api.mergify.com", "mqk_abc");
    expect(mode(store.path)).toBe(0o600);
  });

  it("keeps tokens per API URL (keys with dots), and list() never shows them", () => {
    const store = openConfigAt(fresh());
    store.setToken("https://api.mergify.com", "mqk_one");
    store.setToken("http://127.0.0.1:8080", "mqk_two");
    store.set("timeout", "12.5");
    expect(store.getToken("https://api.mergify.com")).toBe("mqk_one");
    expect(store.getToken("http://127.0.0.1:8080")).toBe("mqk_two");
    expect(store.getToken("https://other")).toBeUndefined();
    expect(store.list()).toEqual({ timeout: "12.5" });
    expect(JSON.parse(readFileSync(store.path, "utf8"))).toEqual({
      timeout: 12.5,
      tokens: { "https://api.mergify.com": "mqk_one", "http://127.0.0.1:8080": "mqk_two" },
    });
    expect(store.deleteToken("https://api.mergify.com")).toBe(true);
    expect(store.deleteToken("https://api.mergify.com")).toBe(false);
    store.unset("timeout");
    expect(JSON.parse(readFileSync(store.path, "utf8"))).toEqual({ tokens: { "http://127.0.0.1:8080": "mqk_two" } });
  });

  it("does not create the file just by reading", () => {
    const store = openConfigAt(fresh());
    expect(store.get("repo")).toBeUndefined();
    expect(() => statSync(store.path)).toThrow();
  });

  it("a corrupt file is a ConfigError naming it, and it is left unchanged", () => {
    const dir = fresh();
    mkdirSync(dir, { recursive: true });
    const path = join(dir, "config.json");
    writeFileSync(path, '{"repo": "acme/web",', { mode: 0o600 });
    const err = (() => {
      try {
        openConfigAt(dir);
      } catch (e) {
        return e;
      }
    })() as ConfigError;
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.exitCode).toBe(7);
    expect(err.message).toMatch(new RegExp(`^the config file ${path.replace(/[.]/g, "\\.")} is not valid JSON \\(`));
    expect(readFileSync(path, "utf8")).toBe('{"repo": "acme/web",');
  });

  it("a bad value in the file is a ConfigError naming the key", () => {
    const dir = fresh();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "config.json"), JSON.stringify({ output: "xml" }));
    expect(() => openConfigAt(dir)).toThrow(/has a bad value for 'output': 'xml' is not allowed; allowed values: table, json, ndjson, csv/);
    // the hint must be one the user can follow: mq config set would fail on the same file
    let hint: string | undefined;
    try {
      openConfigAt(dir);
    } catch (err) {
      hint = (err as ConfigError).hint;
    }
    expect(hint).toBe("edit the file to fix or remove 'output' (mq will not rewrite a file it cannot read)");
  });
});

describe("corrupt config through the CLI", () => {
  it("exits 7 naming the file, and does not overwrite it, even on mq config set", async () => {
    const ctx = testContext();
    const path = join(ctx.configDir(), "config.json");
    writeFileSync(path, "not json", { mode: 0o600 });
    expect(await main(["config", "set", "repo", "acme/web"], ctx)).toBe(7);
    expect(ctx.stderrText()).toMatch(new RegExp(`^mq: the config file ${path.replace(/[.]/g, "\\.")} is not valid JSON`));
    expect(ctx.stderrText()).toContain("fix or remove it by hand; mq does not overwrite it\n");
    expect(readFileSync(path, "utf8")).toBe("not json");
  });
});
