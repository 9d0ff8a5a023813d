import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  applyConfigDefaults,
  maskToken,
  parseGitConfigRemote,
  resolveApiUrl,
  resolveRepo,
  resolveToken,
} from "../../src/config/resolve.js";
import { ConfigError, UsageError } from "../../src/errors.js";
import { repoPathFromRemote } from "../../src/validators.js";
import { testContext } from "../helpers/context.js";
import { tempDir } from "../helpers/tmp.js";

function gitRepo(remoteUrl: string | undefined): string {
  const root = tempDir("mq-git-");
  mkdirSync(join(root, ".git"));
  const remote = remoteUrl === undefined ? "" : `[remote "origin"]\n\turl = ${remoteUrl}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`;
  writeFileSync(
    join(root, ".git", "config"),
    `[core]\n\tbare = false\n[remote "upstream"]\n\turl = https://github.com/up/stream.git\n${remote}`,
  );
  return root;
}

describe("API URL precedence", () => {
  it("--api-url, then MQ_API_URL, then config, then the default", async () => {
    const ctx = testContext({ env: { MQ_API_URL: "https://env.example.com/" } });
    (await ctx.config()).set("api-url", "https://config.example.com");
    ctx.globals.apiUrl = "https://flag.example.com/v1/";
    expect(await resolveApiUrl(ctx)).toEqual({ url: "https://flag.example.com", source: "--api-url" });
    ctx.globals.apiUrl = undefined;
    expect(await resolveApiUrl(ctx)).toEqual({ url: "https://env.example.com", source: "MQ_API_URL" });
    delete ctx.env.MQ_API_URL;
    expect(await resolveApiUrl(ctx)).toEqual({ url: "https://config.example.com", source: "config" });
    (await ctx.config()).unset("api-url");
    expect(await resolveApiUrl(ctx)).toEqual({ url: "https://api.mergify.com", source: "default" });
  });

  it("rejects a token in the URL, naming the source and not the value", async () => {
    const ctx = testContext({ env: { MQ_API_URL: "https://api.example.com/?access_token=sekrit" } });
    const err = await resolveApiUrl(ctx).catch((e) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toBe("MQ_API_URL: the URL must not contain a query or a fragment: pass the token with MQ_TOKEN or mq auth login");
  });
});

describe("token precedence", () => {
  it("--token, then MQ_TOKEN, then MERGIFY_TOKEN, then the stored token for the API URL", async () => {
    const ctx = testContext({ env: { MQ_TOKEN: "mqk_env_token", MERGIFY_TOKEN: "mgf_token" } });
    const config = await ctx.config();
    config.setToken("https://api.mergify.com", "mqk_stored");
    config.setToken("https://other.example.com", "mqk_other");
    ctx.globals.token = "mqk_flag";
    expect(await resolveToken(ctx, "https://api.mergify.com")).toEqual({ token: "mqk_flag", source: "--token" });
    ctx.globals.token = undefined;
    expect(await resolveToken(ctx, "https://api.mergify.com")).toEqual({ token: "mqk_env_token", source: "MQ_TOKEN" });
    ctx.env.MQ_TOKEN = "";
    expect(await resolveToken(ctx, "https://api.mergify.com")).toEqual({ token: "mgf_token", source: "MERGIFY_TOKEN" });
    delete ctx.env.MERGIFY_TOKEN;
    expect(await resolveToken(ctx, "https://api.mergify.com")).toEqual({ token: "mqk_stored", source: "config" });
    expect(await resolveToken(ctx, "https://none.example.com")).toBeUndefined();
    expect([...ctx.secrets]).toEqual(["mqk_flag", "mqk_env_token", "mgf_token", "mqk_stored"]);
  });

  it("refuses a token with spaces without echoing it", async () => {
    const ctx = testContext({ env: { MQ_TOKEN: "abc def" } });
    const err = await resolveToken(ctx, "https://api.mergify.com").catch((e) => e);
    expect(err.message).toBe("the token from MQ_TOKEN contains spaces or control characters");
  });

  it("masks tokens", () => {
    expect(maskToken("mqk_0123456789abcd")).toBe("mqk_****abcd");
    expect(maskToken("ghp_0123456789wxyz")).toBe("ghp_****wxyz");
    expect(maskToken("0123456789abcdef")).toBe("****cdef");
    expect(maskToken("short")).toBe("****");
    // a short token is not shown even in part: its prefix would be most of it
    expect(maskToken("mqk_ab1")).toBe("****");
  });
});

describe("repository precedence", () => {
  it("--repo, then MQ_REPO, then GITHUB_REPOSITORY, then the git remote, then config", async () => {
    const root = gitRepo("git@github.com:git-owner/git-repo.git");
    const sub = join(root, "deep", "er");
    mkdirSync(sub, { recursive: true });
    const ctx = testContext({ cwd: sub, env: { MQ_REPO: "env/repo", GITHUB_REPOSITORY: "gh/actions" } });
    (await ctx.config()).set("repo", "conf/repo");
    ctx.globals.repo = "flag/repo";
    expect(await resolveRepo(ctx)).toEqual({ owner: "flag", name: "repo", source: "--repo" });
    ctx.globals.repo = undefined;
    expect(await resolveRepo(ctx)).toEqual({ owner: "env", name: "repo", source: "MQ_REPO" });
    delete ctx.env.MQ_REPO;
    expect(await resolveRepo(ctx)).toEqual({ owner: "gh", name: "actions", source: "GITHUB_REPOSITORY" });
    delete ctx.env.GITHUB_REPOSITORY;
    expect(await resolveRepo(ctx)).toEqual({
      owner: "git-owner",
      name: "git-repo",
      source: "git remote origin (git@github.com:git-owner/git-repo.git)",
    });
    ctx.cwd = tempDir("mq-nogit-");
    expect(await resolveRepo(ctx)).toEqual({ owner: "conf", name: "repo", source: "config" });
  });

  it("says how to set it when there is none", async () => {
    const ctx = testContext({ cwd: tempDir("mq-nogit-") });
    const err = await resolveRepo(ctx).catch((e) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toBe("no repository given");
    expect(err.hint).toBe("set it with --repo owner/name, the MQ_REPO environment variable, or mq config set repo owner/name");
  });

  it("falls back to the offline demo repository with --offline, saying so on stderr", async () => {
    const ctx = testContext({ cwd: tempDir("mq-nogit-") });
    ctx.globals.offline = true;
    expect(await resolveRepo(ctx)).toEqual({ owner: "acme", name: "web", source: "offline demo" });
    expect(ctx.stderrText()).toBe("mq: no repository given; showing the offline demo repository acme/web (choose one with --repo)\n");
  });

  it("breaks that note between words on a 60-column terminal (it was 94 columns wide)", async () => {
    const ctx = testContext({ cwd: tempDir("mq-nogit-"), stderrIsTTY: true, columns: 60 });
    ctx.globals.offline = true;
    await resolveRepo(ctx);
    expect(ctx.stderrText()).toBe("mq: no repository given; showing the offline demo repository\nacme/web (choose one with --repo)\n");
  });

  it("names the source of a bad value", async () => {
    const ctx = testContext({ env: { MQ_REPO: "bad_owner/web" } });
    const err = await resolveRepo(ctx).catch((e) => e);
    expect(err.exitCode).toBe(2);
    expect(err.message).toBe("bad repository from MQ_REPO: owner 'bad_owner' must be 1 to 40 letters, digits or hyphens");
    ctx.env.MQ_REPO = "acme/..";
    expect((await resolveRepo(ctx).catch((e) => e)).message).toMatch(/^bad repository from MQ_REPO: repository name '\.\.'/);
    ctx.env.MQ_REPO = "a".repeat(41) + "/x";
    expect((await resolveRepo(ctx).catch((e) => e)).message).toMatch(/must be 1 to 40/);
    ctx.env.MQ_REPO = "acme/web/extra";
    expect((await resolveRepo(ctx).catch((e) => e)).message).toBe(
      "bad repository from MQ_REPO: 'acme/web/extra' is not of the form owner/name",
    );
  });

  it("never prints the credentials of a CI remote URL", async () => {
    const root = gitRepo("https://x-access-token:ghs_SECRET@github.com/acme/we b.git");
    const err = await resolveRepo(testContext({ cwd: root })).catch((e) => e);
    expect(err.message).toBe(
      "bad repository from git remote origin (https://github.com/acme/we b.git): repository name 'we b' must be 1 to 100 letters, digits, '_', '-' or '.'",
    );
    const ok = await resolveRepo(testContext({ cwd: gitRepo("https://x-access-token:ghs_SECRET@github.com/acme/web.git") }));
    expect(ok).toEqual({ owner: "acme", name: "web", source: "git remote origin (https://github.com/acme/web.git)" });
  });

  it("follows a worktree's .git file to the common config", async () => {
    const main = gitRepo("https://github.com/acme/web");
    const wtGitDir = join(main, ".git", "worktrees", "wt");
    mkdirSync(wtGitDir, { recursive: true });
    writeFileSync(join(wtGitDir, "commondir"), "../..\n");
    const wt = tempDir("mq-wt-");
    writeFileSync(join(wt, ".git"), `gitdir: ${wtGitDir}\n`);
    expect(await resolveRepo(testContext({ cwd: wt }))).toMatchObject({ owner: "acme", name: "web" });
  });
});

describe("git remote forms", () => {
  const forms: Array<[string, string | undefined]> = [
    ["https://github.com/acme/web.git", "acme/web"],
    ["https://github.com/acme/web", "acme/web"],
    ["https://github.com/acme/web/", "acme/web"],
    ["http://ghe.example.com:8080/acme/web.git", "acme/web"],
    ["ssh://git@github.com/acme/web.git", "acme/web"],
    ["ssh://git@github.com:2222/acme/my.repo.git", "acme/my.repo"],
    ["git://github.com/acme/web.git", "acme/web"],
    ["git@github.com:acme/web.git", "acme/web"],
    ["github.com:acme/web", "acme/web"],
    ["org-123@ssh.github.com:acme/web_1.git", "acme/web_1"],
    ["/srv/git/web.git", undefined],
    ["../web", undefined],
    ["file:///srv/git/acme/web.git", undefined],
    ["https://github.com/acme", undefined],
  ];
  for (const [url, expected] of forms) {
    it(`${url} -> ${expected}`, () => expect(repoPathFromRemote(url)).toBe(expected));
  }

  it("reads url from the origin section only, quoted or with comments", () => {
    const text =
      '[remote "upstream"]\n\turl = https://github.com/up/x\n[Remote "origin"]\n\tURL = "git@github.com:acme/web.git" ; comment\n';
    expect(parseGitConfigRemote(text, "origin")).toBe("git@github.com:acme/web.git");
    expect(parseGitConfigRemote("[core]\n\tbare = false\n", "origin")).toBeUndefined();
  });
});

describe("applyConfigDefaults", () => {
  it("fills output, color and timeout from config only where the command line said nothing", async () => {
    const ctx = testContext();
    const config = await ctx.config();
    config.set("output", "csv");
    config.set("color", "never");
    config.set("timeout", "5");
    await applyConfigDefaults(ctx);
    expect([ctx.globals.output, ctx.globals.color, ctx.globals.timeout]).toEqual(["csv", "never", 5]);
    const ctx2 = testContext({ env: { MQ_CONFIG_DIR: ctx.configDir() } });
    ctx2.globals = { ...ctx2.globals, output: "json", color: "always", timeout: 9 };
    await applyConfigDefaults(ctx2);
    expect([ctx2.globals.output, ctx2.globals.color, ctx2.globals.timeout]).toEqual(["json", "always", 9]);
  });

  it("leaves output undefined when nothing sets it", async () => {
    const ctx = testContext();
    await applyConfigDefaults(ctx);
    expect(ctx.globals.output).toBeUndefined();
    expect(ctx.globals.color).toBeUndefined();
  });

  it("an explicit --color auto wins over the config file", async () => {
    const ctx = testContext();
    (await ctx.config()).set("color", "always");
    ctx.globals = { ...ctx.globals, color: "auto" };
    await applyConfigDefaults(ctx);
    expect(ctx.globals.color).toBe("auto");
  });

  it("a corrupt config surfaces as ConfigError", async () => {
    const ctx = testContext();
    writeFileSync(join(ctx.configDir(), "config.json"), "[");
    await expect(applyConfigDefaults(ctx)).rejects.toBeInstanceOf(ConfigError);
  });
});
