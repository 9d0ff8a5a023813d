import { describe, expect, it } from "vitest";
import { cursorOf, paginate, parseLinkHeader, type Page } from "../../src/api/pagination.js";
import type { ApiClient, ApiResponse } from "../../src/api/client.js";
import { InterruptedError } from "../../src/errors.js";

describe("parseLinkHeader", () => {
  it("parses several links in one header", () => {
    const links = parseLinkHeader(
      '<https://api.test/v1/repos/a/b/logs?cursor=n1>; rel="next", <https://api.test/v1/repos/a/b/logs?cursor=p0>; rel="prev"',
    );
    expect(links).toEqual([
      { url: "https://api.test/v1/repos/a/b/logs?cursor=n1", rel: ["next"], params: { rel: "next" } },
      { url: "https://api.test/v1/repos/a/b/logs?cursor=p0", rel: ["prev"], params: { rel: "prev" } },
    ]);
  });

  it("accepts a bare rel, upper case, and extra parameters", () => {
    expect(parseLinkHeader('<https://x.test/p?cursor=2>;REL=Next;title="page, two"')).toEqual([
      { url: "https://x.test/p?cursor=2", rel: ["next"], params: { rel: "Next", title: "page, two" } },
    ]);
  });

  it("splits several relation types in one rel", () => {
    expect(parseLinkHeader('<https://x.test/p?c=9>; rel="next last"')[0]!.rel).toEqual(["next", "last"]);
  });

  it("resolves relative URLs against the request URL", () => {
    const base = "https://api.test/v1/repos/a/b/logs?per_page=10";
    expect(parseLinkHeader('</v1/repos/a/b/logs?cursor=abc>; rel="next"', base)[0]!.url).toBe(
      "https://api.test/v1/repos/a/b/logs?cursor=abc",
    );
    expect(parseLinkHeader('<logs?cursor=abc>; rel="next"', base)[0]!.url).toBe("https://api.test/v1/repos/a/b/logs?cursor=abc");
  });

  it("keeps commas and semicolons inside <> and quotes", () => {
    const links = parseLinkHeader('<https://x.test/p?a=1,2;b=3>; rel="next"; title="a, b; c", <https://x.test/q>; rel=first');
    expect(links.map((l) => [l.url, l.rel])).toEqual([
      ["https://x.test/p?a=1,2;b=3", ["next"]],
      ["https://x.test/q", ["first"]],
    ]);
    expect(links[0]!.params.title).toBe("a, b; c");
  });

  it("skips malformed parts and keeps the rest", () => {
    expect(parseLinkHeader('garbage; rel="x", <https://x.test/ok>; rel="next"').map((l) => l.url)).toEqual(["https://x.test/ok"]);
    expect(parseLinkHeader("")).toEqual([]);
  });

  it("keeps the first rel when a link repeats it", () => {
    expect(parseLinkHeader('<https://x.test/a>; rel="next"; rel="prev"')[0]!.rel).toEqual(["next"]);
  });
});

describe("cursorOf", () => {
  it("reads the cursor query parameter", () => {
    expect(cursorOf("https://x.test/logs?per_page=5&cursor=a%2Bb")).toBe("a+b");
    expect(cursorOf("https://x.test/logs")).toBeUndefined();
    // a URL object is read as it is, not parsed again: the same answers
    expect(cursorOf(new URL("https://x.test/logs?per_page=5&cursor=a%2Bb"))).toBe("a+b");
    expect(cursorOf(new URL("https://x.test/logs?cursor="))).toBe("");
    expect(cursorOf(new URL("https://x.test/logs"))).toBeUndefined();
    expect(cursorOf("not a url")).toBeUndefined();
  });
});

/** A client that answers from a map of URL -> page, recording each request. */
function fakeClient(pages: Record<string, { events: number[]; link?: string }>) {
  const requests: string[] = [];
  const client: ApiClient = {
    baseUrl: new URL("https://api.test/v1"),
    async get(pathOrUrl, query) {
      const url = new URL(String(pathOrUrl), "https://api.test/v1/");
      if (query) for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) url.searchParams.append(k, String(v));
      requests.push(url.href);
      const page = pages[url.href];
      if (!page) throw new Error(`unexpected request ${url.href}`);
      const res: ApiResponse = { url, status: 200, headers: { link: page.link }, body: page.events };
      return res;
    },
  };
  return { client, requests };
}

async function collect<T>(gen: AsyncGenerator<Page<T>>): Promise<Page<T>[]> {
  const out: Page<T>[] = [];
  for await (const p of gen) out.push(p);
  return out;
}

const L = "https://api.test/v1/logs";
const parse = (body: unknown) => body as number[];

describe("paginate", () => {
  it("follows rel=next from a server that sends only next and prev", async () => {
    const { client, requests } = fakeClient({
      [`${L}`]: { events: [1, 2], link: `<${L}?cursor=c2>; rel="next"` },
      [`${L}?cursor=c2`]: { events: [3, 4], link: `<${L}?cursor=c3>; rel="next", <${L}?cursor=c1>; rel="prev"` },
      [`${L}?cursor=c3`]: { events: [5], link: `<${L}?cursor=c2>; rel="prev"` },
    });
    const pages = await collect(paginate(client, "logs", undefined, { parse }));
    expect(pages.map((p) => [p.events, p.cursor, p.nextUrl?.href, p.truncated])).toEqual([
      [[1, 2], undefined, `${L}?cursor=c2`, false],
      [[3, 4], "c2", `${L}?cursor=c3`, false],
      [[5], "c3", undefined, false],
    ]);
    expect(requests).toEqual([L, `${L}?cursor=c2`, `${L}?cursor=c3`]);
  });

  it("stops at a single page without a Link header", async () => {
    const { client } = fakeClient({ [`${L}?per_page=5`]: { events: [1] } });
    const pages = await collect(paginate(client, "logs", { per_page: 5 }, { parse }));
    expect(pages).toHaveLength(1);
    expect(pages[0]!.nextUrl).toBeUndefined();
  });

  it("stops at the limit, cutting the page and marking the result truncated", async () => {
    const { client, requests } = fakeClient({
      [L]: { events: [1, 2], link: `<${L}?cursor=c2>; rel="next"` },
      [`${L}?cursor=c2`]: { events: [3, 4], link: `<${L}?cursor=c3>; rel="next"` },
    });
    const pages = await collect(paginate(client, "logs", undefined, { parse, limit: 3 }));
    expect(pages.map((p) => p.events)).toEqual([[1, 2], [3]]);
    expect(pages[1]!.truncated).toBe(true);
    expect(pages[1]!.nextUrl).toBeUndefined();
    expect(requests).toHaveLength(2);
  });

  it("marks the result truncated when the limit ends exactly at a page with a next link", async () => {
    const { client } = fakeClient({ [L]: { events: [1, 2], link: `<${L}?cursor=c2>; rel="next"` } });
    const pages = await collect(paginate(client, "logs", undefined, { parse, limit: 2 }));
    expect(pages.map((p) => [p.events, p.truncated])).toEqual([[[1, 2], true]]);
  });

  it("stops when a next link repeats a cursor already seen", async () => {
    const repeats: string[] = [];
    const { client, requests } = fakeClient({
      [`${L}?cursor=a`]: { events: [1], link: `<${L}?cursor=b>; rel="next"` },
      [`${L}?cursor=b`]: { events: [2], link: `<${L}?per_page=1&cursor=a>; rel="next"` },
    });
    const pages = await collect(paginate(client, "logs", { cursor: "a" }, { parse, onRepeat: (u) => repeats.push(u.href) }));
    expect(pages.map((p) => p.events)).toEqual([[1], [2]]);
    expect(requests).toEqual([`${L}?cursor=a`, `${L}?cursor=b`]);
    expect(repeats).toEqual([`${L}?per_page=1&cursor=a`]);
  });

  it("a next link that repeats the URL already fetched: the page is yielded, then a contract error", async () => {
    const { client, requests } = fakeClient({ [L]: { events: [1], link: `<${L}>; rel="next"` } });
    const got: unknown[] = [];
    const walk = (async () => {
      for await (const p of paginate(client, "logs", undefined, { parse })) got.push(...p.events);
    })();
    await expect(walk).rejects.toThrow(
      /^the server's next-page link repeats a page already fetched \(cursor .*\): its pagination would loop$/,
    );
    expect(got).toEqual([1]);
    expect(requests).toEqual([L]);
  });

  it("throws InterruptedError once the signal is aborted", async () => {
    const ac = new AbortController();
    const { client, requests } = fakeClient({
      [L]: { events: [1], link: `<${L}?cursor=c2>; rel="next"` },
    });
    const gen = paginate(client, "logs", undefined, { parse, signal: ac.signal });
    await gen.next();
    ac.abort();
    await expect(gen.next()).rejects.toBeInstanceOf(InterruptedError);
    expect(requests).toEqual([L]);
  });
});

describe("parseLinkHeader: what it could not read", () => {
  it("reports the relations of links it skipped", () => {
    const broken: string[][] = [];
    const links = parseLinkHeader(
      '<http://[::1/x>; rel="next", nonsense; rel=prev, <https://x.test/ok>; rel="first", </unclosed; rel="next last"',
      "https://x.test/",
      broken,
    );
    expect(links.map((l) => l.url)).toEqual(["https://x.test/ok"]);
    expect(broken).toEqual([["next"], ["prev"], ["next", "last"]]);
  });
});

describe("parseLinkHeader reads characters by code (it runs every page): the same links as the regex version it replaced", () => {
  it("quoted pairs: the backslash goes, the character after it stays, an escaped quote does not end the value", () => {
    expect(parseLinkHeader('<https://x.test/a>; rel="next"; title="a\\"b\\\\c"')[0]!.params.title).toBe('a"b\\c');
  });

  it("agrees with the previous parser on generated headers", async () => {
    const fc = (await import("fast-check")).default;
    const piece = fc.constantFrom(
      "<",
      ">",
      ";",
      ",",
      "=",
      '"',
      "\\",
      " ",
      "\t",
      "\r",
      "\n",
      "rel",
      "next",
      "REL",
      "https://x.test/p?c=1",
      "title",
      "a",
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 40 }).map((xs) => xs.join("")),
        (header) => {
          const brokenNow: string[][] = [];
          const brokenBefore: string[][] = [];
          expect(parseLinkHeader(header, "https://x.test/", brokenNow)).toEqual(
            previousParseLinkHeader(header, "https://x.test/", brokenBefore),
          );
          expect(brokenNow).toEqual(brokenBefore);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

// the parser as it was before it read character codes (commit c73b658), the reference above
const PREVIOUS_WS = /[ \t\r\n]/;
function previousParseLinkHeader(header: string, base?: string | URL, broken?: string[][]): ReturnType<typeof parseLinkHeader> {
  const links: ReturnType<typeof parseLinkHeader> = [];
  let i = 0;
  const n = header.length;
  const skipWs = () => {
    while (i < n && PREVIOUS_WS.test(header[i]!)) i++;
  };
  const skipToNextLink = () => {
    // resumes after the next comma that is outside quotes and brackets
    const from = i;
    let quoted = false;
    while (i < n) {
      const c = header[i]!;
      if (quoted) {
        if (c === "\\") i++;
        else if (c === '"') quoted = false;
      } else if (c === '"') quoted = true;
      else if (c === ",") break;
      i++;
    }
    if (broken !== undefined) {
      const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(header.slice(from, i));
      if (rel)
        broken.push(
          (rel[1] ?? rel[2] ?? "")
            .split(/[ \t]+/)
            .filter(Boolean)
            .map((r) => r.toLowerCase()),
        );
    }
    i++;
  };

  while (i < n) {
    skipWs();
    if (header[i] === ",") {
      i++;
      continue;
    }
    if (i >= n) break;
    if (header[i] !== "<") {
      skipToNextLink();
      continue;
    }
    const close = header.indexOf(">", i + 1);
    if (close < 0) {
      skipToNextLink();
      continue;
    }
    const target = header.slice(i + 1, close).trim();
    i = close + 1;
    const params: Record<string, string> = {};
    for (;;) {
      skipWs();
      if (header[i] !== ";") break;
      i++;
      skipWs();
      let name = "";
      while (i < n && !/[=;,]/.test(header[i]!) && !PREVIOUS_WS.test(header[i]!)) name += header[i++];
      name = name.toLowerCase();
      skipWs();
      let value = "";
      if (header[i] === "=") {
        i++;
        skipWs();
        if (header[i] === '"') {
          i++;
          while (i < n && header[i] !== '"') {
            if (header[i] === "\\" && i + 1 < n) i++;
            value += header[i++];
          }
          i++;
        } else {
          while (i < n && !/[;,]/.test(header[i]!) && !PREVIOUS_WS.test(header[i]!)) value += header[i++];
        }
      }
      if (name && !(name in params)) params[name] = value;
    }
    skipWs();
    if (i < n && header[i] !== ",") {
      skipToNextLink();
    }
    const rel = (params.rel ?? "")
      .split(/[ \t]+/)
      .filter(Boolean)
      .map((r) => r.toLowerCase());
    let url = target;
    if (base !== undefined) {
      try {
        url = new URL(target, base).href;
      } catch {
        broken?.push(rel);
        continue;
      }
    }
    links.push({ url, rel, params });
  }
  return links;
}
