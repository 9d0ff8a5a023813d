// Reading a response body with a bound. undici's `body.text()` keeps whatever the server sends: a
// 600 MB page took 1.3 GB of memory before JSON.parse even started. Here the bytes are counted as
// they arrive and the connection is dropped as soon as they pass the cap, and bytes that are not
// UTF-8 are reported (they still decode to U+FFFD, but the caller warns instead of passing the
// replacement off as what the server sent).
import { isUtf8 } from "node:buffer";
import { formatBytes } from "../iostreams/human.js";

/** The most mq reads of one response: a page of 100 events is well under 1 MB. */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

export interface BodyText {
  text: string;
  /** bytes received */
  bytes: number;
  /** the body was not valid UTF-8: the text holds U+FFFD where the bad bytes were */
  invalidUtf8: boolean;
  /**
   * The bytes, when they are the text one byte a character (ASCII, no byte order mark): an offset
   * in the text is then an offset here, and `-o ndjson` copies each event's bytes to stdout
   * instead of encoding its text again.
   */
  ascii?: Buffer;
}

/** Thrown by readBodyText when the body passes the cap; the connection is already dropped. */
export class BodyTooLargeError extends Error {
  constructor(
    readonly limit: number,
    /** what Content-Length announced, when it gave the reason */
    readonly announced?: number,
  ) {
    super(`the response body is larger than ${formatBytes(limit)}`);
  }
}

/**
 * Thrown by readBodyText when the body stops with an error before its end (the connection closed or
 * was reset mid-body): how much came, and how much Content-Length announced. `code` is the wire's
 * own (ECONNRESET, UND_ERR_SOCKET), so the retry policy sees the reset it is.
 */
export class BodyCutShortError extends Error {
  readonly code: string | undefined;
  constructor(
    readonly received: number,
    readonly announced: number | undefined,
    override readonly cause: unknown,
  ) {
    super(`the body stopped after ${received} bytes${announced !== undefined ? ` of ${announced}` : ""}`);
    const code = (cause as { code?: unknown } | undefined)?.code;
    this.code = typeof code === "string" ? code : undefined;
  }
}

interface Body extends AsyncIterable<Buffer | Uint8Array | string> {
  destroy(error?: Error): unknown;
}

/**
 * The body as text, read chunk by chunk up to `limit` bytes. A Content-Length above the limit fails
 * before a byte is read.
 */
export async function readBodyText(body: Body, limit = MAX_BODY_BYTES, contentLength?: string | string[]): Promise<BodyText> {
  const announced = Number(Array.isArray(contentLength) ? contentLength[0] : contentLength);
  if (Number.isFinite(announced) && announced > limit) {
    body.destroy();
    throw new BodyTooLargeError(limit, announced);
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  const cutShort = (err: unknown) => new BodyCutShortError(bytes, Number.isFinite(announced) ? announced : undefined, err);
  const add = (chunk: Buffer | Uint8Array | string): boolean => {
    const buf =
      typeof chunk === "string"
        ? Buffer.from(chunk)
        : Buffer.isBuffer(chunk)
          ? chunk
          : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    bytes += buf.length;
    if (bytes > limit) return false;
    chunks.push(buf);
    return true;
  };
  if (isEmitter(body)) {
    // 'data' events: an async iterator costs a promise per chunk, which shows on a thousand pages
    await new Promise<void>((resolve, reject) => {
      body.on("data", (chunk: Buffer) => {
        if (!add(chunk)) {
          body.destroy();
          reject(new BodyTooLargeError(limit));
        }
      });
      body.on("end", () => resolve());
      body.on("error", (err: unknown) => reject(cutShort(err)));
    });
  } else {
    try {
      for await (const chunk of body) {
        if (!add(chunk)) {
          body.destroy();
          throw new BodyTooLargeError(limit);
        }
      }
    } catch (err) {
      throw err instanceof BodyTooLargeError ? err : cutShort(err);
    }
  }
  const all = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, bytes);
  const invalidUtf8 = !isUtf8(all);
  let text = all.toString("utf8");
  // as undici's text() did: a byte order mark is not part of the JSON
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  // valid UTF-8 with as many characters as bytes: every byte is ASCII
  return { text, bytes, invalidUtf8, ascii: !invalidUtf8 && text.length === all.length ? all : undefined };
}

function isEmitter(body: Body): body is Body & { on(event: string, fn: (...args: never[]) => void): unknown } {
  return typeof (body as { on?: unknown }).on === "function";
}
