// `mq serve`: the bundled local server in the foreground. The first stdout line is its base URL
// (scripts read it); hints go to stderr; Ctrl-C or SIGTERM stops it and the command returns.
import { Command, Option } from "commander";
import type { Context } from "../../context.js";
import { UsageError } from "../../errors.js";
import { checkRepoArgument, parseIsoDateTime } from "../../validators.js";
import { isLoopbackHost } from "../../api/urls.js";
import { MEMORY_BUDGET_MB } from "../../server/budget.js";
import { describeCommand } from "../../cmdutil/top-commands.js";

/** --speed: from a tenth of real time to a week in a minute, and beyond, for tests of long watches */
export const MIN_SPEED = 0.1;
export const MAX_SPEED = 1_000_000;

export interface ServeOptions {
  host: string;
  port: number;
  token?: string;
  seed: number;
  days: number;
  now?: Date;
  /** the present runs this many times as fast as real time (from --now, or the real clock) */
  speed?: number;
  repos?: string[];
  eventsFile?: string;
  /** ms added before every answer */
  latencyMs: number;
  /** MB the server may use: its heap cap, and 30% of it (or of the cap) for the data it holds */
  memoryBudgetMb: number;
}

interface RawServeFlags {
  host?: string;
  port?: string;
  seed?: string;
  days?: string;
  now?: string;
  speed?: string;
  repos?: string;
  events?: string;
  latency?: string;
  memoryBudget?: string;
}

const MAX_LATENCY_MS = 60_000;

export function parseServeFlags(flags: RawServeFlags, token: string | undefined): ServeOptions {
  // "" would make every request a 403 (no bearer token can be empty), and a token with whitespace
  // cannot be sent as one `Authorization: Bearer` word; the value is a secret, so it is not echoed
  if (token !== undefined && (token === "" || /\s/.test(token))) {
    throw new UsageError("--token must be a non-empty token without whitespace (or leave --token out to accept any bearer token).");
  }
  const host = flags.host ?? "127.0.0.1";
  if (host.trim() === "" || /\s/.test(host)) throw new UsageError(`--host must be a host name or IP address, not '${host}'.`);
  // without a token the server answers any bearer token: fine on loopback, an open door beyond it
  if (token === undefined && !isLoopbackHost(host.replace(/^\[(.*)\]$/, "$1"))) {
    throw new UsageError(`--host ${host} listens beyond this machine: give --token T too, so that only requests carrying T are answered.`);
  }
  const port = flags.port === undefined ? 0 : Number(flags.port);
  if (flags.port !== undefined && (!/^\d+$/.test(flags.port) || port > 65535)) {
    throw new UsageError(`--port must be an integer from 0 to 65535 (0 picks a free port), not '${flags.port}'.`);
  }
  const seed = flags.seed === undefined ? 0 : Number(flags.seed);
  if (flags.seed !== undefined && (!/^\d+$/.test(flags.seed) || !Number.isSafeInteger(seed))) {
    throw new UsageError(`--seed must be a non-negative integer, not '${flags.seed}'.`);
  }
  const days = flags.days === undefined ? 30 : Number(flags.days);
  if (flags.days !== undefined && (!/^\d+$/.test(flags.days) || days < 1 || days > 365)) {
    throw new UsageError(`--days must be an integer from 1 to 365, not '${flags.days}'.`);
  }
  let now: Date | undefined;
  if (flags.now !== undefined) {
    // the calendar is checked, not just the parse: Date() rolls 2026-02-30 over to March 2
    now = parseIsoDateTime(flags.now);
    if (now === undefined) {
      throw new UsageError(`--now must be an ISO 8601 date-time with a timezone (e.g. 2026-11-20T12:00:00Z), not '${flags.now}'.`);
    }
  }
  let speed: number | undefined;
  if (flags.speed !== undefined) {
    speed = Number(flags.speed);
    if (flags.speed.trim() === "" || !Number.isFinite(speed) || speed < MIN_SPEED || speed > MAX_SPEED) {
      throw new UsageError(`--speed must be a number from ${MIN_SPEED} to ${MAX_SPEED}, not '${flags.speed}'.`);
    }
    if (flags.events !== undefined)
      throw new UsageError("--speed moves a simulated present: a replayed log (--events) has no events after its own.");
  }
  let repos: string[] | undefined;
  if (flags.repos !== undefined) {
    repos = flags.repos
      .split(",")
      .map((r) => r.trim())
      .filter((r) => r !== "");
    const bad = repos.find((r) => !checkRepoArgument(r).ok);
    if (repos.length === 0 || bad !== undefined) {
      throw new UsageError(`--repos must be a comma-separated list of owner/name, not '${bad ?? flags.repos}'.`);
    }
  }
  if (flags.events !== undefined && flags.events.trim() === "") throw new UsageError("--events must be the path of an ndjson file.");
  if (flags.events !== undefined && (flags.seed !== undefined || flags.days !== undefined)) {
    throw new UsageError("--events replays a recorded log: it cannot be combined with --seed or --days.");
  }
  const latencyMs = flags.latency === undefined ? 0 : Number(flags.latency);
  if (flags.latency !== undefined && (!/^\d+$/.test(flags.latency) || latencyMs > MAX_LATENCY_MS)) {
    throw new UsageError(`--latency must be an integer number of milliseconds from 0 to ${MAX_LATENCY_MS}, not '${flags.latency}'.`);
  }
  const memoryBudgetMb = flags.memoryBudget === undefined ? MEMORY_BUDGET_MB.default : Number(flags.memoryBudget);
  if (
    flags.memoryBudget !== undefined &&
    (!/^\d+$/.test(flags.memoryBudget) || memoryBudgetMb < MEMORY_BUDGET_MB.min || memoryBudgetMb > MEMORY_BUDGET_MB.max)
  ) {
    throw new UsageError(
      `--memory-budget must be an integer number of MB from ${MEMORY_BUDGET_MB.min} to ${MEMORY_BUDGET_MB.max}, not '${flags.memoryBudget}'.`,
    );
  }
  return { host, port, token, seed, days, now, speed, repos, eventsFile: flags.events, latencyMs, memoryBudgetMb };
}

export function NewCmdServe(ctx: Context, runF: (opts: ServeOptions) => Promise<void>): Command {
  return new Command("serve")
    .description(describeCommand("serve"))
    .addOption(new Option("--host <host>", "interface to listen on (default: 127.0.0.1)"))
    .addOption(new Option("--port <n>", "port to listen on; 0 picks a free one (default: 0)"))
    .addOption(new Option("--seed <n>", "simulation seed: the same seed, repository, --now and --days give the same history (default: 0)"))
    .addOption(new Option("--days <n>", "days of simulated history, 1 to 365 (default: 30)"))
    .addOption(new Option("--now <iso>", "the simulated present (default: now, to the second)"))
    .addOption(
      new Option(
        "--speed <n>",
        `the present runs n times as fast as real time, from --now (or now): new events keep arriving; ${MIN_SPEED} to ${MAX_SPEED} (default: frozen with --now, real time without)`,
      ),
    )
    .addOption(new Option("--repos <owner/name,...>", "only these repositories exist; others answer 404 (default: any repository)"))
    .addOption(new Option("--events <file.ndjson>", "serve exactly the events of a file written by `mq logs --all -o ndjson`"))
    .addOption(new Option("--latency <ms>", "wait this long before every answer, 0 to 60000 (for tests and benchmarks; default: 0)"))
    .addOption(
      new Option(
        "--memory-budget <mb>",
        `the memory the server may use (its heap is capped by it), ${MEMORY_BUDGET_MB.min} to ${MEMORY_BUDGET_MB.max} MB (default: ${MEMORY_BUDGET_MB.default})`,
      ),
    )
    .addHelpText(
      "after",
      "\nThe token: without --token any bearer token is accepted; with --token T only T is.\n" +
        "Bound to a loopback address (the default), it answers only requests whose Host is a loopback name or address.",
    )
    .action(async (flags: RawServeFlags) => {
      const opts = parseServeFlags(flags, ctx.globals.token);
      await runF(opts);
    });
}
