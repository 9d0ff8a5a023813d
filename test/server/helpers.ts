// Small HTTP helpers for the server tests: real requests over loopback, no client library.
export const NOW = new Date("2026-11-20T12:00:00Z");
export const AUTH = { authorization: "Bearer test-token" };

export interface Got {
  status: number;
  headers: Headers;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** the URL of the last request: a relative Link target resolves against it, as RFC 8288 says */
let lastUrl: string | undefined;

/** GET `url`; a relative one (a Link target as the server writes it) resolves against the previous request's URL */
export async function get(url: string, headers: Record<string, string> = AUTH, method = "GET"): Promise<Got> {
  const absolute = new URL(url, lastUrl).href;
  lastUrl = absolute;
  const res = await fetch(absolute, { headers, method });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** the URL of a rel in a Link header */
export function linkOf(header: string | null, rel: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(/,\s*(?=<)/)) {
    const m = /^<([^>]*)>;\s*rel="([^"]*)"$/.exec(part.trim());
    if (m && m[2] === rel) return m[1];
  }
  return undefined;
}

export interface Ev {
  id: number;
  received_at: string;
  type: string;
  pull_request: number | null;
  base_ref: string | null;
  metadata: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** follows rel="next" from `url` and returns every event, in the order served */
export async function walk(url: string, rel = "next"): Promise<{ events: Ev[]; pages: number }> {
  const events: Ev[] = [];
  let next: string | undefined = url;
  let pages = 0;
  while (next) {
    const r = await get(next);
    if (r.status !== 200) throw new Error(`${r.status} ${r.text}`);
    events.push(...(r.json.events as Ev[]));
    pages++;
    next = linkOf(r.headers.get("link"), rel);
    if (pages > 10_000) throw new Error("pagination does not end");
  }
  return { events, pages };
}

export function qs(params: Record<string, string | number | readonly string[]>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (Array.isArray(v)) for (const x of v) p.append(k, x);
    else p.append(k, String(v));
  }
  return p.toString();
}
