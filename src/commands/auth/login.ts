// `mq auth login`: read a token from standard input (--with-token) or a hidden prompt, optionally
// check it against the API, and store it for the API URL in effect.
import { Command } from "commander";
import type { Context } from "../../context.js";
import { resolveApiUrl, checkToken, maskToken } from "../../config/resolve.js";
import { AuthError, HttpError, InterruptedError, UsageError } from "../../errors.js";

export interface AuthLoginOptions {
  withToken: boolean;
  check: boolean;
}

export function NewCmdAuthLogin(ctx: Context, runF?: (opts: AuthLoginOptions) => Promise<void>): Command {
  return (
    new Command("login")
      .description("store an API token for the API URL in effect")
      .option("--with-token", "read the token from standard input")
      .option("--check", "check the token against the API (GET the repository's queues) before storing it")
      // excess arguments are accepted only to refuse them with a better message than commander's
      .allowExcessArguments(true)
      .action(async (flags: { withToken?: boolean; check?: boolean }, cmd: Command) => {
        if (cmd.args.length > 0) {
          // never echo it: it is probably the token
          throw new UsageError(
            "mq auth login does not take the token as an argument (it would stay in shell history and the process list)",
            "pipe it in with: mq auth login --with-token < token.txt, or run mq auth login on a terminal to be prompted",
          );
        }
        const opts: AuthLoginOptions = { withToken: Boolean(flags.withToken), check: Boolean(flags.check) };
        await (runF ?? ((o) => runAuthLogin(o, ctx)))(opts);
      })
  );
}

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

  let raw: string;
  if (opts.withToken) raw = await readAll(ctx.io.stdin);
  else if (ctx.io.canPrompt()) raw = await promptHidden(ctx, `Paste the API token for ${api.url} (input hidden): `);
  else throw new UsageError("no terminal to prompt on", "pipe the token in with: mq auth login --with-token < token.txt");
  const token = raw.trim();
  if (token === "") throw new UsageError(opts.withToken ? "no token on standard input" : "no token given");
  ctx.secrets.add(token);
  checkToken(token, opts.withToken ? "standard input" : "the prompt");

  if (opts.check) {
    const repo = await ctx.resolveRepo();
    const { createApiClient } = await import("../../context/api-client.js");
    const client = await createApiClient(ctx, { token });
    try {
      await client.get(`/repos/${repo.owner}/${repo.name}/stats/queues`);
    } catch (err) {
      if (err instanceof HttpError && (err.status === 401 || err.status === 403)) {
        throw new AuthError(
          `the token was not accepted for ${repo.owner}/${repo.name} by ${api.url} (HTTP ${err.status}${err.detail ? `: ${err.detail}` : ""})`,
          "nothing was stored; check the token and its rights on the repository",
        );
      }
      throw err;
    }
  }

  const config = await ctx.config();
  config.setToken(api.url, token);
  const err = ctx.io.stderr;
  err.write(`Logged in to ${api.url}${opts.check ? " (token checked)" : ""}: ${maskToken(token)} stored in ${config.path}\n`);
  for (const name of ["MQ_TOKEN", "MERGIFY_TOKEN"]) {
    if (ctx.env[name]?.trim()) err.write(`note: $${name} is set and takes precedence over the stored token\n`);
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
