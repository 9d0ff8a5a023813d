// The span of the event log the API in effect holds, each from the one place that knows it: the
// bundled server (--offline) says where its history begins (RunningServer.historyStart, noted here
// by the factory that starts it), the service keeps SERVICE_RETENTION_DAYS (api/retention.ts). The
// archive's span is its coverage table (archive/reader.ts windowCoverage). The analyses ask
// through their event source (insights/walk.ts EventSource.missing). The Context is the shape
// below, not an import: the factory imports this module.
import type { GlobalOptions } from "../globals.js";
import { SERVICE_RETENTION_DAYS } from "../api/retention.js";

const DAY_MS = 86_400_000;

export interface HeldSince {
  /** the oldest instant the API holds events for, epoch ms */
  from: number;
  /** the source and its limit, in words: "the bundled server's history" */
  what: string;
}

// per Context: each starts its own bundled server (tests build many)
const bundled = new WeakMap<object, () => Date | undefined>();

/** The factory notes the bundled server it started for CTX: where its history begins, asked when needed (its present may move). */
export function noteBundledServer(ctx: object, historyStart: () => Date | undefined): void {
  bundled.set(ctx, historyStart);
}

/**
 * Where the events the API in effect holds begin: the bundled server's history (it starts when
 * asked), else the service's retention. Undefined when the source holds what it holds from any
 * date (a bundled server replaying a recorded log).
 */
export async function apiHeldSince(ctx: {
  globals: Pick<GlobalOptions, "offline">;
  now(): Date;
  apiClient(): Promise<unknown>;
}): Promise<HeldSince | undefined> {
  if (ctx.globals.offline) {
    await ctx.apiClient();
    const start = bundled.get(ctx)?.();
    return start && { from: start.getTime(), what: "the bundled server's history" };
  }
  return {
    from: ctx.now().getTime() - SERVICE_RETENTION_DAYS * DAY_MS,
    what: `the ${SERVICE_RETENTION_DAYS} days of events the service keeps`,
  };
}
