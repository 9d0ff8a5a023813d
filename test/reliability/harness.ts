// Runs mq in-process (main(argv, ctx)) against a loopback server, with the client's backoff sleeps
// recorded instead of slept: retries are exercised exactly, and the suite stays fast.
import { main } from "../../src/main.js";
import type { ApiClient } from "../../src/api/client.js";
import { createApiClient } from "../../src/context/api-client.js";
import { testContext, type TestContext, type TestContextInit } from "../helpers/context.js";
import { afterAll, beforeAll, describe } from "vitest";
import { dispatcherFor, WIRE_NAMES, type WireName } from "../helpers/wires.js";

export const TOKEN = "rel-test-token-1234";

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  /** milliseconds the client asked to sleep before each retry */
  sleeps: number[];
  ctx: TestContext;
}

export interface RunOptions extends TestContextInit {
  /** the loopback server: --api-url and --token point at it */
  apiUrl?: string;
  /** add `--repo acme/web` before the command (repeated --repo values add up into a list) */
  repo?: boolean;
  /** sleep for real (default: record and return at once) */
  realSleep?: boolean;
}

/** The wire runMq's client uses (suites that run once per wire set it in a beforeAll). */
let wire: WireName = "node:http";

export function useWire(name: WireName): void {
  wire = name;
}

/** Runs a suite's scenarios once on each wire the client uses (node:http by default, undici behind a proxy). */
export function onEachWire(scenarios: () => void): void {
  for (const name of WIRE_NAMES) {
    describe(`on ${name}`, () => {
      beforeAll(() => useWire(name));
      afterAll(() => useWire("node:http"));
      scenarios();
    });
  }
}

export async function runMq(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  // an injected undici Agent selects the undici wire; none leaves the factory's choice (node:http)
  const dispatcher = opts.dispatcher ?? dispatcherFor(wire);
  const ctx = testContext({ ...opts, dispatcher });
  if (dispatcher && !opts.dispatcher) ctx.onCleanup(() => dispatcher.close());
  const sleeps: number[] = [];
  if (!opts.realSleep) {
    let client: Promise<ApiClient> | undefined;
    ctx.apiClient = () => {
      client ??= createApiClient(ctx, {
        sleep: async (ms, signal) => {
          sleeps.push(ms);
          if (signal.aborted) throw signal.reason;
        },
      });
      return client;
    };
  }
  const globals: string[] = [];
  if (opts.apiUrl !== undefined) globals.push("--api-url", opts.apiUrl, "--token", TOKEN);
  if (opts.repo !== false) globals.push("--repo", "acme/web");
  const code = await main([...globals, ...args], ctx);
  // let the PassThrough streams deliver what was written
  await new Promise((r) => setImmediate(r));
  return { code, stdout: ctx.stdoutText(), stderr: ctx.stderrText(), sleeps, ctx };
}

/** stderr as lines, without the trailing empty one. */
export function lines(text: string): string[] {
  const out = text.split("\n");
  if (out[out.length - 1] === "") out.pop();
  return out;
}
