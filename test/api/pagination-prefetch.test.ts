// paginate({ prefetch: true }) against a loopback server: the next page is asked for while the caller
// still holds this one, never more than one ahead, and a caller that stops takes the request with it.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createTransport, type ApiClient } from "../../src/api/client.js";
import { paginate } from "../../src/api/pagination.js";
import { HttpError } from "../../src/errors.js";
import { testWire } from "../helpers/wires.js";

interface PageServer {
  url: string;
  /** request paths as received */
  requests: string[];
  /** request numbers (1-based) whose client went away before the answer */
  abandoned: number[];
  /** resolves when the nth request has arrived */
  arrived(n: number): Promise<void>;
  close(): Promise<void>;
}

/** `pages` pages of two items each; `held` request numbers get no answer, `failing` a 503. */
async function startPageServer(pages: number, opts: { held?: number[]; failing?: number[] } = {}): Promise<PageServer> {
  const requests: string[] = [];
  const abandoned: number[] = [];
  const waiters = new Map<number, () => void>();
  const server: Server = createServer((req, res) => {
    const n = requests.push(req.url!);
    waiters.get(n)?.();
    res.on("close", () => {
      if (!res.writableFinished) abandoned.push(n);
    });
    if (opts.held?.includes(n)) return;
    if (opts.failing?.includes(n)) {
      res.writeHead(503, { "content-type": "application/json" });
      res.end(JSON.stringify({ detail: "page unavailable" }));
      return;
    }
    const page = Number(new URL(req.url!, "http://x").searchParams.get("cursor") ?? 0);
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (page + 1 < pages) headers.link = `</items?cursor=${page + 1}>; rel="next"`;
    res.writeHead(200, headers);
    res.end(JSON.stringify({ items: [page * 2, page * 2 + 1] }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    abandoned,
    arrived: (n) => (requests.length >= n ? Promise.resolve() : new Promise((r) => waiters.set(n, r))),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(pages: number, opts: { held?: number[]; failing?: number[] } = {}) {
  const server = await startPageServer(pages, opts);
  const wire = testWire("node:http");
  const ac = new AbortController();
  cleanups.push(
    () => server.close(),
    () => wire.close(),
  );
  const client = createTransport({
    baseUrl: server.url,
    token: "t",
    wire,
    timeoutMs: 10_000,
    retry: false,
    insecure: false,
    signal: ac.signal,
    now: () => new Date(),
  });
  const walk = (extra: { limit?: number } = {}) =>
    paginate<number>(client, "/items", undefined, { parse: (body) => (body as { items: number[] }).items, prefetch: true, ...extra });
  return { server, walk };
}

describe("paginate with prefetch", () => {
  it("yields the pages in order, each once, and asks for each page once", async () => {
    const { server, walk } = await setup(5);
    const got: number[][] = [];
    for await (const page of walk()) got.push(page.events);
    expect(got).toEqual([
      [0, 1],
      [2, 3],
      [4, 5],
      [6, 7],
      [8, 9],
    ]);
    expect(server.requests).toEqual(["/items", "/items?cursor=1", "/items?cursor=2", "/items?cursor=3", "/items?cursor=4"]);
    expect(server.abandoned).toEqual([]);
  });

  it("asks for the next page while the caller still holds this one, and no further", async () => {
    const { server, walk } = await setup(5);
    const pages = walk();
    const first = await pages.next();
    expect(first.value!.events).toEqual([0, 1]);
    // the caller has not asked for page 2: it is on its way all the same, page 3 is not
    await server.arrived(2);
    expect(server.requests).toEqual(["/items", "/items?cursor=1"]);
    expect((await pages.next()).value!.events).toEqual([2, 3]);
    await pages.return(undefined);
  });

  it("a failure of the page asked ahead comes after the pages before it, as the walk reaches it", async () => {
    const { server, walk } = await setup(5, { failing: [3] });
    const got: number[][] = [];
    let error: unknown;
    try {
      for await (const page of walk()) got.push(page.events);
    } catch (err) {
      error = err;
    }
    expect(got).toEqual([
      [0, 1],
      [2, 3],
    ]);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).message).toContain("503");
    expect(server.requests).toEqual(["/items", "/items?cursor=1", "/items?cursor=2"]);
  });

  it("asks for the page beyond before parsing the page asked ahead (the server prepares one while mq parses the other)", async () => {
    const server = await startPageServer(4);
    const wire = testWire("node:http");
    const ac = new AbortController();
    cleanups.push(
      () => server.close(),
      () => wire.close(),
    );
    const transport = createTransport({
      baseUrl: server.url,
      token: "t",
      wire,
      timeoutMs: 10_000,
      retry: false,
      insecure: false,
      signal: ac.signal,
      now: () => new Date(),
    });
    const log: string[] = [];
    const client: ApiClient = {
      baseUrl: transport.baseUrl,
      async get(target, query, request) {
        const url = new URL(String(target), server.url);
        const page = url.searchParams.get("cursor") ?? "0";
        log.push(`get ${page}${request?.deferParse ? " (deferred)" : ""}`);
        const res = await transport.get(target, query, request);
        // the body as paginate reads it: the moment it is parsed
        return Object.defineProperty({ ...res }, "body", { get: () => (log.push(`parse ${page}`), res.body) });
      },
    };
    const got: number[][] = [];
    for await (const page of paginate<number>(client, "/items", undefined, {
      parse: (body) => (body as { items: number[] }).items,
      prefetch: true,
    }))
      got.push(page.events);
    expect(got).toEqual([
      [0, 1],
      [2, 3],
      [4, 5],
      [6, 7],
    ]);
    // the first page is parsed as it comes (nothing to ask for before it); each page asked ahead after
    // the request for the one beyond it is out
    expect(log).toEqual(["get 0", "get 1 (deferred)", "parse 0", "get 2 (deferred)", "parse 1", "get 3 (deferred)", "parse 2", "parse 3"]);
  });

  it("a caller that stops aborts the page asked ahead", async () => {
    const { server, walk } = await setup(5, { held: [2] });
    for await (const page of walk()) {
      expect(page.events).toEqual([0, 1]);
      await server.arrived(2);
      break;
    }
    await expect.poll(() => server.abandoned).toEqual([2]);
    expect(server.requests).toEqual(["/items", "/items?cursor=1"]);
  });

  it("with a limit, asks ahead only for a page the walk will read", async () => {
    const { server, walk } = await setup(5);
    const got: number[][] = [];
    for await (const page of walk({ limit: 4 })) got.push(page.events);
    expect(got).toEqual([
      [0, 1],
      [2, 3],
    ]);
    expect(server.requests).toEqual(["/items", "/items?cursor=1"]);
  });
});
