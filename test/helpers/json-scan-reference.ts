// The scanner of json-scan.ts before its scanJson was rewritten for speed (commit 8ecd543), kept
// verbatim as the reference the property tests compare the new one with (test/api/json-scan.test.ts).
// Not used by mq itself.
interface Span {
  start: number;
  end: number;
  /** white space outside strings inside the span (pretty-printed JSON): compactJson removes it */
  spaced: boolean;
}

interface JsonScan {
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
 */
export function referenceScanJson(text: string, maxDepth = Infinity): JsonScan {
  const rootArrays = new Map<string, Span[]>();
  let elements: Span[] = [];
  const depth = walkValues(
    text,
    0,
    text.length,
    2,
    maxDepth,
    (key, isArray) => {
      if (!isArray || key === undefined) return false;
      elements = [];
      rootArrays.set(key, elements);
      return true;
    },
    (_key, span) => elements.push(span),
  );
  return { depth, rootArrays };
}
