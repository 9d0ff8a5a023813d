// Mutations of valid values for comparing a fast check with zod (test/api/schema/check.test.ts,
// generated-checks.test.ts): keys deleted, values swapped for null, numbers, strings, arrays,
// objects, other enum values, broken date-times and uuids, deeper nesting, the recursive condition
// evaluation grown.
import fc from "fast-check";
import {
  ABORT_CODES,
  ABORT_STATUSES,
  ACTOR_TYPES,
  CHECK_STATES,
  PLATFORM_ACCOUNT_TYPES,
  RETRY_MODES,
} from "../../src/api/schema/common.js";
import { EVENT_TYPES } from "../../src/api/dialects/spec.js";
import { MERGIFY_ABORT_CODES, MERGIFY_EVENT_TYPES, MERGIFY_OUTCOMES } from "../../src/api/dialects/mergify.generated.js";
import { MERGIFY_SCHEMAS } from "../../src/api/dialects/mergify-schemas.generated.js";

type Obj = Record<string, unknown>;

export const clone = <T>(v: T): T => structuredClone(v);

function openApiEnums(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const n of node) openApiEnums(n, out);
  else if (typeof node === "object" && node !== null) {
    for (const [k, v] of Object.entries(node)) {
      if (k === "enum" && Array.isArray(v)) out.push(...v.filter((x): x is string => typeof x === "string"));
      else openApiEnums(v, out);
    }
  }
  return out;
}

export function show(v: unknown): string {
  try {
    return JSON.stringify(v, (_k, x: unknown) => (typeof x === "number" && !Number.isFinite(x) ? String(x) : x));
  } catch {
    return String(v);
  }
}

export type Path = Array<string | number>;

/** Every path to a value inside `v` (the root included), objects and arrays walked. */
export function paths(v: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  out.push(prefix);
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...prefix, i], out));
  else if (typeof v === "object" && v !== null) for (const k of Object.keys(v)) paths((v as Obj)[k], [...prefix, k], out);
  return out;
}

export function get(root: unknown, path: Path): unknown {
  let v = root;
  for (const seg of path) v = (v as Obj)[seg as string];
  return v;
}

/** Replaces the value at `path` (the root cannot be replaced in place: the new root is returned). */
export function set(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  (get(root, path.slice(0, -1)) as Obj)[path[path.length - 1] as string] = value;
  return root;
}

/** every enumeration value either dialect knows: the contract's lists, and every `enum` of the OpenAPI */
const ENUM_VALUES = [
  ...new Set([...openApiEnums(MERGIFY_SCHEMAS), ...MERGIFY_EVENT_TYPES, ...MERGIFY_OUTCOMES, ...MERGIFY_ABORT_CODES]),
  ...ABORT_CODES,
  ...ABORT_STATUSES,
  ...ACTOR_TYPES,
  ...CHECK_STATES,
  ...PLATFORM_ACCOUNT_TYPES,
  ...RETRY_MODES,
  ...EVENT_TYPES,
  "Success",
  "JOB",
  "",
];

export const DATE_TIMES = [
  "2026-11-20T09:58:02Z",
  "2026-11-20T09:58:02.481203+00:00",
  "2026-11-20T09:58:02",
  "2026-11-20 09:58:02Z",
  "2026-02-29T00:00:00Z",
  "2028-02-29T00:00:00Z",
  "2026-02-30T00:00:00Z",
  "2026-13-01T00:00:00Z",
  "2026-11-20T24:00:00Z",
  "2026-11-20T09:58:60Z",
  "2026-11-20T09:58:02+0100",
  "2026-11-20T09:58:02+01",
  "2026-11-20T09:58:02.Z",
  "2026-11-20T09:58Z",
  "2026-11-20",
  "2026-11-20T09:58:02z",
  "2026-11-20t09:58:02Z",
];

export const UUIDS = [
  "3f0c2a9e-8b7d-4e61-a5c4-1d2e3f4a5b6c",
  "3F0C2A9E-8B7D-4E61-A5C4-1D2E3F4A5B6C",
  "00000000-0000-0000-0000-000000000000",
  "ffffffff-ffff-ffff-ffff-ffffffffffff",
  "3f0c2a9e-8b7d-0e61-05c4-1d2e3f4a5b6c",
  "3f0c2a9e8b7d4e61a5c41d2e3f4a5b6c",
  "3f0c2a9e-8b7d-4e61-a5c4-1d2e3f4a5b6",
  "3f0c2a9e-8b7d-4e61-a5c4-1d2e3f4a5b6cc",
  "3f0c2a9g-8b7d-4e61-a5c4-1d2e3f4a5b6c",
  "{3f0c2a9e-8b7d-4e61-a5c4-1d2e3f4a5b6c}",
];

export const NUMBERS = [0, -0, 1, -1, 1.5, 2 ** 53 - 1, 2 ** 53, -(2 ** 53), 1e308, NaN, Infinity, -Infinity];

const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, undefined, true, false, "", 0, [], {}),
  fc.constantFrom(...NUMBERS),
  fc.constantFrom(...DATE_TIMES, ...UUIDS, ...ENUM_VALUES),
  fc.jsonValue({ maxDepth: 2 }),
  fc.string({ maxLength: 8, unit: "grapheme-ascii" }),
);

/** Breaks a string a little: a character changed, dropped, doubled, or the case flipped. */
const breakString = fc
  .tuple(
    fc.nat(),
    fc.constantFrom("change", "drop", "double", "upper", "lower", "trim-end", "prefix"),
    fc.constantFrom("x", "0", "9", "-", ":", "Z", "+", " ", "\u00e9", "\ud83d\ude00"),
  )
  .map(([n, how, ch]) => (s: string): string => {
    const i = s.length === 0 ? 0 : n % s.length;
    switch (how) {
      case "change":
        return s.slice(0, i) + ch + s.slice(i + 1);
      case "drop":
        return s.slice(0, i) + s.slice(i + 1);
      case "double":
        return s.slice(0, i) + s[i] + s.slice(i);
      case "upper":
        return s.toUpperCase();
      case "lower":
        return s.toLowerCase();
      case "trim-end":
        return s.slice(0, -1);
      default:
        return ch + s;
    }
  });

type Mutation = (root: unknown, pick: number) => unknown;

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  // delete a key
  fc.constant<Mutation>((root, pick) => {
    const keyed = paths(root).filter((p) => p.length > 0 && typeof p[p.length - 1] === "string");
    if (keyed.length === 0) return root;
    const p = keyed[pick % keyed.length]!;
    delete (get(root, p.slice(0, -1)) as Obj)[p[p.length - 1] as string];
    return root;
  }),
  // set a value to null, a number, a string, an array, an object, anything
  anyJson.map<Mutation>((value) => (root, pick) => {
    const all = paths(root);
    return set(root, all[pick % all.length]!, clone(value));
  }),
  // change an enum value, a date-time or a uuid for another (valid or not)
  fc.constantFrom(...ENUM_VALUES, ...DATE_TIMES, ...UUIDS).map<Mutation>((value) => (root, pick) => {
    const strings = paths(root).filter((p) => typeof get(root, p) === "string");
    if (strings.length === 0) return root;
    return set(root, strings[pick % strings.length]!, value);
  }),
  // break a string a little (a date-time, a uuid, an enum value, an owner name...)
  breakString.map<Mutation>((brk) => (root, pick) => {
    const strings = paths(root).filter((p) => typeof get(root, p) === "string");
    if (strings.length === 0) return root;
    const p = strings[pick % strings.length]!;
    return set(root, p, brk(get(root, p) as string));
  }),
  // add a key (loose objects keep it; the key may be a declared one, or __proto__)
  fc
    .tuple(fc.constantFrom("outcome", "extra", "__proto__", "subconditions", "id", "match", "constructor"), anyJson)
    .map<Mutation>(([key, value]) => (root, pick) => {
      const objects = paths(root).filter((p) => {
        const v = get(root, p);
        return typeof v === "object" && v !== null && !Array.isArray(v);
      });
      if (objects.length === 0) return root;
      Object.defineProperty(get(root, objects[pick % objects.length]!), key, {
        value: clone(value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      return root;
    }),
  // nest deeper: wrap a value in an array, or put a copy of an array's element (or of the array)
  // into it
  fc.constantFrom("wrap", "dup", "self").map<Mutation>((how) => (root, pick) => {
    const all = paths(root);
    const p = all[pick % all.length]!;
    const v = get(root, p);
    if (how === "wrap") return set(root, p, [v]);
    if (!Array.isArray(v)) return root;
    v.push(clone(how === "dup" && v.length > 0 ? v[pick % v.length] : v));
    return root;
  }),
  // grow the recursive condition evaluation: an evaluation becomes a subcondition of a copy of
  // itself, so the next mutations reach deeper levels
  fc.constant<Mutation>((root, pick) => {
    const evaluations = paths(root).filter((p) => {
      const v = get(root, p);
      return typeof v === "object" && v !== null && Array.isArray((v as Obj).subconditions);
    });
    if (evaluations.length === 0) return root;
    const p = evaluations[pick % evaluations.length]!;
    const ev = get(root, p) as Obj;
    (ev.subconditions as unknown[]).push(clone(ev));
    return root;
  }),
);

/** One to four mutations applied in turn to a copy of one of `seeds`. */
export function mutated(seeds: readonly unknown[]): fc.Arbitrary<unknown> {
  return fc.tuple(fc.nat(seeds.length - 1), fc.array(fc.tuple(mutation, fc.nat()), { minLength: 1, maxLength: 4 })).map(([i, steps]) => {
    let v: unknown = clone(seeds[i]);
    for (const [m, pick] of steps) v = m(v, pick);
    return v;
  });
}
