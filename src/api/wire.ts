// What the transport (api/client.ts) needs from an HTTP library: send one GET, hand back the status,
// the headers and the body as a stream. Two implement it: node:http (api/node-wire.ts, the default:
// Node's native parser, nothing to load) and undici (api/undici-wire.ts: proxies and injected
// dispatchers). Everything above this line — deadlines, retries, the body cap, UTF-8, the token's
// origin, every error message — lives once, in client.ts, for both.

/** Response headers: lower-case names; a header sent more than once is an array, in order. */
export type WireHeaders = Record<string, string | string[] | undefined>;

/** The body of a response: read with 'data' events (or iterated) and destroyed to drop the connection. */
export interface WireBody extends AsyncIterable<Buffer | Uint8Array | string> {
  on(event: string, listener: (...args: never[]) => void): unknown;
  destroy(error?: Error): unknown;
}

export interface WireResponse {
  status: number;
  headers: WireHeaders;
  body: WireBody;
  /** read and drop a body mq will not use (an answer it retries), keeping the connection when cheap */
  discard(): Promise<void>;
}

export interface Wire {
  /** which library carries the requests (--debug names it) */
  readonly name: "node:http" | "undici";
  /**
   * One GET. Resolves when the status and headers are in; rejects with the library's error (its
   * `code` is what client.ts maps). Aborting `signal` ends the request and its body.
   */
  request(url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<WireResponse>;
  /** close the idle keep-alive connections */
  close(): Promise<void>;
}

/**
 * The error code of a connection not made within the connect timeout: undici's own, which the
 * node:http wire gives too, so that one code means one thing in client.ts's mapping.
 */
export const CONNECT_TIMEOUT_CODE = "UND_ERR_CONNECT_TIMEOUT";

/** The most of an unwanted body read to keep its connection; past it the connection is dropped. */
export const DISCARD_LIMIT_BYTES = 128 * 1024;
