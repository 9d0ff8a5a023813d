// Runs `mq exporter` in-process (main(argv, ctx)) against a bundled server, and reads the raw log
// with plain fetch and Link headers: the counts the tests hold the exporter to are computed without
// mq's client, pagination or metrics code.
import { main } from "../../../src/main.js";
import { testContext, type TestContext } from "../../helpers/context.js";

export const NOW = new Date("2026-11-20T12:00:00Z");
export const TOKEN = "mqk_exporter_secret_token_4711";

export interface RunningExporter {
  ctx: TestContext;
  url: string;
  stop(): Promise<number>;
}

/** Waits until `check` holds, asking again every 20 ms (at most `tries` times). */
export async function until<T>(what: string, check: () => T | undefined | Promise<T | undefined>, tries = 1500): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`gave up waiting for ${what}`);
}

export async function startExporter(server: { url: string }, args: string[], now: () => Date = () => NOW): Promise<RunningExporter> {
  const ac = new AbortController();
  const ctx = testContext({ signal: ac.signal, now });
  const done = main(["--api-url", server.url, "--token", TOKEN, "exporter", "--listen", "127.0.0.1:0", "--interval", "1", ...args], ctx);
  let code: number | undefined;
  void done.then((c) => (code = c));
  const url = await until("the exporter's URL", () => {
    if (code !== undefined) throw new Error(`mq exporter ended (exit ${code}): ${ctx.stderrText()}`);
    return /^(http:\S+)\n/.exec(ctx.stdoutText())?.[1];
  });
  return {
    ctx,
    url,
    async stop() {
      ac.abort();
      return done;
    },
  };
}

export async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string; body: string }> {
  const res = await fetch(url, { headers });
  return { status: res.status, type: res.headers.get("content-type") ?? "", body: await res.text() };
}

export async function ready(url: string): Promise<void> {
  await until("/readyz", async () => ((await get(`${url}/readyz`)).status === 200 ? true : undefined));
}

interface RawEvent {
  id: number;
  type: string;
  received_at: string;
  pull_request: number | null;
  metadata: Record<string, unknown>;
}

/** Every event of the window, read page after page by the Link header. */
export async function rawLog(server: { url: string }, repo: string, since: Date, untilAt: Date = NOW): Promise<RawEvent[]> {
  const out: RawEvent[] = [];
  let next: string | undefined =
    `${server.url}/v1/repos/${repo}/logs?received_from=${since.toISOString()}&received_to=${untilAt.toISOString()}&per_page=100`;
  while (next) {
    const res: Response = await fetch(next, { headers: { authorization: `Bearer ${TOKEN}` } });
    if (res.status !== 200) throw new Error(`${next}: ${res.status}`);
    const body = (await res.json()) as { events: RawEvent[] };
    out.push(...body.events);
    next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get("link") ?? "")?.[1];
    if (next && !next.startsWith("http")) next = new URL(next, server.url).href;
  }
  return out;
}

/** The samples of a text exposition: `name{labels}` → value. */
export function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

/** The sum of a metric's samples whose labels include every one of `labels`. */
export function total(s: Map<string, number>, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const [key, value] of s) {
    const brace = key.indexOf("{");
    if ((brace < 0 ? key : key.slice(0, brace)) !== name) continue;
    if (Object.entries(labels).every(([k, v]) => key.includes(`${k}="${v}"`))) sum += value;
  }
  return sum;
}
