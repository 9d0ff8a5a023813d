// Where each setting in effect comes from. Every resolver walks its sources in a fixed order
// (command line, environment, git, config file, default), checks the value it finds, and reports
// the source so errors and `mq auth status` can say where a value came from.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve as resolvePath } from "node:path";
import { ConfigError, SHORT_SECRET, UsageError } from "../errors.js";
import type { GlobalOptions } from "../globals.js";
import { checkRepoArgument, repoPathFromRemote } from "../validators.js";
import { stripUserinfo } from "../api/urls.js";
import { checkApiUrl, checkTimeout, DEFAULT_API_URL } from "./keys.js";
import type { ConfigStore } from "./store.js";

/**
 * What resolution reads: the command line, the environment, the working folder and the config
 * file (the Context is one). Taking this rather than the Context keeps config/ below the factory.
 */
export interface ConfigSources {
  globals: GlobalOptions;
  env: Record<string, string | undefined>;
  cwd: string;
  io: { stderr: NodeJS.WritableStream; messageWidth(): number | undefined };
  /** values never to print; each token found is added before anyone can print it */
  secrets: Set<string>;
  config(): Promise<ConfigStore>;
}

/** The request timeout when neither --timeout nor the config file sets one. */
export const DEFAULT_TIMEOUT_SECONDS = 30;

export interface RepoRef {
  owner: string;
  name: string;
  /** where it came from: "--repo", "MQ_REPO", "GITHUB_REPOSITORY", "git remote origin", "config" */
  source: string;
}

export interface ApiUrlChoice {
  /** base URL without /v1 and without a trailing slash; tokens are stored under this key */
  url: string;
  /** "--api-url", "MQ_API_URL", "config", "default" */
  source: string;
}

export interface TokenChoice {
  token: string;
  /** "--token", "MQ_TOKEN", "MERGIFY_TOKEN", "config" */
  source: string;
}

/** V trimmed, or undefined when it is unset or blank */
export const nonEmpty = (v: string | undefined): string | undefined => (v !== undefined && v.trim() !== "" ? v.trim() : undefined);

export async function resolveApiUrl(ctx: ConfigSources): Promise<ApiUrlChoice> {
  const candidates: Array<[string, string | undefined]> = [
    ["--api-url", nonEmpty(ctx.globals.apiUrl)],
    ["MQ_API_URL", nonEmpty(ctx.env.MQ_API_URL)],
  ];
  for (const [source, raw] of candidates) {
    if (raw === undefined) continue;
    const checked = checkApiUrl(raw);
    if (!checked.ok) throw new UsageError(`${source}: ${checked.message}`);
    return { url: checked.value, source };
  }
  const fromConfig = (await ctx.config()).get("api-url");
  if (fromConfig !== undefined) return { url: fromConfig, source: "config" };
  return { url: DEFAULT_API_URL, source: "default" };
}

// printable ASCII without spaces: anything else would corrupt the Authorization header
const TOKEN_RE = /^[\x21-\x7e]+$/;

export function checkToken(token: string, source: string): string {
  if (!TOKEN_RE.test(token)) {
    // never echo the value: it is (almost) a secret even when malformed
    throw new UsageError(`the token from ${source} contains spaces or control characters`);
  }
  return token;
}

/** The token for API_URL, registered in ctx.secrets before anyone can print it. */
export async function resolveToken(ctx: ConfigSources, apiUrl: string): Promise<TokenChoice | undefined> {
  const candidates: Array<[string, string | undefined]> = [
    ["--token", nonEmpty(ctx.globals.token)],
    ["MQ_TOKEN", nonEmpty(ctx.env.MQ_TOKEN)],
    ["MERGIFY_TOKEN", nonEmpty(ctx.env.MERGIFY_TOKEN)],
  ];
  for (const [source, token] of candidates) {
    if (token === undefined) continue;
    ctx.secrets.add(token);
    return { token: checkToken(token, source), source };
  }
  const stored = (await ctx.config()).getToken(apiUrl);
  if (stored === undefined) return undefined;
  ctx.secrets.add(stored);
  return { token: checkToken(stored, "config"), source: "config" };
}

/** `mqk_****abcd`: the prefix that names the kind of token and the last four characters. */
export function maskToken(token: string): string {
  // a short token would be mostly shown by its prefix: nothing of it
  if (token.length < SHORT_SECRET) return "****";
  const prefix = /^[a-z]{2,4}_/i.exec(token)?.[0] ?? "";
  const tail = token.length >= 12 ? token.slice(-4) : "";
  return `${prefix}****${tail}`;
}

export async function resolveRepo(ctx: ConfigSources): Promise<RepoRef> {
  const fromValue = (raw: string, source: string): RepoRef => {
    if (source === "--repo" && /[,@]/.test(raw)) {
      throw new UsageError(
        `--repo "${raw}": this command reads one repository; several (a list or @FILE) are for mq stats, mq insights, mq prs and mq logs.`,
      );
    }
    const checked = checkRepoArgument(raw.trim());
    // one line: the message already says what a repository looks like (the hint is for "none given")
    if (!checked.ok) throw new UsageError(`bad repository from ${source}: ${checked.message}`);
    return { ...checked.value, source };
  };
  const candidates: Array<[string, string | undefined]> = [
    ["--repo", nonEmpty(ctx.globals.repo)],
    ["MQ_REPO", nonEmpty(ctx.env.MQ_REPO)],
    ["GITHUB_REPOSITORY", nonEmpty(ctx.env.GITHUB_REPOSITORY)],
  ];
  for (const [source, raw] of candidates) {
    if (raw !== undefined) return fromValue(raw, source);
  }
  const remote = originRemoteUrl(ctx.cwd);
  if (remote !== undefined) {
    const path = repoPathFromRemote(remote);
    if (path !== undefined) return fromValue(path, `git remote origin (${stripUserinfo(remote)})`);
  }
  const fromConfig = (await ctx.config()).get("repo");
  if (fromConfig !== undefined) return fromValue(fromConfig, "config");
  // The bundled server simulates any repository, so a first `mq --offline logs` in any folder
  // shows data instead of an error; stderr says which repository that is.
  if (ctx.globals.offline) {
    const { wrapLine } = await import("../iostreams/terminal-width.js");
    const note = `mq: no repository given; showing the offline demo repository ${OFFLINE_DEMO_REPO.owner}/${OFFLINE_DEMO_REPO.name} (choose one with --repo)`;
    ctx.io.stderr.write(wrapLine(note, ctx.io.messageWidth()) + "\n");
    return { ...OFFLINE_DEMO_REPO, source: "offline demo" };
  }
  throw new UsageError("no repository given", REPO_HINT);
}

export const OFFLINE_DEMO_REPO = { owner: "acme", name: "web" } as const;

const REPO_HINT = "set it with --repo owner/name, the MQ_REPO environment variable, or mq config set repo owner/name";

/** The url of [remote "origin"] in the git repository holding DIR, read without spawning git. */
export function originRemoteUrl(dir: string): string | undefined {
  const configPath = findGitConfig(dir);
  if (configPath === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(configPath, "utf8");
  } catch {
    return undefined;
  }
  return parseGitConfigRemote(text, "origin");
}

function findGitConfig(start: string): string | undefined {
  for (let dir = resolvePath(start); ; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    try {
      const st = statSync(dotGit);
      if (st.isDirectory()) return join(dotGit, "config");
      if (st.isFile()) {
        // a worktree or submodule: ".git" is a file "gitdir: <path>"
        const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, "utf8"));
        if (!m) return undefined;
        const gitDir = resolvePath(dir, m[1]!);
        const commonFile = join(gitDir, "commondir");
        if (existsSync(commonFile)) return join(resolvePath(gitDir, readFileSync(commonFile, "utf8").trim()), "config");
        return join(gitDir, "config");
      }
    } catch {
      // no .git here: keep walking up
    }
    if (dirname(dir) === dir) return undefined;
  }
}

export function parseGitConfigRemote(text: string, remote: string): string | undefined {
  let inSection = false;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const section = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (section) {
      inSection = section[1]!.toLowerCase() === "remote" && section[2] === remote;
      continue;
    }
    if (!inSection) continue;
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line);
    if (kv && kv[1]!.toLowerCase() === "url") {
      let value = kv[2]!;
      if (value.startsWith('"')) value = value.slice(1, value.indexOf('"', 1) > 0 ? value.indexOf('"', 1) : undefined);
      else value = value.replace(/\s[;#].*$/, "");
      return value.trim();
    }
  }
  return undefined;
}

/**
 * The request timeout in seconds: --timeout, else the config file, else the default. A bad value
 * in the config file is a ConfigError naming it. Resolved here only: the data commands store the
 * result in ctx.globals before running, and the API client factory asks for it.
 */
export async function resolveTimeoutSeconds(ctx: ConfigSources): Promise<number> {
  if (ctx.globals.timeout !== undefined) return ctx.globals.timeout;
  const t = (await ctx.config()).get("timeout");
  if (t === undefined) return DEFAULT_TIMEOUT_SECONDS;
  const checked = checkTimeout(t);
  if (!checked.ok) throw new ConfigError(`bad timeout in the config file: ${checked.message}`);
  return checked.value;
}

/**
 * Fill ctx.globals.output, color and timeout from the config file when the command line did not
 * set them. The data commands call this (after the globals are parsed) before rendering.
 */
export async function applyConfigDefaults(ctx: ConfigSources): Promise<void> {
  const g = ctx.globals;
  if (g.output !== undefined && g.color !== undefined && g.timeout !== undefined) return;
  const config = await ctx.config();
  if (g.output === undefined) g.output = config.get("output") as typeof g.output;
  if (g.color === undefined) g.color = config.get("color") as typeof g.color;
  if (g.timeout === undefined && config.get("timeout") !== undefined) g.timeout = await resolveTimeoutSeconds(ctx);
}
