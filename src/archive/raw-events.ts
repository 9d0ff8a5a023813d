// The text of each event exactly as the server sent it. The client parses a page with JSON.parse,
// which loses the event's own bytes (key order, number spelling, escapes, whitespace); the archive
// keeps them, so this walks the page text once and cuts out each element of the top-level
// "events" array. The text has already been parsed, so it is valid JSON and the walk only has to
// find where values end, not check them.
import { ContractError } from "../errors.js";

/**
 * The source text of each element of the page's top-level `events` array, in order. When the
 * object repeats the key, the last one wins, as with JSON.parse.
 */
export function rawEventTexts(pageText: string): string[] {
  let i = 0;
  const n = pageText.length;
  const ws = () => {
    while (i < n) {
      const c = pageText.charCodeAt(i);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      i++;
    }
  };
  const skipString = () => {
    // at the opening quote
    i++;
    for (;;) {
      const q = pageText.indexOf('"', i);
      if (q < 0) throw notJson();
      // an escaped quote has an odd number of backslashes before it
      let b = q - 1;
      while (b >= i && pageText.charCodeAt(b) === 0x5c) b--;
      i = q + 1;
      if ((q - 1 - b) % 2 === 0) return;
    }
  };
  const skipValue = () => {
    ws();
    const c = pageText[i];
    if (c === '"') return skipString();
    if (c === "{" || c === "[") {
      // strings are skipped whole, so only brackets outside them count
      let depth = 0;
      while (i < n) {
        const d = pageText[i];
        if (d === '"') {
          skipString();
          continue;
        }
        if (d === "{" || d === "[") depth++;
        else if (d === "}" || d === "]") {
          depth--;
          if (depth === 0) {
            i++;
            return;
          }
        }
        i++;
      }
      throw notJson();
    }
    // number, true, false, null
    while (i < n && !/[\s,}\]]/.test(pageText[i]!)) i++;
  };

  ws();
  if (pageText[i] !== "{") throw notJson();
  i++;
  let found: string[] | undefined;
  for (;;) {
    ws();
    if (pageText[i] === "}") break;
    if (pageText[i] !== '"') throw notJson();
    const keyStart = i;
    skipString();
    const key = JSON.parse(pageText.slice(keyStart, i)) as string;
    ws();
    if (pageText[i] !== ":") throw notJson();
    i++;
    ws();
    if (key === "events" && pageText[i] === "[") {
      const items: string[] = [];
      i++;
      ws();
      if (pageText[i] === "]") i++;
      else {
        for (;;) {
          ws();
          const start = i;
          skipValue();
          items.push(pageText.slice(start, i));
          ws();
          if (pageText[i] === ",") {
            i++;
            continue;
          }
          if (pageText[i] === "]") {
            i++;
            break;
          }
          throw notJson();
        }
      }
      found = items;
    } else {
      skipValue();
    }
    ws();
    if (pageText[i] === ",") {
      i++;
      continue;
    }
    if (pageText[i] === "}") break;
    throw notJson();
  }
  if (found === undefined) throw new ContractError("the events page has no events array");
  return found;
}

function notJson(): ContractError {
  return new ContractError("the events page is not a JSON object the archive can read");
}
