// A small scanner over JSON text that JSON.parse has already accepted. It finds what the parsed
// value has lost: where each element of the root object's arrays starts and ends in the text, so
// `-o ndjson` and `-o json` can write an event exactly as the API sent it (integers beyond 2^53,
// `1.0`, `1e2`, `\u00e9`, key order), and how deeply the text nests, so a response nested 100,000
// levels is refused before any recursive code (validation, JSON.stringify) meets it. It never
// recurses and never builds values: one pass of character codes and a regex that skips strings.

/** [start, end) of a JSON value in the text. */
export interface Span {
  start: number;
  end: number;
  /** white space outside strings inside the span (pretty-printed JSON): compactJson removes it */
  spaced: boolean;
}

export interface JsonScan {
  /** the deepest nesting of objects and arrays; the root object is 1 */
  depth: number;
  /** the elements of each array that is a member of the root object (the last of duplicate keys, as JSON.parse) */
  rootArrays: Map<string, Span[]>;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Index just past the string that opens at `i` (a quote): the next quote not escaped by an odd run of backslashes. */
function skipString(text: string, i: number): number {
  let from = i + 1;
  for (;;) {
    const q = text.indexOf('"', from);
    if (q < 0) return text.length;
    let b = q - 1;
    while (text.charCodeAt(b) === BACKSLASH) b--;
    if ((q - 1 - b) % 2 === 0) return q + 1;
    from = q + 1;
  }
}

/** The string that opens at `start` and ends before `end`: its text, unless it has escapes to decode. */
function keyText(text: string, start: number, end: number): string {
  for (let j = start + 1; j < end - 1; j++) if (text.charCodeAt(j) === BACKSLASH) return JSON.parse(text.slice(start, end)) as string;
  return text.slice(start + 1, end - 1);
}

/**
 * The one walk both scans below make over valid JSON text in [start, end): it tracks nesting, reads
 * the keys of the object at depth 1, and reports every value whose container sits at `collect`
 * depth (1: the members of the outer object; 2: the elements of an array, or the members of an
 * object, that is a member of it), with the key of the depth-1 member it belongs to. `open` is
 * called when such a container opens. Returns the deepest nesting, or as soon as it passes
 * `maxDepth`, that depth.
 */
function walkValues(
  text: string,
  start: number,
  end: number,
  collect: 1 | 2,
  maxDepth: number,
  open: (key: string | undefined, isArray: boolean) => boolean,
  value: (key: string | undefined, span: Span) => void,
): number {
  let depth = 0;
  let deepest = 0;
  // whether the next string at depth 1 is a key, and the key of the depth-1 member being read
  let expectKey = false;
  let key: string | undefined;
  // the container being collected (at depth `collect`): reported to, an array, its value being read
  let collecting = false;
  let inArray = false;
  let afterColon = false;
  let valueStart = -1;
  let valueSpaced = false;
  let lastEnd = start;

  let i = start;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      if (valueStart >= 0) valueSpaced = true;
      i++;
      continue;
    }
    // a value starting in the collected container (an array element, or an object member's value)
    if (
      collecting &&
      depth === collect &&
      valueStart < 0 &&
      c !== COMMA &&
      c !== CLOSE_ARRAY &&
      c !== CLOSE_OBJECT &&
      c !== COLON &&
      (inArray || afterColon)
    ) {
      valueStart = i;
    }
    if (c === QUOTE) {
      const next = skipString(text, i);
      if (depth === 1 && expectKey) {
        key = keyText(text, i, next);
        expectKey = false;
      }
      i = next;
      lastEnd = next;
      continue;
    }
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > maxDepth) return deepest;
      }
      if (depth === 1 && c === OPEN_OBJECT) expectKey = true;
      if (depth === collect && (depth === 1 ? c === OPEN_OBJECT : true)) {
        collecting = open(key, c === OPEN_ARRAY);
        inArray = c === OPEN_ARRAY;
        afterColon = false;
      }
      i++;
      lastEnd = i;
      continue;
    }
    if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth === collect) {
        // the container's last value ends (no closure here: the loop's state stays in registers)
        if (collecting && valueStart >= 0) value(key, { start: valueStart, end: lastEnd, spaced: valueSpaced });
        valueStart = -1;
        valueSpaced = false;
        collecting = false;
      }
      depth--;
      i++;
      lastEnd = i;
      continue;
    }
    if (c === COMMA) {
      if (depth === collect) {
        if (collecting && valueStart >= 0) value(key, { start: valueStart, end: lastEnd, spaced: valueSpaced });
        valueStart = -1;
        valueSpaced = false;
        afterColon = false;
      }
      if (depth === 1) {
        expectKey = true;
        if (collect === 2) key = undefined;
      }
      i++;
      continue;
    }
    if (c === COLON) {
      if (depth === collect) afterColon = true;
      i++;
      continue;
    }
    // a number or a literal: up to the next delimiter
    i++;
    while (i < end) {
      const d = text.charCodeAt(i);
      if (isSpace(d) || d === COMMA || d === CLOSE_OBJECT || d === CLOSE_ARRAY || d === COLON) break;
      i++;
    }
    lastEnd = i;
  }
  return deepest;
}

/**
 * One pass over valid JSON text. Stops counting, and says so with `depth > maxDepth`, as soon as
 * the nesting passes `maxDepth`.
 *
 * The same answer as a walkValues(collect 2) of the text, in fewer steps: every page of `mq logs`
 * is scanned, so the levels it reports on (the root object, its members, the elements of its
 * arrays) are read token by token, and whatever lies deeper is skipped by skipContainer, which only
 * counts brackets and white space.
 */
export function scanJson(text: string, maxDepth = Infinity): JsonScan {
  const rootArrays = new Map<string, Span[]>();
  const end = text.length;
  let i = skipSpace(text, 0, end);
  const first = text.charCodeAt(i);
  if (first !== OPEN_OBJECT) {
    // an array or a scalar at the root: no member arrays, only the depth
    if (first !== OPEN_ARRAY) return { depth: 0, rootArrays };
    if (maxDepth < 1) return { depth: 1, rootArrays };
    skipContainer(text, i, 1, 1, maxDepth);
    return { depth: skipDeepest, rootArrays };
  }
  let deepest = 1;
  if (deepest > maxDepth) return { depth: deepest, rootArrays };
  i++;
  for (;;) {
    i = skipSpace(text, i, end);
    if (i >= end) break;
    const c = text.charCodeAt(i);
    if (c === CLOSE_OBJECT) break;
    if (c === COMMA) {
      i++;
      continue;
    }
    // a member: its key, a colon, its value at depth 2
    const keyEnd = skipString(text, i);
    const key = keyText(text, i, keyEnd);
    i = skipSpace(text, keyEnd, end) + 1;
    i = skipSpace(text, i, end);
    const v = text.charCodeAt(i);
    if (v === QUOTE) {
      i = skipString(text, i);
      continue;
    }
    if (v !== OPEN_OBJECT && v !== OPEN_ARRAY) {
      i = skipScalar(text, i, end);
      continue;
    }
    if (deepest < 2) {
      deepest = 2;
      if (deepest > maxDepth) return { depth: deepest, rootArrays };
    }
    if (v === OPEN_OBJECT) {
      i = skipContainer(text, i, 2, deepest, maxDepth);
      deepest = skipDeepest;
      if (deepest > maxDepth) return { depth: deepest, rootArrays };
      continue;
    }
    // an array member: the span of each element (the last of duplicate keys wins, as JSON.parse)
    const elements: Span[] = [];
    rootArrays.set(key, elements);
    i++;
    let valueStart = -1;
    let spaced = false;
    let lastEnd = i;
    for (;;) {
      if (i >= end) break;
      const e = text.charCodeAt(i);
      if (e <= 0x20) {
        // white space (the only characters this low outside strings in valid JSON)
        if (valueStart >= 0) spaced = true;
        i++;
        continue;
      }
      if (e === COMMA || e === CLOSE_ARRAY) {
        if (valueStart >= 0) elements.push({ start: valueStart, end: lastEnd, spaced });
        valueStart = -1;
        spaced = false;
        i++;
        if (e === CLOSE_ARRAY) break;
        continue;
      }
      valueStart = i;
      if (e === QUOTE) i = skipString(text, i);
      else if (e === OPEN_OBJECT || e === OPEN_ARRAY) {
        i = skipContainer(text, i, 3, deepest, maxDepth);
        deepest = skipDeepest;
        if (deepest > maxDepth) return { depth: deepest, rootArrays };
        if (skipSpaced) spaced = true;
      } else i = skipScalar(text, i, end);
      lastEnd = i;
    }
  }
  return { depth: deepest, rootArrays };
}

/** The first index from `i` that is not white space. */
function skipSpace(text: string, i: number, end: number): number {
  while (i < end && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** Index just past the number or literal (true, false, null) that starts at `i`. */
function skipScalar(text: string, i: number, end: number): number {
  i++;
  while (i < end) {
    const d = text.charCodeAt(i);
    if (isSpace(d) || d === COMMA || d === CLOSE_OBJECT || d === CLOSE_ARRAY || d === COLON) break;
    i++;
  }
  return i;
}

/** What skipContainer found besides its end: the deepest nesting so far, and white space outside strings. */
let skipDeepest = 0;
let skipSpaced = false;

/**
 * Index just past the object or array that opens at `i`, at nesting `depth`. Sets skipDeepest to
 * the deeper of `deepest` and the nesting inside (returning as soon as it passes `maxDepth`), and
 * skipSpaced to whether white space lies between its brackets outside strings.
 */
function skipContainer(text: string, i: number, depth: number, deepest: number, maxDepth: number): number {
  let spaced = false;
  let d = depth;
  const end = text.length;
  i++;
  if (depth > deepest) deepest = depth;
  // the container itself is too deep: nothing inside is read
  if (deepest > maxDepth) i = end;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = skipString(text, i);
      continue;
    }
    i++;
    // `{` and `[` differ by one bit (0x7b, 0x5b), as do `}` and `]` (0x7d, 0x5d)
    const bracket = c | 0x20;
    if (bracket === OPEN_OBJECT) {
      if (++d > deepest) {
        deepest = d;
        if (deepest > maxDepth) break;
      }
    } else if (bracket === CLOSE_OBJECT) {
      if (--d < depth) break;
    } else if (c <= 0x20) spaced = true;
  }
  skipDeepest = deepest;
  skipSpaced = spaced;
  return i;
}

/** The JSON text of a span without white space outside strings: one line, tokens as sent. */
export function compactJson(text: string, span: Span): string {
  if (!span.spaced) return text.slice(span.start, span.end);
  let out = "";
  let from = span.start;
  let i = span.start;
  while (i < span.end) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = skipString(text, i);
      continue;
    }
    if (isSpace(c)) {
      out += text.slice(from, i);
      while (i < span.end && isSpace(text.charCodeAt(i))) i++;
      from = i;
      continue;
    }
    i++;
  }
  return out + text.slice(from, span.end);
}

/**
 * The members of the object at `span`, by key, each with the span of its value (the last of
 * duplicate keys, as JSON.parse). For `--fields` and csv cells written from the text as sent.
 */
export function memberSpans(text: string, span: Span): Map<string, Span> {
  const members = new Map<string, Span>();
  if (text.charCodeAt(span.start) !== OPEN_OBJECT) return members;
  walkValues(
    text,
    span.start,
    span.end,
    1,
    Infinity,
    () => true,
    (key, value) => {
      if (key !== undefined) members.set(key, value);
    },
  );
  return members;
}

/** Numbers per member in a memberTable: key start, key end (quotes included), value start, value end, 1 when the value is spaced. */
const MEMBER_FIELDS = 5;

/**
 * The members of the object at `span` as one flat table (MEMBER_FIELDS numbers each), for
 * memberOf: what memberSpans finds, without a Map, a Span or a key string per member, since csv
 * asks it of every event of a long walk. Empty when the span is not an object.
 */
export function memberTable(text: string, span: Span): number[] {
  const table: number[] = [];
  table.length = fillMemberTable(text, span, table);
  return table;
}

/**
 * memberTable written into `table` from its start (a scratch array reused from event to event:
 * setting its length would drop its storage); returns how many numbers it wrote.
 */
export function fillMemberTable(text: string, span: Span, table: number[]): number {
  let n = 0;
  if (text.charCodeAt(span.start) !== OPEN_OBJECT) return n;
  const end = span.end;
  // the members one after another; a value that is an object or an array is skipped whole by
  // skipContainer, which only counts brackets (csv asks this of every event: its metadata is most
  // of the text). The text is JSON that JSON.parse accepted.
  let i = span.start + 1;
  for (;;) {
    i = skipSpace(text, i, end);
    const c = text.charCodeAt(i);
    if (i >= end || c === CLOSE_OBJECT) return n;
    if (c === COMMA) {
      i++;
      continue;
    }
    const keyStart = i;
    const keyEnd = skipString(text, i);
    // the colon, and the value after it
    i = skipSpace(text, skipSpace(text, keyEnd, end) + 1, end);
    const valueStart = i;
    const v = text.charCodeAt(i);
    let spaced = false;
    if (v === QUOTE) i = skipString(text, i);
    else if (v === OPEN_OBJECT || v === OPEN_ARRAY) {
      i = skipContainer(text, i, 1, 1, Infinity);
      spaced = skipSpaced;
    } else i = skipScalar(text, i, end);
    table[n] = keyStart;
    table[n + 1] = keyEnd;
    table[n + 2] = valueStart;
    table[n + 3] = i;
    table[n + 4] = spaced ? 1 : 0;
    n += MEMBER_FIELDS;
  }
}

/**
 * Where member `key` is in a memberTable of `text` (the last of duplicate keys, as JSON.parse): the
 * index of its entry; undefined when the object has no such member; -1 when a key holds a
 * backslash that may decode to `key` (memberSpans decodes it).
 */
export function memberAt(text: string, table: readonly number[], key: string, length = table.length): number | undefined {
  if (key.includes("\\")) return -1;
  const n = key.length;
  for (let i = length - MEMBER_FIELDS; i >= 0; i -= MEMBER_FIELDS) {
    const ks = table[i]!;
    const length = table[i + 1]! - ks - 2;
    if (length === n) {
      if (text.startsWith(key, ks + 1)) return i;
    } else if (length > n) {
      // an escaped key ("\u0069d") may decode to `key`: the walk decodes it
      for (let j = ks + 1; j < ks + 1 + length; j++) if (text.charCodeAt(j) === BACKSLASH) return -1;
    }
  }
  return undefined;
}

/** memberAt's member as a span, or what memberAt says otherwise (false for -1). */
export function memberOf(text: string, table: readonly number[], key: string): Span | undefined | false {
  const i = memberAt(text, table, key);
  if (i === undefined) return undefined;
  if (i < 0) return false;
  return { start: table[i + 2]!, end: table[i + 3]!, spaced: table[i + 4] === 1 };
}
