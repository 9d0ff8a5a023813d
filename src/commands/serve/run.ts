// `mq serve`'s run: the bundled server started (in a worker thread whose heap the memory budget
// caps), its URL printed, served until Ctrl-C. Loaded when `mq serve` runs (cli.ts).
import type { Context } from "../../context.js";
import { InterruptedError, UsageError } from "../../errors.js";
import type { DialectName } from "../../api/dialects/types.js";
import { isLoopbackHost } from "../../api/urls.js";
import { wrapLine } from "../../iostreams/terminal-width.js";
import { startBudgetedServer } from "../../server/worker.js";
import type { ServeOptions } from "./index.js";

export async function runServe(opts: ServeOptions, ctx: Context): Promise<void> {
  if (opts.token) ctx.secrets.add(opts.token);
  // --dialect (a global option); the bundled server's default is the contract, whatever the config
  // says of the API mq usually talks to
  const dialect: DialectName = ctx.globals.dialect ?? "spec";
  const serverOptions = {
    host: opts.host,
    port: opts.port,
    token: opts.token,
    seed: opts.seed,
    days: opts.days,
    now: opts.now,
    speed: opts.speed,
    // the clock's origin, fixed here: a worker started again after a crash keeps the same present
    speedFrom: opts.speed !== undefined ? Date.now() : undefined,
    repos: opts.repos,
    eventsFile: opts.eventsFile,
    delayMs: opts.latencyMs,
    memoryBudgetMb: opts.memoryBudgetMb,
    recordRequests: false,
    dialect,
  };
  let server: { url: string; close(): Promise<void> };
  try {
    server = await startBudgetedServer(
      serverOptions,
      (reason) => ctx.io.stderr.write(`mq serve: the server stopped (${reason}); started again on the same port\n`),
      (message) => ctx.io.stderr.write(`mq serve: ${message}\n`),
    );
  } catch (err) {
    // bad input is one line on stderr (exit 2); the file's expected form is in `mq serve --help`
    const name = (err as { errorName?: string }).errorName ?? (err as Error).name;
    if (name === "EventsFileError") throw new UsageError(`--events: ${(err as Error).message}`);
    const code = (err as NodeJS.ErrnoException).code;
    // the worker's heap cap reached while loading --events: the budget is the flag to change
    if (code === "ERR_WORKER_OUT_OF_MEMORY") throw new UsageError(`--memory-budget ${opts.memoryBudgetMb}: ${(err as Error).message}`);
    if (code === "EADDRINUSE")
      throw new UsageError(`--port ${opts.port}: the address ${opts.host}:${opts.port} is already in use (use --port 0 for a free port).`);
    if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND" || code === "EACCES") {
      throw new UsageError(`--host ${opts.host} / --port ${opts.port}: cannot listen there (${code}).`);
    }
    throw err;
  }
  ctx.onCleanup(() => server.close());
  // Ctrl-C while it started (the start does not listen for it): printing the URL and "Press
  // Ctrl-C to stop" now would announce a server that stops at once; a script reading the URL
  // would be handed a dead one
  if (ctx.signal.aborted) {
    await server.close();
    throw new InterruptedError("interrupted while the server was starting; it was not left running");
  }
  ctx.io.stdout.write(`${server.url}\n`);
  const what = opts.eventsFile
    ? `replaying ${opts.eventsFile}`
    : `simulating ${opts.days} ${opts.days === 1 ? "day" : "days"}${opts.now ? ` up to ${opts.now.toISOString()}` : ""}${opts.speed !== undefined ? `, the present running ${opts.speed}× as fast as real time` : ""}, seed ${opts.seed}${opts.repos ? `, repositories ${opts.repos.join(", ")}` : ", any owner/name"}`;
  // prose fits the terminal; the command to try is never broken (it is copied)
  const width = ctx.io.messageWidth();
  const listening = `mq serve: listening on ${server.url} (${what}${dialect === "spec" ? "" : `, speaking the ${dialect} dialect`})`;
  const tryIt = `mq --api-url ${tryUrl(server.url)}${dialect === "spec" ? "" : ` --dialect ${dialect}`} --token ${opts.token ? "<your --token>" : "anything"} logs --repo ${opts.repos?.[0] ?? "acme/web"}`;
  ctx.io.stderr.write(`${wrapLine(listening, width, "  ")}\nTry: ${tryIt}\nPress Ctrl-C to stop.\n`);
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) return resolve();
    ctx.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  await server.close();
  ctx.io.stderr.write("mq serve: stopped\n");
}

/**
 * The URL this machine reaches the server at, with the flags mq needs for it: a wildcard address
 * (0.0.0.0, ::) is no destination, its loopback is; plain http:// beyond loopback needs --insecure.
 */
function tryUrl(url: string): string {
  const u = new URL(url);
  if (u.hostname === "0.0.0.0") u.hostname = "127.0.0.1";
  else if (u.hostname === "[::]") u.hostname = "[::1]";
  const local = isLoopbackHost(u.hostname);
  return `${u.origin}${local ? "" : " --insecure"}`;
}
