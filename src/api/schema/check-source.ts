// A zod schema as the source text of a plain JavaScript predicate, for a check that runs without
// zod: `scripts/gen-checks.mjs` writes the metadata shapes and statistics answers of both dialects
// this way (api/schema/check-files.ts lists the modules), so that a page whose every event matches,
// or a statistics answer that matches, is known valid without loading zod (~30 ms of a one-page
// `mq logs` or `mq stats`). The predicate answers "surely valid": true only when zod would accept
// the value. Where exactness would need zod's internals (string lengths in code points) it is
// conservative, and any definition this file does not know makes the whole schema's predicate
// `undefined`: such values take the zod path (api/schema/page-check.ts), which has the last word
// and the messages. test/api/schema/{check,generated-checks}.test.ts compare with safeParse.
import type * as z from "zod";

type Schema = z.core.$ZodType;
type ZodCheck = z.core.$ZodCheck<unknown>;

/** Thrown inside the emitter for a definition it does not handle; the schema gets no predicate. */
class Unsupported extends Error {}

/** Integer formats and their ranges, as zod's NUMBER_FORMAT_RANGES (checked against it in the test). */
export const INT_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  int32: [-2147483648, 2147483647],
  uint32: [0, 4294967295],
};

// string formats whose zod check is its pattern alone ($ZodCheckStringFormat with def.pattern)
const PATTERN_FORMATS: ReadonlySet<string> = new Set(["datetime", "date", "time", "guid", "uuid", "regex"]);

export interface EmittedChecks {
  /** helper and predicate declarations */
  declarations: string[];
  /** name -> the function's identifier, or undefined when the schema is left to zod */
  names: Map<string, string | undefined>;
}

/** Emits one predicate per named schema, sharing the functions of schemas they have in common. */
export function emitChecks(schemas: ReadonlyMap<string, Schema>): EmittedChecks {
  const declarations: string[] = [];
  const names = new Map<string, string | undefined>();
  const fnOf = new Map<Schema, string>();
  // body -> the function that has it: the OpenAPI's converted schemas are distinct zod objects of
  // the same shape (a z.string() per property), and one function each made the real service's
  // statistics checks ~150 KB of source
  const fnOfBody = new Map<string, string>();
  let fnCount = 0;
  const patterns = new Map<string, string>();

  function pattern(re: RegExp): string {
    const src = re.toString();
    let id = patterns.get(src);
    if (id === undefined) {
      id = `re${patterns.size}`;
      patterns.set(src, id);
      declarations.push(`const ${id} = ${src};`);
    }
    return id;
  }

  function fn(s: Schema, pending: string[]): string {
    const done = fnOf.get(s);
    if (done !== undefined) return done;
    const id = `c${fnCount++}`;
    // named before its body is built: a recursive schema calls itself by name
    fnOf.set(s, id);
    const from = pending.length;
    const text = body(s, pending);
    // an identical function already exists, or this one would only call another (a lazy, an exact
    // optional): use that one, unless this one was called by name while it was built (recursion),
    // when the name must be declared
    const same = fnOfBody.get(text) ?? /^(c\d+)\(v\)$/.exec(text)?.[1];
    const named = new RegExp(`\\b${id}\\b`);
    if (same !== undefined && !named.test(text) && !pending.slice(from).some((p) => named.test(p))) {
      fnOf.set(s, same);
      return same;
    }
    fnOfBody.set(text, id);
    pending.push(`function ${id}(v: any): boolean {\n  return ${text};\n}`);
    return id;
  }

  function body(s: Schema, pending: string[]): string {
    const zod = s._zod;
    const def = zod.def as z.core.$ZodTypeDef & { coerce?: boolean };
    if (def.coerce === true) throw new Unsupported("coercion");
    const checks: ZodCheck[] = [...(zod.traits.has("$ZodCheck") ? [s as unknown as ZodCheck] : []), ...((def.checks ?? []) as ZodCheck[])];
    const parts = [typeTest(s, pending), ...checks.map((ch) => leaf(ch, def.type))];
    return parts.length === 1 ? parts[0]! : parts.map((p) => `(${p})`).join(" && ");
  }

  function leaf(ch: ZodCheck, type: string): string {
    const def = ch._zod.def as z.core.$ZodCheckDef & Record<string, unknown>;
    if (def.when !== undefined && def.check !== "min_length" && def.check !== "max_length") throw new Unsupported("check with when");
    switch (def.check) {
      case "number_format": {
        const range = INT_RANGES[def.format as string];
        if (range === undefined) throw new Unsupported(`number format ${String(def.format)}`);
        return `Number.isSafeInteger(v) && v >= ${range[0]} && v <= ${range[1]}`;
      }
      case "string_format": {
        if (!PATTERN_FORMATS.has(def.format as string) || !(def.pattern instanceof RegExp)) throw new Unsupported(`format ${String(def.format)}`);
        if ((ch as unknown as Schema)._zod.traits.has("$ZodCustomStringFormat")) throw new Unsupported("custom format");
        if (def.pattern.global || def.pattern.sticky) throw new Unsupported("stateful pattern");
        return `${pattern(def.pattern)}.test(v)`;
      }
      case "greater_than":
      case "less_than": {
        if (typeof def.value !== "number" || type !== "number") throw new Unsupported("non-numeric bound");
        const op = def.check === "greater_than" ? (def.inclusive ? ">=" : ">") : def.inclusive ? "<=" : "<";
        return `v ${op} ${def.value}`;
      }
      case "min_length":
      case "max_length": {
        const n = (def.check === "min_length" ? def.minimum : def.maximum) as number;
        if (type === "array") return `v.length ${def.check === "min_length" ? ">=" : "<="} ${n}`;
        if (type !== "string") throw new Unsupported("length of a non-string");
        // zod counts code points; a code point is one or two UTF-16 units, so these bounds are
        // sufficient: a string they refuse goes to zod, which counts exactly
        return def.check === "min_length" ? `v.length >= ${2 * n}` : `v.length <= ${n}`;
      }
      default:
        throw new Unsupported(`check ${def.check}`);
    }
  }

  function typeTest(s: Schema, pending: string[]): string {
    const def = s._zod.def;
    switch (def.type) {
      case "string":
        return `typeof v === "string"`;
      case "number":
        return `typeof v === "number" && Number.isFinite(v)`;
      case "boolean":
        return `typeof v === "boolean"`;
      case "null":
        return `v === null`;
      case "undefined":
        return `v === undefined`;
      case "never":
        return "false";
      case "unknown":
      case "any":
        return "true";
      case "enum":
      case "literal": {
        const values = s._zod.values;
        if (values === undefined) throw new Unsupported("values");
        const list = [...values];
        if (!list.every((x) => x === null || typeof x === "string" || typeof x === "boolean" || (typeof x === "number" && Number.isFinite(x) && !Object.is(x, -0)))) {
          throw new Unsupported("literal kind");
        }
        return list.length === 0 ? "false" : list.map((x) => `v === ${JSON.stringify(x)}`).join(" || ");
      }
      case "nullable":
        return `v === null || ${fn((def as z.core.$ZodNullableDef).innerType, pending)}(v)`;
      case "optional": {
        const inner = (def as z.core.$ZodOptionalDef).innerType;
        if (s._zod.traits.has("$ZodExactOptional")) return `${fn(inner, pending)}(v)`;
        if (inner._zod.optin === "defaulted") throw new Unsupported("defaulted");
        return `v === undefined || ${fn(inner, pending)}(v)`;
      }
      case "lazy":
        return `${fn((s._zod as unknown as { innerType: Schema }).innerType, pending)}(v)`;
      case "array":
        // not Array.prototype.every, which skips the holes of a sparse array (zod reads them as undefined)
        return `Array.isArray(v) && everyItem(v, ${fn((def as z.core.$ZodArrayDef).element, pending)})`;
      case "object":
        return objectTest(def as z.core.$ZodObjectDef, pending);
      case "record":
        return recordTest(def as z.core.$ZodRecordDef, pending);
      case "union": {
        const u = def as z.core.$ZodUnionDef & { discriminator?: PropertyKey; inclusive?: boolean };
        // a discriminated union accepts what its matching option accepts, which (values claimed
        // by two options aside) is what the plain union accepts: only the unambiguous kind here
        if (u.inclusive === false) throw new Unsupported("xor");
        if (u.discriminator !== undefined) throw new Unsupported("discriminated union");
        return u.options.map((o) => `${fn(o, pending)}(v)`).join(" || ");
      }
      default:
        throw new Unsupported(def.type);
    }
  }

  function objectTest(def: z.core.$ZodObjectDef, pending: string[]): string {
    const shape = def.shape;
    if (Object.getOwnPropertySymbols(shape).length > 0) throw new Unsupported("symbol keys");
    const catchall = def.catchall;
    const catchallType = catchall?._zod.def.type;
    const loose = catchall === undefined || ((catchallType === "unknown" || catchallType === "any") && (catchall._zod.def.checks ?? []).length === 0);
    if (!loose) throw new Unsupported("catchall");
    const parts = ["isObj(v)"];
    for (const key of Object.keys(shape)) {
      if (key === "__proto__") continue;
      const field = shape[key]!;
      const k = JSON.stringify(key);
      const test = `${fn(field, pending)}(v[${k}])`;
      // zod's rule for a key, as api/schema/check.ts: required, optional in and out, optional in
      if (field._zod.optin === undefined) parts.push(`${test} && ${k} in v`);
      else if (field._zod.optout === "optional") parts.push(`(${test} || !(${k} in v))`);
      else parts.push(test);
    }
    return parts.join(" && ");
  }

  function recordTest(def: z.core.$ZodRecordDef, pending: string[]): string {
    const keyDef = def.keyType._zod.def as z.core.$ZodTypeDef & { coerce?: boolean; format?: string };
    const plainStringKey =
      keyDef.type === "string" && keyDef.coerce !== true && keyDef.format === undefined && (keyDef.checks ?? []).length === 0 && !def.keyType._zod.traits.has("$ZodCheck");
    if (!plainStringKey) throw new Unsupported("record keys");
    const valueDef = def.valueType._zod.def;
    const anyValue = (valueDef.type === "unknown" || valueDef.type === "any") && (valueDef.checks ?? []).length === 0;
    const loose = (def as { mode?: string }).mode === "loose";
    return `isPlainRecord(v, ${loose}, ${anyValue ? "undefined" : fn(def.valueType, pending)})`;
  }

  for (const [name, schema] of schemas) {
    const pending: string[] = [];
    const mark = new Map(fnOf);
    const markBodies = new Map(fnOfBody);
    try {
      names.set(name, fn(schema, pending));
      declarations.push(...pending);
    } catch (err) {
      if (!(err instanceof Unsupported)) throw err;
      // forget the functions of this attempt: they were never declared
      fnOf.clear();
      for (const [k, v] of mark) fnOf.set(k, v);
      fnOfBody.clear();
      for (const [k, v] of markBodies) fnOfBody.set(k, v);
      names.set(name, undefined);
    }
  }
  return { declarations, names };
}

