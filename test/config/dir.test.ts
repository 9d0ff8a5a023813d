// Where local state lives when HOME, XDG_CONFIG_HOME or MQ_CONFIG_DIR are missing or relative.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { configDirFrom, homeDir } from "../../src/config/dir.js";
import { main } from "../../src/main.js";
import { testContext } from "../helpers/context.js";
import { tempDir } from "../helpers/tmp.js";

// the account's home as the system names it: a temp folder here, so no test touches the real one
// (src/config/dir.ts asks node:os for it when it needs it, through process.getBuiltinModule)
const system = { home: "" as string | undefined };
const os = process.getBuiltinModule("node:os");
const realUserInfo = os.userInfo;

describe("the config folder", () => {
  let home: string;
  beforeAll(() => {
    vi.spyOn(os, "userInfo").mockImplementation(() => {
      if (system.home === undefined) throw Object.assign(new Error("ENOENT: no such user"), { code: "ENOENT" });
      return { ...realUserInfo(), homedir: system.home };
    });
  });
  afterAll(() => {
    vi.mocked(os.userInfo).mockRestore();
  });
  beforeEach(() => {
    home = tempDir("mq-home-");
    system.home = home;
  });

  it("without HOME, is the account's home folder's, never one under the working folder (was ./.config/mq)", () => {
    const warnings: string[] = [];
    expect(configDirFrom({}, (m) => warnings.push(m))).toBe(join(home, ".config", "mq"));
    expect(warnings).toEqual([]);
  });

  it("a relative HOME or XDG_CONFIG_HOME is ignored with a warning (the XDG spec calls it invalid)", () => {
    const warnings: string[] = [];
    expect(configDirFrom({ HOME: "somewhere", XDG_CONFIG_HOME: "cfg" }, (m) => warnings.push(m))).toBe(join(home, ".config", "mq"));
    expect(warnings).toEqual([
      "mq: warning: XDG_CONFIG_HOME is a relative path ('cfg'); ignored as the XDG spec says",
      "mq: warning: HOME is a relative path ('somewhere'); ignored, using the account's home folder",
    ]);
    expect(configDirFrom({ HOME: "/h", XDG_CONFIG_HOME: "/x" }, () => {})).toBe("/x/mq");
    expect(configDirFrom({ HOME: "/h" }, () => {})).toBe("/h/.config/mq");
  });

  it("a relative MQ_CONFIG_DIR is refused with exit 2", () => {
    expect(() => configDirFrom({ MQ_CONFIG_DIR: "rel/dir" }, () => {})).toThrow("MQ_CONFIG_DIR must be an absolute path, not 'rel/dir'");
  });

  it("no HOME and no home in the system's user database: exit 7 saying so", async () => {
    system.home = undefined;
    expect(() => homeDir({}, () => {})).toThrow("no home folder: HOME is not set and the system names none for this user");
    const cwd = tempDir("mq-cwd-");
    const ctx = testContext({ env: { MQ_CONFIG_DIR: undefined, HOME: undefined }, cwd, stdin: "mqk_abcdefghijkl\n" });
    expect(await main(["auth", "login", "--with-token", "--no-check"], ctx)).toBe(7);
    expect(ctx.stderrText()).toBe(
      "mq: no home folder: HOME is not set and the system names none for this user\n" +
        "set HOME to your home folder, or MQ_CONFIG_DIR to the folder of mq's config.json\n",
    );
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("mq auth login without HOME writes the token under the account's home, 0600, nothing in the working folder", async () => {
    const cwd = tempDir("mq-cwd-");
    const ctx = testContext({ env: { MQ_CONFIG_DIR: undefined, HOME: undefined }, cwd, stdin: "mqk_abcdefghijkl\n" });
    expect(await main(["auth", "login", "--with-token", "--no-check"], ctx)).toBe(0);
    const file = join(home, ".config", "mq", "config.json");
    expect(JSON.parse(readFileSync(file, "utf8")).tokens).toEqual({ "https://api.mergify.com": "mqk_abcdefghijkl" });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(home, ".config", "mq"))).toEqual(["config.json"]);
    expect(existsSync(join(cwd, ".config"))).toBe(false);
  });
});
