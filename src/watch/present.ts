// The server's present, the one instant a watch's windows end at and the "now" of mq queue, mq why
// and mq wait without --until: the Date header of the API's answer (RFC 9110: the instant the origin
// made it; the bundled server sends its simulated present, which `mq serve --now` sets in the past
// and --speed moves). mq's own clock is only the fallback for an answer without a usable Date.
// Asked with one event of the log at most, and only what arrived since the present known before.
import { existsSync } from "node:fs";
import type { Context } from "../context.js";
import { formatInstant } from "../cmdutil/time.js";
import type { RepoName } from "../cmdutil/repos.js";
import { archivePath } from "../archive/paths.js";
import { InterruptedError, MqError } from "../errors.js";

/** The instant of an HTTP Date header (whole seconds), undefined when absent or not a date. */
export function dateHeaderInstant(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms) : undefined;
}

/** Follows the server's present poll after poll: never going back, whatever a server's clock says. */
export class ServerPresent {
  private last: Date | undefined;
  /** the last present came from the server (mq's clock may lie in its future: never asked from) */
  private told = false;

  constructor(
    private readonly ctx: Pick<Context, "apiClient" | "now">,
    private readonly repo: RepoName,
  ) {}

  /** The present now: one request of one event at most, from the present known before. */
  async next(): Promise<Date> {
    const client = await this.ctx.apiClient();
    const path = `/repos/${encodeURIComponent(this.repo.owner)}/${encodeURIComponent(this.repo.name)}/logs`;
    const res = await client.get(path, { per_page: 1, ...(this.last && this.told ? { received_from: formatInstant(this.last) } : {}) });
    const told = dateHeaderInstant(res.headers.date);
    const at = told ?? this.ctx.now();
    if (this.last === undefined || at.getTime() > this.last.getTime()) this.last = at;
    this.told = told !== undefined;
    return this.last;
  }
}

/**
 * The present a command answers at when --until is not given (`mq queue`, `mq why`): one request.
 * If the API does not answer it, the command fails with that error: its read of the log, the same
 * endpoint, would fail alike, and in the default mode the archive cannot stand in (it stops short
 * of the last minutes, so a window ending now is never read from it). With an archive there, the
 * error says what answers from it.
 */
export async function presentOrFail(ctx: Pick<Context, "apiClient" | "now" | "env">, repo: RepoName): Promise<Date> {
  try {
    return await new ServerPresent(ctx, repo).next();
  } catch (err) {
    if (err instanceof MqError && !(err instanceof InterruptedError) && existsSync(archivePath(ctx.env)))
      err.addHint(
        "--archive answers from the archive instead, at mq's clock and without the API (mq archive status shows what it covers).",
      );
    throw err;
  }
}
