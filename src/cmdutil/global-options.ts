// Options every command accepts. They are added to the program and to every leaf command, so
// `mq --repo a/b logs` and `mq logs --repo a/b` mean the same; the value given on the command
// line wins wherever it was written.
import { Command, InvalidArgumentError, Option } from "commander";
import { COLOR_MODES, DEFAULT_GLOBALS, OUTPUT_FORMATS, type GlobalOptions } from "../context.js";
import { DIALECT_NAMES } from "../api/dialects/types.js";
import { MAX_TIMEOUT_SECONDS } from "../config/keys.js";

export function parsePositiveNumber(flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === "" || !Number.isFinite(n) || n <= 0) {
      throw new InvalidArgumentError(`${flag} must be a positive number of seconds.`);
    }
    // Node's timers hold at most 2^31-1 ms: beyond, every request would time out at once
    if (n > MAX_TIMEOUT_SECONDS) {
      throw new InvalidArgumentError(`${flag} must be a positive number of seconds, at most ${MAX_TIMEOUT_SECONDS} (about 24 days).`);
    }
    return n;
  };
}

/** --repo repeated on one command line: the values joined with commas, as if given as one list. */
function collectRepos(value: string, previous: string | undefined): string {
  return previous === undefined ? value : `${previous},${value}`;
}

export function addGlobalOptions(cmd: Command): Command {
  return cmd
    .addOption(
      new Option(
        "-R, --repo <owner/name>",
        "repository to query (default: $MQ_REPO, $GITHUB_REPOSITORY, the git remote, config); stats, insights, prs and logs take several: repeatable, comma-separated, @FILE",
      ).argParser(collectRepos),
    )
    .addOption(new Option("--api-url <url>", "API base URL without /v1 (default: $MQ_API_URL, config, https://api.mergify.com)"))
    .addOption(new Option("--offline", "run against the bundled local server (no account, no network)"))
    .addOption(
      new Option("-o, --output <format>", "output format (default: table on a terminal, ndjson otherwise)").choices(OUTPUT_FORMATS),
    )
    .addOption(new Option("--color <when>", "colour output").choices(COLOR_MODES))
    .addOption(new Option("--debug", "print each HTTP request to stderr (token redacted)"))
    .addOption(
      new Option("--token <token>", "API token (visible to other local users in the process list: prefer MQ_TOKEN or mq auth login)"),
    )
    .addOption(new Option("--timeout <seconds>", "request timeout in seconds (default 30)").argParser(parsePositiveNumber("--timeout")))
    .addOption(new Option("--no-retry", "do not retry on 429, 502, 503, 504 or connection resets"))
    .addOption(new Option("--insecure", "allow sending the token over plain http:// to a non-loopback host"))
    .addOption(
      new Option(
        "--strict",
        "treat a response that differs from the dialect's description (the contract, or the service's OpenAPI) as an error",
      ),
    )
    .addOption(
      new Option(
        "--no-csv-guard",
        "-o csv: cells starting with = + - @ as sent, for programs (default: a ' in front, so spreadsheets do not run them)",
      ),
    )
    .addOption(
      new Option(
        "--dialect <dialect>",
        "the API's dialect: spec (the contract, mq serve) or mergify (the real service) (default: from the API URL)",
      ).choices(DIALECT_NAMES),
    );
}

const withGlobals = new WeakSet<Command>();

/**
 * Adds the global options to `cmd` once, under their own help heading. The CLI calls this for a
 * command only when the command line reaches it: building ~40 commands x 11 options up front was a
 * third of `mq --help`'s start-up. Whatever walks the whole tree (completion) calls it everywhere.
 */
export function ensureGlobalOptions(cmd: Command): Command {
  // `mq help` uses none of them, and "[options]" would only widen the command list
  if (withGlobals.has(cmd) || cmd.name() === "help") return cmd;
  withGlobals.add(cmd);
  const before = cmd.options.length;
  addGlobalOptions(cmd);
  for (const option of cmd.options.slice(before)) option.helpGroup("Global options:");
  return cmd;
}

export function ensureGlobalOptionsEverywhere(root: Command): void {
  ensureGlobalOptions(root);
  for (const sub of root.commands) ensureGlobalOptionsEverywhere(sub);
}

const GLOBAL_KEYS = [
  "repo",
  "apiUrl",
  "offline",
  "output",
  "color",
  "debug",
  "token",
  "timeout",
  "retry",
  "insecure",
  "strict",
  "csvGuard",
  "dialect",
] as const;

/** The global options in effect for `cmd`: a value typed on the command line anywhere in the chain wins. */
export function readGlobals(cmd: Command): GlobalOptions {
  const globals: GlobalOptions = { ...DEFAULT_GLOBALS };
  const chain: Command[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) chain.unshift(c);
  for (const c of chain) {
    const values = c.opts();
    for (const key of GLOBAL_KEYS) {
      const source = c.getOptionValueSource(key);
      if (source === "cli" || source === "env") {
        (globals as unknown as Record<string, unknown>)[key] = values[key];
      }
    }
  }
  return globals;
}
