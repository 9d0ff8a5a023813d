// A server written by an attacker: every class of character that can take over a terminal, reorder
// a line, hide text or forge a CI workflow command, put into every field mq renders. Events are
// the bundled fixtures (one per type) with each string field that the contract still accepts
// replaced by `original + payload`, once per payload class, so both the hand-written summaries and
// the key=value fallback meet every class; extra events carry payloads in their type and metadata
// keys. Statistics answers get payloads in every group key and name. The repository name picks a
// scenario: errors whose `detail`, headers, Link cursor or contract message carry the payloads.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { validateEvent } from "../../src/api/schema/events.js";
import { parseStatsResponse, isStatsEndpointName } from "../../src/api/schema/stats.js";
import { startFaultServer, type FaultServer, type Reply } from "./fault-server.js";

export interface HostileClass {
  name: string;
  text: string;
}

/** What an attacker puts in a string. Each class is tried in every field. */
export const HOSTILE_CLASSES: readonly HostileClass[] = [
  { name: "CSI: clear screen, cursor home", text: "\x1b[2J\x1b[H" },
  { name: "OSC 52: write the clipboard", text: "\x1b]52;c;cHduZWQ=\x07" },
  { name: "OSC 0: retitle the window", text: "\x1b]0;pwned\x07" },
  { name: "OSC 8: hyperlink", text: "\x1b]8;;https://evil.example/\x1b\\click here\x1b]8;;\x1b\\" },
  { name: "SGR: the server's own colours", text: "\x1b[31;1mRED\x1b[0m" },
  { name: "CR: overwrite the row", text: "safe\rEVIL" },
  { name: "LF + ::error:: workflow command", text: "x\n::error::spoofed" },
  { name: "LF + ::add-mask:: workflow command", text: "x\n::add-mask::hidden" },
  { name: "LF + ##[error] legacy workflow command", text: "x\n##[error]legacy" },
  { name: "C0: NUL BEL BS VT FF", text: "\x00\x07\x08\x0b\x0c" },
  { name: "DEL", text: "a\x7fb" },
  { name: "C1: CSI, OSC, ST", text: "\x9b2J\x9d0;c1title\x9c" },
  { name: "bidi override (RLO)", text: "\u202Egnp.exe" },
  { name: "bidi embeddings and isolates", text: "\u202A\u202B\u202C\u202D\u2066\u2067\u2068\u2069" },
  { name: "bidi marks (LRM, RLM, ALM)", text: "\u200E\u200F\u061C" },
  { name: "zero-width characters and BOM", text: "a\u200B\u200Db\u2060\uFEFF" },
  { name: "line and paragraph separators", text: "a\u2028b\u2029c" },
  { name: "tag characters (hidden ASCII)", text: "hi\u{E0041}\u{E0042}" },
  { name: "lone surrogate", text: "x\uD800y" },
  { name: "tab", text: "a\tb" },
  { name: "wide, combining and emoji characters (benign: widths)", text: "中文e\u0301👨‍👩‍👧" },
];

const FIXTURES = resolve(import.meta.dirname, "../../src/api/fixtures");

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Replaces each string leaf of `value` with `leaf + payload` where `accepts` still holds, one leaf
 * at a time, so what the contract rejects (dates, enums) stays valid and the rest turns hostile.
 */
function poison<T extends Json>(value: T, payload: string, accepts: (v: T) => boolean, skip: (path: string[]) => boolean = () => false): T {
  const copy = structuredClone(value);
  const leaves: Array<{ holder: Record<string, Json> | Json[]; key: string | number; path: string[] }> = [];
  const walk = (v: Json, path: string[]) => {
    if (Array.isArray(v))
      v.forEach((x, i) =>
        typeof x === "string" ? leaves.push({ holder: v, key: i, path: [...path, String(i)] }) : walk(x, [...path, String(i)]),
      );
    else if (v !== null && typeof v === "object")
      for (const [k, x] of Object.entries(v))
        typeof x === "string" ? leaves.push({ holder: v, key: k, path: [...path, k] }) : walk(x, [...path, k]);
  };
  walk(copy, []);
  for (const leaf of leaves) {
    if (skip(leaf.path)) continue;
    const holder = leaf.holder as Record<string | number, Json>;
    const before = holder[leaf.key] as string;
    holder[leaf.key] = before + payload;
    if (!accepts(copy)) holder[leaf.key] = before;
  }
  return copy;
}

export interface HostileEvent {
  id: number;
  received_at: string;
  type: string;
  [key: string]: unknown;
}

/** Every fixture event once per class (payloads wherever the contract allows), plus hostile types and keys. */
export function hostileEvents(): HostileEvent[] {
  const fixtures = JSON.parse(readFileSync(`${FIXTURES}/events.json`, "utf8")) as Json[];
  const out: HostileEvent[] = [];
  let id = 5_000_000;
  const at = (n: number) => new Date(Date.parse("2026-11-20T11:59:00Z") - n * 1000).toISOString();
  for (const cls of HOSTILE_CLASSES) {
    for (const fixture of fixtures) {
      // the type picks the summary: kept, so each hand-written sentence meets the payload
      const ev = poison(
        fixture as { [k: string]: Json },
        cls.text,
        (e) => validateEvent(e).ok,
        (p) => p[0] === "type" || p[0] === "received_at",
      );
      out.push({ ...(ev as object), id: id, received_at: at(out.length) } as HostileEvent);
      id--;
    }
    // an unknown type and metadata keys: the key=value fallback and the TYPE column
    out.push({
      id: id--,
      received_at: at(out.length),
      trigger: `rule${cls.text}`,
      repository: "acme/web",
      pull_request: 7,
      base_ref: `main${cls.text}`,
      type: `custom.type${cls.text}`,
      metadata: { [`key${cls.text}`]: `value${cls.text}`, nested: { [`k${cls.text}`]: [cls.text] }, who: { login: `user${cls.text}` } },
    });
  }
  return out;
}

/** A statistics answer from the fixtures, with a payload in every group key and name. */
export function hostileStats(name: string, cls: HostileClass): Json {
  const fixtures = JSON.parse(readFileSync(`${FIXTURES}/stats.json`, "utf8")) as Record<string, Json>;
  const body = fixtures[name];
  if (body === undefined || !isStatsEndpointName(name)) throw new Error(`no fixture for ${name}`);
  return poison(
    body,
    cls.text,
    (b) => {
      try {
        parseStatsResponse(name, b);
        return true;
      } catch {
        return false;
      }
    },
    (p) => p[p.length - 1] === "start" || p[p.length - 1] === "end",
  );
}

/** Statistics endpoints the fixtures cover, as CLI names (`failure-rate`) and API paths (`failure_rate`). */
export function statsNames(): string[] {
  return Object.keys(JSON.parse(readFileSync(`${FIXTURES}/stats.json`, "utf8")) as object);
}

/** Every payload class joined: one string that holds them all. */
export const ALL_PAYLOADS = HOSTILE_CLASSES.map((c) => c.text).join("|");

/** A cursor as the Link header carries it: percent-encoded, so `%1B` decodes to a real ESC. */
export const HOSTILE_CURSOR = `c1${ALL_PAYLOADS}`;

export interface HostileServer extends FaultServer {
  events: HostileEvent[];
}

/**
 * Scenarios by repository (`--repo acme/<scenario>`):
 * - `web`: the event log in pages of 100 (Link cursors carrying every payload), statistics with
 *   payloads in every group key (one class per group, all classes over the groups).
 * - `broken`: page 1, then a 500 whose `detail` carries every payload (a resume hint with the cursor).
 * - `denied`: a 403 whose `detail` is `denied\n::error::spoofed` and every payload.
 * - `validation`: a 422 in FastAPI's list shape with payloads in `loc` and `msg`.
 * - `notjson`: a 200 with a hostile Content-Type and a text body.
 * - `redirect`: a 302 to a hostile Location.
 * - `contract`: a page whose event breaks the contract with a hostile `received_at`.
 * - `throttled`: a 429 with a hostile Retry-After.
 */
export async function startHostileServer(): Promise<HostileServer> {
  const events = hostileEvents();
  const perPage = 100;
  const server = await startFaultServer((_n, url) => route(url));
  function route(url: URL): Reply {
    const m = /^\/v1\/repos\/acme\/([^/]+)\/(logs|stats\/([a-z_]+))$/.exec(url.pathname);
    if (!m) return { status: 404, body: { detail: `no such path${ALL_PAYLOADS}` } };
    const [, scenario, what, statsPath] = m;
    const cursor = url.searchParams.get("cursor");
    switch (scenario) {
      case "denied":
        return { status: 403, body: { detail: `denied\n::error::spoofed\n${ALL_PAYLOADS}` } };
      case "validation":
        return {
          status: 422,
          body: { detail: [{ loc: ["query", `per_page${ALL_PAYLOADS}`], msg: `bad${ALL_PAYLOADS}`, type: "value_error" }] },
        };
      case "notjson":
        return raw(200, { "content-type": HOSTILE_HEADER_BYTES }, `not json${ALL_PAYLOADS}`);
      case "redirect":
        return raw(302, { location: Buffer.concat([Buffer.from("https://evil.example/"), HOSTILE_HEADER_BYTES]) }, "");
      case "contract": {
        const bad = { ...events[0]!, received_at: `yesterday${ALL_PAYLOADS}` };
        return { status: 200, body: { size: 1, per_page: 1, events: [bad] } };
      }
      case "throttled":
        return raw(
          429,
          { "retry-after": HOSTILE_HEADER_BYTES, "content-type": Buffer.from("application/json") },
          JSON.stringify({ detail: `slow down${ALL_PAYLOADS}` }),
        );
      case "broken":
        if (cursor !== null) return { status: 500, body: { detail: `database gone\n::error::spoofed${ALL_PAYLOADS}` } };
        return page("broken", 0, 10);
      default:
        break;
    }
    if (what === "logs") {
      const pageNo = cursor === null ? 0 : Number(/#(\d+)$/.exec(cursor)?.[1] ?? 0);
      return page(scenario!, pageNo, perPage);
    }
    const name = statsPath!.replace(/_/g, "-");
    return { status: 200, body: hostileStatsAll(name) };
  }
  function page(repo: string, pageNo: number, size: number): Reply {
    const slice = events.slice(pageNo * size, (pageNo + 1) * size);
    const more = (pageNo + 1) * size < events.length;
    const next = `/v1/repos/acme/${repo}/logs?per_page=${size}&cursor=${percentEncode(`${HOSTILE_CURSOR}#${pageNo + 1}`)}`;
    return {
      status: 200,
      body: { size: slice.length, per_page: size, events: slice },
      headers: more ? { link: `<${server.url}${next}>; rel="next"` } : {},
    };
  }
  return Object.assign(server, { events });
}

/**
 * What a header value can carry past undici: it refuses C0 controls (ESC included), but reads bytes
 * 0x80-0xFF as latin1, so 0x9B is a C1 CSI and UTF-8 bidi characters arrive as C1 bytes too.
 */
export const HOSTILE_HEADER_BYTES = Buffer.concat([
  Buffer.from("text/x; a="),
  Buffer.from([0x9b, 0x32, 0x4a, 0x9d, 0x30, 0x3b, 0x74, 0x9c]),
  Buffer.from("\u202Egnp\u2066", "utf8"),
]);

/** A whole HTTP answer as bytes: header values Node's own server would refuse to write. */
function raw(status: number, headers: Record<string, Buffer>, body: string): Reply {
  const bodyBytes = Buffer.from(body, "utf8");
  const lines: Buffer[] = [Buffer.from(`HTTP/1.1 ${status} X\r\ncontent-length: ${bodyBytes.length}\r\nconnection: close\r\n`)];
  for (const [name, value] of Object.entries(headers)) lines.push(Buffer.from(`${name}: `), value, Buffer.from("\r\n"));
  lines.push(Buffer.from("\r\n"), bodyBytes);
  return { kind: "raw", bytes: Buffer.concat(lines) };
}

/** Every byte outside the unreserved set as %XX (a lone surrogate goes out as U+FFFD's bytes). */
function percentEncode(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8"))
    out += /[A-Za-z0-9._~-]/.test(String.fromCharCode(byte))
      ? String.fromCharCode(byte)
      : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  return out;
}

/** Each group of the fixture repeated once per class, the class in its keys; lists get one name per class. */
function hostileStatsAll(name: string): Json {
  const all = HOSTILE_CLASSES.map((cls) => hostileStats(name, cls));
  if (Array.isArray(all[0])) return (all as Json[][]).flat();
  const bodies = all as Array<{ [k: string]: Json }>;
  const first = bodies[0]!;
  const merged: { [k: string]: Json } = { ...first };
  for (const key of Object.keys(first)) {
    if (Array.isArray(first[key])) merged[key] = bodies.flatMap((b) => b[key] as Json[]);
  }
  return merged;
}
