import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync, lstatSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openConfigAt } from "../../src/config/store.js";
import { withLock } from "../../src/config/lock.js";
import { ConfigError } from "../../src/errors.js";
import { main } from "../../src/main.js";
import { testContext } from "../helpers/context.js";
import { tempDir } from "../helpers/tmp.js";

const fresh = () => join(tempDir("mq-store-"), "nested", "mq");
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

  it("a timeout in the file beyond what Node's timers hold (2^31-1 ms) is a ConfigError", () => {
    const dir = fresh();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "config.json"), JSON.stringify({ timeout: 3_000_000 }));
    expect(() => openConfigAt(dir)).toThrow(
      "has a bad value for 'timeout': '3000000' is more than 2147483 seconds (about 24 days), the longest timeout mq can keep",
    );
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

describe("files that are JSON but not an object", () => {
  for (const [text, found] of [
    ["[1,2]\n", "an array"],
    ['"x"\n', "a string"],
    ["null\n", "null"],
    ["42", "a number"],
  ] as const) {
    it(`${JSON.stringify(text.trim())}: exit 7 with a hint, on reads and writes, and the file is left as it is`, async () => {
      for (const argv of [
        ["config", "get", "repo"],
        ["config", "set", "repo", "acme/web"],
        ["auth", "logout"],
      ]) {
        const ctx = testContext();
        const path = join(ctx.configDir(), "config.json");
        writeFileSync(path, text, { mode: 0o600 });
        expect(await main(argv, ctx)).toBe(7);
        expect(ctx.stderrText()).toBe(
          `mq: the config file ${path} must hold a JSON object ({"repo": "owner/name", ...}), not ${found}\n` +
            "fix or remove it by hand; mq does not overwrite it; an empty object {} is a valid empty config\n",
        );
        expect(readFileSync(path, "utf8")).toBe(text);
      }
    });
  }

  it("mq auth login does not rewrite it either", async () => {
    const ctx = testContext({ stdin: "mqk_abcdefghijkl\n" });
    const path = join(ctx.configDir(), "config.json");
    writeFileSync(path, "[1,2]", { mode: 0o600 });
    expect(await main(["auth", "login", "--with-token", "--no-check"], ctx)).toBe(7);
    expect(readFileSync(path, "utf8")).toBe("[1,2]");
  });
});

describe("the file as editors leave it", () => {
  it("a byte-order mark is accepted, and dropped on the next write", () => {
    const dir = fresh();
    mkdirSync(dir, { recursive: true });
    const path = join(dir, "config.json");
    writeFileSync(path, '\ufeff{"repo": "acme/web"}\n');
    const store = openConfigAt(dir);
    expect(store.get("repo")).toBe("acme/web");
    store.set("output", "csv");
    expect(readFileSync(path, "utf8")).toBe('{\n  "repo": "acme/web",\n  "output": "csv"\n}\n');
  });

  it("an empty file is an empty config", () => {
    const dir = fresh();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "config.json"), "");
    expect(openConfigAt(dir).list()).toEqual({});
  });

  it("a symbolic link is kept: the file it points to is replaced", () => {
    const dir = fresh();
    mkdirSync(dir, { recursive: true });
    const real = join(dir, "..", "dotfiles-config.json");
    writeFileSync(real, "{}\n");
    symlinkSync(real, join(dir, "config.json"));
    openConfigAt(dir).set("repo", "acme/web");
    expect(lstatSync(join(dir, "config.json")).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(real, "utf8"))).toEqual({ repo: "acme/web" });
  });

  it("never changes an existing folder's mode: a shared 1777 folder keeps its sticky bit, through a symbolic link too (tightened it before)", () => {
    const shared = fresh();
    mkdirSync(shared, { recursive: true });
    chmodSync(shared, 0o1777);
    const link = join(tempDir("mq-store-link-"), "mq");
    symlinkSync(shared, link);
    const warnings: string[] = [];
    openConfigAt(link, { warn: (m) => warnings.push(m) }).get("repo");
    openConfigAt(shared, { warn: (m) => warnings.push(m) }).set("repo", "acme/web");
    expect(statSync(shared).mode & 0o7777).toBe(0o1777);
    chmodSync(shared, 0o755);
    openConfigAt(shared).get("repo");
    expect(mode(shared)).toBe(0o755);
    // no token: nothing to warn about
    expect(warnings).toEqual([]);
  });

  it("warns once when the folder holding a token is group- or world-writable, and stores the token 0600", () => {
    const dir = fresh();
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o777);
    const warnings: string[] = [];
    const store = openConfigAt(dir, { warn: (m) => warnings.push(m) });
    store.setToken("https://api.mergify.com", "mqk_abcdefghijkl");
    expect(store.getToken("https://api.mergify.com")).toBe("mqk_abcdefghijkl");
    expect(warnings).toEqual([
      `mq: warning: the folder holding your token, ${dir}, is writable by its group and everyone; make it private (chmod 700) or set MQ_CONFIG_DIR to a private folder`,
    ]);
    expect(mode(store.path)).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["config.json"]);
    chmodSync(dir, 0o720);
    const again: string[] = [];
    openConfigAt(dir, { warn: (m) => again.push(m) }).getToken("https://api.mergify.com");
    expect(again).toEqual([
      `mq: warning: the folder holding your token, ${dir}, is writable by its group; make it private (chmod 700) or set MQ_CONFIG_DIR to a private folder`,
    ]);
    chmodSync(dir, 0o700);
    const none: string[] = [];
    openConfigAt(dir, { warn: (m) => none.push(m) }).getToken("https://api.mergify.com");
    expect(none).toEqual([]);
  });

  it("a write re-reads the file: what another process wrote since the open is kept", () => {
    const dir = fresh();
    const mine = openConfigAt(dir);
    const theirs = openConfigAt(dir);
    theirs.setToken("https://a.example", "mqk_aaaaaaaaaaaa");
    mine.setToken("https://b.example", "mqk_bbbbbbbbbbbb");
    expect(JSON.parse(readFileSync(mine.path, "utf8")).tokens).toEqual({
      "https://a.example": "mqk_aaaaaaaaaaaa",
      "https://b.example": "mqk_bbbbbbbbbbbb",
    });
    expect(readdirSync(dir)).toEqual(["config.json"]);
  });
});

describe("the lock", () => {
  const lockDir = () => tempDir("mq-lock-");

  it("a lock left by a process that is gone is taken over", () => {
    const lock = join(lockDir(), "config.json.lock");
    writeFileSync(lock, JSON.stringify({ pid: 4_000_000, host: hostname(), nonce: "dead" }));
    expect(withLock(lock, () => "ran", { isAlive: () => false, waitMs: 1000 })).toBe("ran");
    expect(() => statSync(lock)).toThrow();
  });

  it("a lock older than the stale bound is taken over, whoever holds it", () => {
    const lock = join(lockDir(), "config.json.lock");
    writeFileSync(lock, JSON.stringify({ pid: 1, host: "elsewhere", nonce: "old" }));
    const past = new Date(Date.now() - 60_000);
    utimesSync(lock, past, past);
    expect(withLock(lock, () => "ran", { waitMs: 1000 })).toBe("ran");
  });

  it("a live lock is waited for, then a ConfigError naming the owner and the lock file", () => {
    const lock = join(lockDir(), "config.json.lock");
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), nonce: "live" }));
    let ran = false;
    let err: unknown;
    try {
      withLock(lock, () => (ran = true), { waitMs: 50 });
    } catch (e) {
      err = e;
    }
    expect(ran).toBe(false);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).message).toBe(`the config file is locked by process ${process.pid} on ${hostname()} (${lock})`);
    expect((err as ConfigError).hint).toBe(`if no mq is running, remove ${lock} and try again`);
    // the other owner's lock is left alone
    expect(JSON.parse(readFileSync(lock, "utf8")).nonce).toBe("live");
  });

  it("the lock file is removed after the write, also when the write throws", () => {
    const dir = lockDir();
    const lock = join(dir, "config.json.lock");
    expect(() =>
      withLock(lock, () => {
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(readdirSync(dir)).toEqual([]);
  });
});
