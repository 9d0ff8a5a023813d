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

/**
 * One pass over valid JSON text. Stops counting, and says so with `depth > maxDepth`, as soon as
 * the nesting passes `maxDepth`.
 */
export function scanJson(text: string, maxDepth = Infinity): JsonScan {
  const rootArrays = new Map<string, Span[]>();
  const n = text.length;
  let depth = 0;
  let deepest = 0;
  // the key being read at depth 1, and whether the next string at depth 1 is a key
  let expectKey = false;
  let key: string | undefined;
  // the root array being collected (depth 2), and the element being read in it
  let elements: Span[] | undefined;
  let elementStart = -1;
  let elementSpaced = false;
  let lastEnd = 0;

  const endElement = () => {
    if (elements !== undefined && elementStart >= 0) elements.push({ start: elementStart, end: lastEnd, spaced: elementSpaced });
    elementStart = -1;
    elementSpaced = false;
  };

  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      if (elementStart >= 0) elementSpaced = true;
      i++;
      continue;
    }
    // a value starting at depth 2 inside a collected array opens an element
    if (elements !== undefined && depth === 2 && elementStart < 0 && c !== COMMA && c !== CLOSE_ARRAY) {
      elementStart = i;
    }
    if (c === QUOTE) {
      const end = skipString(text, i);
      if (depth === 1 && expectKey) {
        key = JSON.parse(text.slice(i, end)) as string;
        expectKey = false;
      }
      i = end;
      lastEnd = end;
      continue;
    }
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > maxDepth) return { depth: deepest, rootArrays };
      }
      if (depth === 1 && c === OPEN_OBJECT) expectKey = true;
      if (depth === 2 && c === OPEN_ARRAY && key !== undefined) {
        elements = [];
        rootArrays.set(key, elements);
      }
      i++;
      lastEnd = i;
      continue;
    }
    if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth === 2 && elements !== undefined) {
        endElement();
        elements = undefined;
      }
      depth--;
      i++;
      lastEnd = i;
      continue;
    }
    if (c === COMMA) {
      if (depth === 1) {
        expectKey = true;
        key = undefined;
      } else if (depth === 2 && elements !== undefined) endElement();
      i++;
      continue;
    }
    if (c === COLON) {
      i++;
      continue;
    }
    // a number or a literal: up to the next delimiter
    i++;
    while (i < n) {
      const d = text.charCodeAt(i);
      if (isSpace(d) || d === COMMA || d === CLOSE_OBJECT || d === CLOSE_ARRAY || d === COLON) break;
      i++;
    }
    lastEnd = i;
  }
  return { depth: deepest, rootArrays };
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
  let depth = 0;
  let expectKey = true;
  let key: string | undefined;
  let valueStart = -1;
  let valueSpaced = false;
  let lastEnd = span.start;
  const endValue = () => {
    if (key !== undefined && valueStart >= 0) members.set(key, { start: valueStart, end: lastEnd, spaced: valueSpaced });
    valueStart = -1;
    valueSpaced = false;
    key = undefined;
  };
  let i = span.start;
  while (i < span.end) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      if (valueStart >= 0) valueSpaced = true;
      i++;
      continue;
    }
    if (depth === 1 && !expectKey && valueStart < 0 && c !== COLON && c !== COMMA && c !== CLOSE_OBJECT) valueStart = i;
    if (c === QUOTE) {
      const end = skipString(text, i);
      if (depth === 1 && expectKey) {
        key = JSON.parse(text.slice(i, end)) as string;
        expectKey = false;
      }
      i = end;
      lastEnd = end;
      continue;
    }
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
      i++;
      lastEnd = i;
      continue;
    }
    if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth === 1) endValue();
      depth--;
      i++;
      lastEnd = i;
      continue;
    }
    if (c === COMMA) {
      if (depth === 1) {
        endValue();
        expectKey = true;
      }
      i++;
      continue;
    }
    if (c === COLON) {
      i++;
      continue;
    }
    i++;
    while (i < span.end) {
      const d = text.charCodeAt(i);
      if (isSpace(d) || d === COMMA || d === CLOSE_OBJECT || d === CLOSE_ARRAY || d === COLON) break;
      i++;
    }
    lastEnd = i;
  }
  return members;
}
