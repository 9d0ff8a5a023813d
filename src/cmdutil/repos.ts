// Several repositories for `mq logs`, `mq stats`, `mq insights` and `mq prs`: --repo repeated or
// comma-separated, and @FILE for a file of names (one a line; blank lines and # comments ignored).
// Without --repo, the one repository mq would use anyway.
import { closeSync, openSync, readSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import type { Context } from "../context.js";
import { MqError, UsageError } from "../errors.js";
import { messageText } from "../iostreams/terminal-text.js";
import { checkRepoArgument } from "../validators.js";

export interface RepoName {
  owner: string;
  name: string;
}

/** At most this many repositories are read at once. */
export const REPO_CONCURRENCY = 4;
export const MAX_REPOS = 1000;
/** MAX_REPOS names with room for comments; a larger file is not a list of repositories. */
const MAX_REPO_FILE_BYTES = 1024 * 1024;

export function parseRepoList(value: string, cwd: string): RepoName[] {
  // each name with where it came from: a bad line of a file is named by its line number
  const names: Array<{ name: string; from: string }> = [];
  for (const item of value.split(",").map((s) => s.trim())) {
    if (item === "") throw new UsageError("--repo has an empty value: give owner/name, a comma-separated list, or @FILE.");
    if (item.startsWith("@")) {
      const path = resolvePath(cwd, item.slice(1));
      let text: string;
      try {
        text = readBounded(path, MAX_REPO_FILE_BYTES);
      } catch (err) {
        if (err instanceof RangeError)
          throw new UsageError(
            `--repo ${item}: ${path} holds more than 1 MiB; a file of repositories is at most 1 MiB (${MAX_REPOS} repositories).`,
          );
        throw new UsageError(`--repo ${item}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? String(err)}).`);
      }
      text.split(/\r?\n/).forEach((line, i) => {
        const name = line.replace(/#.*/, "").trim();
        if (name) names.push({ name, from: ` ${item}, line ${i + 1}` });
      });
    } else names.push({ name: item, from: "" });
  }
  const out: RepoName[] = [];
  const seen = new Set<string>();
  for (const { name, from } of names) {
    const checked = checkRepoArgument(name);
    if (!checked.ok) throw new UsageError(`bad repository from --repo${from}: ${checked.message}`);
    const key = `${checked.value.owner}/${checked.value.name}`.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ owner: checked.value.owner, name: checked.value.name });
  }
  if (out.length === 0) throw new UsageError("--repo names no repository.");
  if (out.length > MAX_REPOS) throw new UsageError(`--repo names ${out.length} repositories; at most ${MAX_REPOS}.`);
  return out;
}

/**
 * The file's text, read `limit` bytes at most: a device (`/dev/zero`), a pipe or a FIFO has no size
 * to check first, and a huge file would be held whole, then echoed in the error. RangeError when
 * there is more.
 */
function readBounded(path: string, limit: number): string {
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.allocUnsafe(limit + 1);
    let got = 0;
    for (;;) {
      const n = readSync(fd, buf, got, buf.length - got, null);
      if (n === 0) break;
      got += n;
      if (got > limit) throw new RangeError("too large");
    }
    return buf.toString("utf8", 0, got);
  } finally {
    closeSync(fd);
  }
}

/** The repositories of --repo when it names a list or a file (checked, no request), else undefined. */
export function manyRepoList(ctx: Pick<Context, "globals" | "cwd">): RepoName[] | undefined {
  const raw = ctx.globals.repo;
  return raw !== undefined && raw.trim() !== "" && /[,@]/.test(raw) ? parseRepoList(raw, ctx.cwd) : undefined;
}

export async function resolveRepos(ctx: Context): Promise<RepoName[]> {
  const many = manyRepoList(ctx);
  if (many) return many;
  const one = await ctx.resolveRepo();
  return [{ owner: one.owner, name: one.name }];
}

/** Runs `fn` over `items` with at most `limit` at once; results in input order. */
export async function pool<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** A repository that could not be read: its message and the exit code it would have had alone. */
export interface RepoFailure {
  repository: string;
  message: string;
  exit_code: number;
}

/**
 * `fn` over every repository, REPO_CONCURRENCY at once. A repository whose `fn` fails with an
 * MqError is reported through `log` with its exit code and left out; the others' results come back
 * in order. Anything else (an interrupt, a bug), or the failure of the only repository, stops them all.
 */
export async function eachRepo<R>(
  ctx: Pick<Context, "signal">,
  repos: readonly RepoName[],
  fn: (repo: RepoName, repository: string) => Promise<R>,
  log: (line: string) => void,
): Promise<{ results: Array<{ repository: string; value: Awaited<R> }>; failed: RepoFailure[]; error?: MqError }> {
  const failed: RepoFailure[] = [];
  let error: MqError | undefined;
  const out = await pool(repos, REPO_CONCURRENCY, async (repo) => {
    const repository = `${repo.owner}/${repo.name}`;
    try {
      return { repository, value: await fn(repo, repository) };
    } catch (err) {
      // one repository alone: its failure is the command's, as it would be without --repo lists
      if (repos.length === 1 || ctx.signal.aborted || !(err instanceof MqError)) throw err;
      error ??= err;
      failed.push({ repository, message: err.message, exit_code: err.exitCode });
      log(repoFailureLine(repository, err));
      return undefined;
    }
  });
  return { results: out.filter((r) => r !== undefined), failed, error };
}

/** The line on stderr for a repository that failed among several: its message and its exit code alone. */
export function repoFailureLine(repository: string, err: MqError): string {
  return `mq: ${repository}: ${messageText(err.message)} (exit ${err.exitCode})`;
}

/** The error a command ends with when some repositories failed: the first one's exit code. */
export function someReposFailed(failed: readonly RepoFailure[], total: number, first: MqError): MqError {
  const which = failed.map((f) => f.repository).join(", ");
  // "covers the others" when there are none would send a reader looking for output that is not there
  if (failed.length === total) return new MqError(`none of the ${total} repositories could be read (${which}).`, first.exitCode);
  return new MqError(
    `${failed.length} of ${total} repositories could not be read (${which}); the output covers the others.`,
    first.exitCode,
  );
}
