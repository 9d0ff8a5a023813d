// `mq exporter`: Prometheus metrics of each repository's event log, followed while it runs. The
// constructor parses and checks every flag (nothing is sent, nothing listens, on bad input: one
// line, exit 2); run.ts follows the logs and serves /metrics, /healthz and /readyz.
import { readFileSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import { Command, Option } from "commander";
import type { Context } from "../../context.js";
import { UsageError } from "../../errors.js";
import { isLoopbackHost } from "../../api/urls.js";
import { parseRepoList, type RepoName } from "../../cmdutil/repos.js";
import { parseTimeFlag, TIME_VALUE_HELP } from "../../cmdutil/time.js";
import { describeCommand } from "../../cmdutil/top-commands.js";

export const DEFAULT_LISTEN = "127.0.0.1:9469";
export const DEFAULT_INTERVAL_SECONDS = 30;
export const DEFAULT_SINCE = "1h";

/** Who may scrape: anyone who reaches the address (loopback only), a bearer token, or a user and password. */
export type ScrapeAuth = { kind: "none" } | { kind: "bearer"; token: string } | { kind: "basic"; user: string; password: string };

export interface ExporterOptions {
  repos: RepoName[];
  host: string;
  port: number;
  since: Date;
  /** seconds between polls */
  interval: number;
  stateDir?: string;
  auth: ScrapeAuth;
}

interface RawFlags {
  listen?: string;
  since?: string;
  interval?: string;
  stateDir?: string;
  bearerTokenFile?: string;
  basicAuthFile?: string;
}

/** HOST:PORT, [IPv6]:PORT */
function parseListen(value: string): { host: string; port: number } {
  const m = /^(\[[0-9A-Fa-f:.]+\]|[^\s:[\]]+):(\d{1,5})$/.exec(value);
  const port = m ? Number(m[2]) : NaN;
  if (!m || !(port <= 65535)) {
    throw new UsageError(`--listen must be HOST:PORT (e.g. ${DEFAULT_LISTEN}, [::1]:9469; port 0 picks a free one), not '${value}'.`);
  }
  return { host: m[1]!.replace(/^\[(.*)\]$/, "$1"), port };
}

/** A secret from a file: its one line, trimmed; never echoed. */
function secretFile(flag: string, path: string, cwd: string): string {
  let text: string;
  try {
    text = readFileSync(resolvePath(cwd, path), "utf8");
  } catch (err) {
    throw new UsageError(`${flag}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? String(err)}).`);
  }
  const value = text.trim();
  if (value === "" || /[\r\n]/.test(value)) throw new UsageError(`${flag}: ${path} must hold one non-empty line.`);
  return value;
}

export function parseExporterFlags(flags: RawFlags, ctx: Pick<Context, "globals" | "cwd" | "now">): ExporterOptions {
  if (ctx.globals.repo === undefined || ctx.globals.repo.trim() === "") {
    throw new UsageError("mq exporter needs --repo: owner/name, repeated, comma-separated, or @FILE (one a line).");
  }
  const repos = parseRepoList(ctx.globals.repo, ctx.cwd);
  const { host, port } = parseListen(flags.listen ?? DEFAULT_LISTEN);
  const since = parseTimeFlag("--since", flags.since ?? DEFAULT_SINCE, ctx.now());
  if (since.getTime() > ctx.now().getTime()) throw new UsageError("--since is in the future: give a past date-time or a duration.");
  let interval = DEFAULT_INTERVAL_SECONDS;
  if (flags.interval !== undefined) {
    interval = Number(flags.interval);
    if (flags.interval.trim() === "" || !Number.isFinite(interval) || interval < 1 || interval > 3600) {
      throw new UsageError(`--interval must be a number of seconds from 1 to 3600, not '${flags.interval}'.`);
    }
  }
  if (flags.stateDir !== undefined && flags.stateDir.trim() === "") throw new UsageError("--state-dir must be a folder.");
  if (flags.bearerTokenFile !== undefined && flags.basicAuthFile !== undefined) {
    throw new UsageError("--bearer-token-file and --basic-auth-file cannot be combined: give one.");
  }
  let auth: ScrapeAuth = { kind: "none" };
  if (flags.bearerTokenFile !== undefined) {
    const token = secretFile("--bearer-token-file", flags.bearerTokenFile, ctx.cwd);
    if (/\s/.test(token)) throw new UsageError(`--bearer-token-file: ${flags.bearerTokenFile} must hold a token without whitespace.`);
    auth = { kind: "bearer", token };
  } else if (flags.basicAuthFile !== undefined) {
    const line = secretFile("--basic-auth-file", flags.basicAuthFile, ctx.cwd);
    const colon = line.indexOf(":");
    if (colon < 1 || colon === line.length - 1) {
      throw new UsageError(`--basic-auth-file: ${flags.basicAuthFile} must hold one line USER:PASSWORD.`);
    }
    auth = { kind: "basic", user: line.slice(0, colon), password: line.slice(colon + 1) };
  }
  // what /metrics tells is the merge queue's business: beyond this machine only to scrapers that prove who they are
  if (auth.kind === "none" && !isLoopbackHost(host)) {
    throw new UsageError(
      `--listen ${flags.listen} listens beyond this machine: give --bearer-token-file FILE or --basic-auth-file FILE too, so that only scrapers holding it are answered.`,
    );
  }
  return { repos, host, port, since, interval, stateDir: flags.stateDir, auth };
}

export function NewCmdExporter(ctx: Context, runF: (opts: ExporterOptions) => Promise<void>): Command {
  return new Command("exporter")
    .description(describeCommand("exporter"))
    .addOption(
      new Option(
        "--listen <host:port>",
        `address to serve /metrics, /healthz and /readyz on; port 0 picks a free one (default: ${DEFAULT_LISTEN})`,
      ),
    )
    .addOption(
      new Option(
        "--since <time>",
        `count the events received since then: ${TIME_VALUE_HELP} (default: ${DEFAULT_SINCE}; with --state-dir, only for a repository it has no state of)`,
      ),
    )
    .addOption(
      new Option("--interval <seconds>", `seconds between polls of each repository, 1 to 3600 (default: ${DEFAULT_INTERVAL_SECONDS})`),
    )
    .addOption(new Option("--state-dir <dir>", "keep counters and each repository's position here, and resume from them on start"))
    .addOption(new Option("--bearer-token-file <file>", "answer only scrapers sending `Authorization: Bearer` with the token in this file"))
    .addOption(new Option("--basic-auth-file <file>", "answer only scrapers sending basic auth with the USER:PASSWORD in this file"))
    .addHelpText(
      "after",
      "\nThe first line on stdout is the URL it serves. /metrics answers in the Prometheus text format 0.0.4, or in\n" +
        "OpenMetrics 1.0 when the Accept header asks for it; /readyz answers 503, naming them, until every repository\n" +
        "has caught up. Beyond a loopback address a scraper must authenticate. Ctrl-C or SIGTERM stops it. More: docs/exporter.md",
    )
    .action(async (flags: RawFlags) => {
      const opts = parseExporterFlags(flags, ctx);
      await runF(opts);
    });
}
