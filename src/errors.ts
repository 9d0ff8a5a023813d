// Typed errors and the one exit-code map. Commands throw these; only main() turns them into an
// exit code, so every command reports failures the same way and none calls process.exit.
// `mq help exit-codes` and the end of `mq --help` print EXIT_CODE_TABLE.

export const ExitCode = {
  OK: 0,
  CHECK_FAILED: 1,
  USAGE: 2,
  NOT_FOUND: 3,
  AUTH: 4,
  REJECTED: 5,
  NETWORK: 6,
  CONFIG: 7,
  ARCHIVE: 8,
  INTERNAL: 70,
  OUTPUT: 74,
  WAIT_TIMEOUT: 124,
  HANGUP: 129,
  INTERRUPTED: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export class MqError extends Error {
  readonly exitCode: ExitCodeValue;
  readonly #hints: string[] = [];
  constructor(message: string, exitCode: ExitCodeValue, hint?: string) {
    super(message);
    this.name = new.target.name;
    this.exitCode = exitCode;
    if (hint) this.#hints.push(hint);
  }

  /** Follow-up lines for the user: how to fix or resume. */
  get hint(): string | undefined {
    return this.#hints.length ? this.#hints.join("\n") : undefined;
  }

  /** Adds a follow-up (e.g. how to resume what was interrupted), keeping the error's class and exit code. */
  addHint(hint: string): void {
    this.#hints.push(hint);
  }
}

/** Bad input from the user; raised before any request is sent. */
export class UsageError extends MqError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.USAGE, hint);
  }
}

/** A --fail-if threshold was breached. The breaches are already printed. */
export class CheckFailedError extends MqError {
  constructor(message: string) {
    super(message, ExitCode.CHECK_FAILED);
  }
}

/** An HTTP status from the API, mapped to the exit code of its class. */
export class HttpError extends MqError {
  readonly status: number;
  readonly detail: string | undefined;
  constructor(status: number, message: string, detail?: string, hint?: string) {
    super(message, exitCodeForStatus(status), hint);
    this.status = status;
    this.detail = detail;
  }
}

/** Network failure, timeout, retries exhausted, or a 5xx. */
export class NetworkError extends MqError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.NETWORK, hint);
  }
}

/** A 200 response whose body does not match the contract (page or event envelope). */
export class ContractError extends MqError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.NETWORK, hint);
  }
}

export class AuthError extends MqError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.AUTH, hint);
  }
}

export class ConfigError extends MqError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.CONFIG, hint);
  }
}

/**
 * The local archive (`mq archive`) cannot be used: locked by another mq, corrupt, made by a newer
 * mq, or a write failed (disk full). None of the other codes fits: it is neither the user's flags,
 * nor the API, nor the config file, and a script wants to tell it apart (retry later when locked).
 */
export class ArchiveError extends MqError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.ARCHIVE, hint);
  }
}

/** Why a write failed, in words, with the system's code: "no space left on the device (ENOSPC)". */
export function writeFailure(cause: NodeJS.ErrnoException): string {
  const why: Record<string, string> = {
    ENOSPC: "no space left on the device",
    EDQUOT: "disk quota exceeded",
    EFBIG: "the file is too large",
    EIO: "an input/output error",
    EACCES: "permission denied",
    EROFS: "the file system is read-only",
    ENXIO: "nothing reads this FIFO",
  };
  return `${why[cause.code ?? ""] ?? cause.message}${cause.code ? ` (${cause.code})` : ""}`;
}

/**
 * Standard output (or the file a flag names: `what`, "--report FILE") could not be written: a full
 * disk or quota, a failing file system, a FIFO nobody reads (not a reader that left, which is
 * success). 74 is sysexits' EX_IOERR. The work stops; what was written stays.
 */
export class OutputError extends MqError {
  override readonly cause: NodeJS.ErrnoException;
  constructor(cause: NodeJS.ErrnoException, what?: string) {
    super(`${what ? `${what}: ` : ""}could not write the output: ${writeFailure(cause)}`, ExitCode.OUTPUT);
    this.cause = cause;
  }
}

/** `mq wait`: the pull request left its queue without being merged (the message says why). */
export class NotMergedError extends MqError {
  constructor(message: string) {
    super(message, ExitCode.CHECK_FAILED);
  }
}

/** `mq wait`: --max-wait ran out while the pull request was still queued, or not queued yet. */
export class WaitTimeoutError extends MqError {
  constructor(message: string) {
    super(message, ExitCode.WAIT_TIMEOUT);
  }
}

export class InterruptedError extends MqError {
  constructor(message = "interrupted") {
    super(message, ExitCode.INTERRUPTED);
  }
}

export function exitCodeForStatus(status: number): ExitCodeValue {
  if (status === 404) return ExitCode.NOT_FOUND;
  if (status === 401 || status === 403) return ExitCode.AUTH;
  if (status === 409 || status === 422 || status === 400) return ExitCode.REJECTED;
  if (status === 429 || status >= 500) return ExitCode.NETWORK;
  if (status >= 400) return ExitCode.REJECTED;
  return ExitCode.NETWORK;
}

/** The exit-code table: `mq help exit-codes` prints it, and a test holds the README to it. */
export const EXIT_CODE_TABLE: ReadonlyArray<readonly [number, string]> = [
  [0, "success"],
  [1, "check failed: a --fail-if threshold was breached; mq wait: the pull request left its queue without being merged"],
  [2, "usage error or bad input; nothing was sent"],
  [3, "not found (HTTP 404)"],
  [4, "authentication or permission: no token, or HTTP 401/403"],
  [5, "request rejected by the API (HTTP 409, 422)"],
  [6, "network failure, timeout, server error (5xx), or a response that does not match the API description"],
  [7, "configuration error (unreadable or corrupt config file, bad config value)"],
  [8, "archive unusable: locked by another mq, corrupt, from a newer mq, or disk full"],
  [70, "internal error (a bug in mq)"],
  [74, "could not write the output: disk full or quota exceeded, or the file system failed"],
  [124, "mq wait: --max-wait ran out before the pull request left its queue"],
  [129, "hung up (SIGHUP: the terminal or SSH session closed); output written so far is complete"],
  [130, "interrupted (Ctrl-C, SIGTERM); output written so far is complete"],
];

// Nothing mq prints may show a token: neither the ones it knows (flag, environment, config) nor
// one a user pasted in the wrong place (`mq ghp_...`, `mq config get mqk_...`), which commander
// and mq would otherwise echo back in "unknown command" and "bad value" errors.

/** Token shapes worth hiding wherever they appear: GitHub's prefixed tokens and mq's own keys. */
const LIKELY_TOKEN = /\b(gh[pousr]_|github_pat_|mqk_)[A-Za-z0-9_-]{8,}/g;

/** user:password@ (or a token as the user) in any URL of a message: CI remotes carry tokens. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@'"]+@/gi;

/** Below this length a secret is masked only where it stands alone, not inside other words. */
export const SHORT_SECRET = 8;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `text` with every known secret, every token-shaped word and every URL's credentials masked. */
export function redact(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret === "") continue;
    if (secret.length >= SHORT_SECRET) out = out.split(secret).join("****");
    // a short token would match inside ordinary words: mask it whole, where no letter or digit touches it
    else out = out.replace(new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(secret)}(?![A-Za-z0-9])`, "g"), "****");
  }
  return out.replace(LIKELY_TOKEN, "$1****").replace(URL_USERINFO, "$1****@");
}
