// A Context for tests: in-memory streams, a fixed clock, a temp config dir, no real terminal.
import { PassThrough } from "node:stream";
import { createContext, type Context, type ContextInit } from "../../src/context.js";
import { tempDir } from "./tmp.js";

export interface TestContext extends Context {
  stdoutText(): string;
  stderrText(): string;
}

export interface TestContextInit extends Omit<ContextInit, "io"> {
  tty?: boolean;
  stdoutIsTTY?: boolean;
  stderrIsTTY?: boolean;
  stdin?: string;
  columns?: number;
  /** the terminal's height (none by default) */
  rows?: number;
}

function collect(stream: PassThrough): () => string {
  const chunks: Buffer[] = [];
  stream.on("data", (c: Buffer) => chunks.push(Buffer.from(c)));
  return () => Buffer.concat(chunks).toString("utf8");
}

export function testContext(init: TestContextInit = {}): TestContext {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  if (init.stdin !== undefined) stdin.end(init.stdin);
  const configDir = tempDir("mq-test-config-");
  const ctx = createContext({
    ...init,
    env: { MQ_CONFIG_DIR: configDir, HOME: configDir, ...(init.env ?? {}) },
    now: init.now ?? (() => new Date("2026-11-20T12:00:00Z")),
    io: {
      stdout,
      stderr,
      stdin,
      stdinIsTTY: init.tty ?? false,
      stdoutIsTTY: init.stdoutIsTTY ?? init.tty ?? false,
      stderrIsTTY: init.stderrIsTTY ?? init.tty ?? false,
      columns: init.columns ?? 100,
      rows: init.rows,
    },
  });
  return Object.assign(ctx, { stdoutText: collect(stdout), stderrText: collect(stderr) });
}
