// What the generated validators (*-checks.generated.ts, written by scripts/gen-checks.mjs from
// api/schema/check-source.ts) call. A validator is `check(value, path)`: with `path` null it only
// answers (the hot path: nothing is allocated for a valid value); with a path it also records
// every issue under that path, in zod's words and order (the contract's messages, unchanged since
// they were zod's). One copy for the four generated modules, which import it. No zod.
import { pushAll } from "../../arrays.js";
/* eslint-disable @typescript-eslint/no-explicit-any */

export type Path = Array<string | number>;

/** A generated validator: true when `v` matches; with a path, the issues are recorded (issues.ts). */
export type Check = (v: unknown, p?: Path | null) => boolean;

export interface RecordedIssue {
  path: Path;
  message: string;
  /** zod stops trying a union's branch at such an issue (a wrong type); a check (a bound, a format) lets it go on */
  aborts: boolean;
}

let sink: RecordedIssue[] = [];

/** Records an issue; false, for `return p != null && bad(...)`. */
export function bad(p: Path, message: string, aborts = true): false {
  sink.push({ path: p, message, aborts });
  return false;
}

/** What a value is, in zod's words (its parsedType). */
export function received(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isNaN(v) ? "NaN" : Number.isFinite(v) ? "number" : String(v);
  return typeof v;
}

export function typeIssue(p: Path, expected: string, v: unknown): false {
  return bad(p, `Invalid input: expected ${expected}, received ${received(v)}`);
}

export const isObj = (v: any): boolean => typeof v === "object" && v !== null && !Array.isArray(v);

/** zod's z.int() on a finite number: a safe integer. */
export function int(v: number, p: Path | null | undefined): boolean {
  if (Number.isSafeInteger(v)) return true;
  if (p == null) return false;
  if (!Number.isInteger(v)) return bad(p, "Invalid input: expected int, received number");
  return bad(
    p,
    v > 0 ? `Too big: expected int to be <=${Number.MAX_SAFE_INTEGER}` : `Too small: expected int to be >=${-Number.MAX_SAFE_INTEGER}`,
    false,
  );
}

const child = (p: Path | null | undefined, k: string | number): Path | null => (p == null ? null : [...p, k]);

/** Every item (not Array.prototype.every, which skips the holes of a sparse array). */
export function items(v: any[], p: Path | null | undefined, item: Check): boolean {
  let ok = true;
  for (let i = 0; i < v.length; i++) {
    if (item(v[i], child(p, i))) continue;
    if (p == null) return false;
    ok = false;
  }
  return ok;
}

/** Every own value of a record. */
export function values(v: any, p: Path | null | undefined, value: Check): boolean {
  let ok = true;
  for (const key in v) {
    if (key === "__proto__" || !Object.hasOwn(v, key)) continue;
    if (value(v[key], child(p, key))) continue;
    if (p == null) return false;
    ok = false;
  }
  return ok;
}

/** One property of an object, on the path that records issues; `missing` (the words for its absence) when it is required. */
export function prop(v: any, p: Path, key: string, check: Check, missing: string | undefined): boolean {
  const x = v[key];
  if (x === undefined) return missing === undefined || bad([...p, key], missing);
  return check(x, [...p, key]);
}

/** true when every one is: each was evaluated, so each recorded its issues. */
export function all(results: boolean[]): boolean {
  return results.every(Boolean);
}

/** The position in the recorded issues, and whether one recorded since aborts (zod then skips the checks that follow). */
export const mark = (): number => sink.length;
export const abortedSince = (m: number): boolean => sink.slice(m).some((i) => i.aborts);

/**
 * A union none of whose branches matched, on the recording path: zod's rule. Exactly one branch
 * that failed only its checks (its type matched): that branch's issues. Otherwise "Invalid input".
 */
export function union(v: unknown, p: Path, branches: Check[]): false {
  const outer = sink;
  const results = branches.map((b) => {
    sink = [];
    b(v, p);
    return sink;
  });
  sink = outer;
  const going = results.filter((r) => !r.some((i) => i.aborts));
  if (going.length === 1) {
    pushAll(sink, going[0]!);
    return false;
  }
  return bad(p, "Invalid input");
}

/** Every issue of `v` against `check`, in order; undefined when it matches. */
export function recordIssues(check: Check, v: unknown): RecordedIssue[] | undefined {
  if (check(v, null)) return undefined;
  const outer = sink;
  sink = [];
  try {
    check(v, []);
    // a validator that refuses records why; should one not, the value is still refused
    return sink.length > 0 ? sink : [{ path: [], message: "Invalid input", aborts: true }];
  } finally {
    sink = outer;
  }
}
