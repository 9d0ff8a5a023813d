// `mq auth`'s run: log in (read a token, check it unless --no-check, store it), show which token is in
// effect and where it comes from, log out, print the token. Loaded when an auth command runs (cli.ts).
import type { Context } from "../../context.js";
import { newApiClient } from "../../context.js";
import { checkToken, maskToken, type RepoRef, resolveApiUrl, resolveToken } from "../../config/resolve.js";
import { AuthError, HttpError, InterruptedError, MqError, UsageError } from "../../errors.js";
import type { AuthLoginOptions } from "./login.js";
import type { AuthStatusOptions } from "./status.js";
import type { AuthLogoutOptions } from "./logout.js";
import type { AuthTokenOptions } from "./token.js";

const MAX_TOKEN_BYTES = 64 * 1024;

export async function runAuthLogin(opts: AuthLoginOptions, ctx: Context): Promise<void> {
  if (ctx.globals.offline) throw new UsageError("--offline needs no login: the bundled server accepts any request");
  if (ctx.globals.token !== undefined) {
    throw new UsageError(
      "mq auth login does not read --token",
      "pipe the token in with --with-token, or run it on a terminal to be prompted",
    );
  }
  const api = await resolveApiUrl(ctx);
  if (!opts.withToken && !ctx.io.canPrompt()) {
    throw new UsageError("no terminal to prompt on", "pipe the token in with: mq auth login --with-token < token.txt");
  }
  // the repository the check reads, known before the token is asked for
  const repo = opts.check ? await checkedRepo(ctx) : undefined;

  const raw = opts.withToken ? await readAll(ctx.io.stdin) : await promptHidden(ctx, `Paste the API token for ${api.url} (input hidden): `);
  const token = raw.trim();
  if (token === "") throw new UsageError(opts.withToken ? "no token on standard input" : "no token given");
  ctx.secrets.add(token);
  checkToken(token, opts.withToken ? "standard input" : "the prompt");

  const err = ctx.io.stderr;
  if (repo !== undefined) {
    await checkTokenAgainstApi(ctx, api.url, token, repo);
    err.write(`Token checked: ${api.url} accepted it for ${repo.owner}/${repo.name} (its queue list)\n`);
  }
  const config = await ctx.config();
  config.setToken(api.url, token);
  err.write(`Logged in to ${api.url}: ${maskToken(token)} stored in ${config.path}${repo ? "" : " (not checked: --no-check)"}\n`);
  for (const name of ["MQ_TOKEN", "MERGIFY_TOKEN"]) {
    if (ctx.env[name]?.trim()) err.write(`note: $${name} is set and takes precedence over the stored token\n`);
  }
}

const NO_CHECK_HINT = "mq auth login checks the token on a repository; --no-check stores it without checking";

async function checkedRepo(ctx: Context): Promise<RepoRef> {
  try {
    return await ctx.resolveRepo();
  } catch (e) {
    if (e instanceof UsageError) e.addHint(NO_CHECK_HINT);
    throw e;
  }
}

/**
 * "Checked" means: the API URL answers, and GET /repos/{owner}/{name}/stats/queues with this
 * token succeeds, so the token is accepted for that repository. Any failure stores nothing.
 */
async function checkTokenAgainstApi(ctx: Context, url: string, token: string, repo: RepoRef): Promise<void> {
  const name = `${repo.owner}/${repo.name}`;
  const client = await newApiClient(ctx, { token });
  try {
    await client.get(`/repos/${repo.owner}/${repo.name}/stats/queues`);
  } catch (err) {
    if (err instanceof HttpError && (err.status === 401 || err.status === 403)) {
      throw new AuthError(
        `the token was not accepted for ${name} by ${url} (HTTP ${err.status}${err.detail ? `: ${err.detail}` : ""})`,
        "nothing was stored; check the token and its rights on the repository",
      );
    }
    if (err instanceof HttpError && err.status === 404) {
      throw new HttpError(
        404,
        `${url} knows no repository ${name} that this token can read (HTTP 404${err.detail ? `: ${err.detail}` : ""})`,
        undefined,
        "nothing was stored; check the repository (--repo) and the token's rights on it",
      );
    }
    if (err instanceof MqError) err.addHint(`nothing was stored; ${NO_CHECK_HINT}`);
    throw err;
  }
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > MAX_TOKEN_BYTES) throw new UsageError("standard input is too large to be a token");
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A prompt without echo: raw mode, so the terminal shows nothing of what is typed or pasted. */
function promptHidden(ctx: Context, question: string): Promise<string> {
  const stdin = ctx.io.stdin as NodeJS.ReadableStream & { setRawMode?: (on: boolean) => void; isRaw?: boolean };
  ctx.io.stderr.write(question);
  const raw = typeof stdin.setRawMode === "function";
  if (raw) stdin.setRawMode!(true);
  return new Promise((resolve, reject) => {
    let value = "";
    const finish = (result: () => void) => {
      stdin.off("data", onData);
      stdin.off("end", onEnd);
      if (raw) stdin.setRawMode!(false);
      stdin.pause();
      ctx.io.stderr.write("\n");
      result();
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of String(chunk)) {
        if (ch === "\r" || ch === "\n" || ch === "\u0004") return finish(() => resolve(value));
        if (ch === "\u0003") return finish(() => reject(new InterruptedError()));
        if (ch === "\u007f" || ch === "\b") value = value.slice(0, -1);
        else value += ch;
      }
    };
    const onEnd = () => finish(() => resolve(value));
    stdin.on("data", onData);
    stdin.on("end", onEnd);
    stdin.resume();
  });
}

export async function runAuthStatus(_opts: AuthStatusOptions, ctx: Context): Promise<void> {
  // writeText: the whole answer in one write, no stream built for it on a pipe (context.ts)
  if (ctx.globals.offline) {
    ctx.io.writeText("API URL: the bundled offline server (--offline)\nToken:   none needed\n");
    return;
  }
  const api = await resolveApiUrl(ctx);
  const found = await resolveToken(ctx, api.url);
  const configPath = found?.source === "config" || api.source === "config" ? (await ctx.config()).path : "";
  if (found === undefined) {
    throw new AuthError(`not logged in to ${api.url}`, "run mq auth login, set MQ_TOKEN, or use --offline");
  }
  const apiFrom = api.source === "default" ? "default" : `from ${describeSource(api.source, configPath)}`;
  ctx.io.writeText(
    `API URL: ${api.url} (${apiFrom})\nToken:   ${maskToken(found.token)} (from ${describeSource(found.source, configPath)})\n`,
  );
}

/** How `mq auth status` names a source: the flag, the environment variable, or the config file. */
export function describeSource(source: string, configPath: string): string {
  if (source === "--token" || source === "--api-url") return `the ${source} flag`;
  if (source === "config") return configPath;
  return `$${source}`;
}

export async function runAuthLogout(_opts: AuthLogoutOptions, ctx: Context): Promise<void> {
  const api = await resolveApiUrl(ctx);
  const config = await ctx.config();
  const err = ctx.io.stderr;
  // idempotent, so scripts can log out without checking first
  if (config.deleteToken(api.url)) err.write(`Logged out of ${api.url}: the token was removed from ${config.path}\n`);
  else err.write(`No token was stored for ${api.url}\n`);
  for (const name of ["MQ_TOKEN", "MERGIFY_TOKEN"]) {
    if (ctx.env[name]?.trim()) err.write(`note: $${name} is still set and still used\n`);
  }
}

export async function runAuthToken(_opts: AuthTokenOptions, ctx: Context): Promise<void> {
  const api = await resolveApiUrl(ctx);
  const found = await resolveToken(ctx, api.url);
  if (found === undefined) throw new AuthError(`not logged in to ${api.url}`, "run mq auth login, or set MQ_TOKEN");
  ctx.io.writeText(`${found.token}\n`);
}
