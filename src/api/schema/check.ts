// A yes/no validity check compiled once from a zod schema, for hot paths. zod's own parse builds an
// output copy of every object and array it checks (about 0.6 s and a lot of garbage per 100,000
// events); the compiled check walks the same definitions, reads the input and allocates nothing
// when it matches. It answers only "valid or not": callers ask zod for the message when it fails.
//
// The semantics are zod 4's (node_modules/zod/v4/core/schemas.js), kind by kind. Leaf checks
// (lengths, formats, integer ranges) are zod's own check functions run on a reused payload, so
// they cannot drift. Any definition this file does not know (pipes, transforms, defaults,
// refinements, coercion, custom formats, ...) is handed back to zod for that sub-schema: correct,
// only slower. test/api/schema/check.test.ts compares the verdicts with safeParse.
import * as z from "zod";

export type Check = (value: unknown) => boolean;

export interface CompileCheckOptions {
  /** Told of every sub-schema handed back to zod, with its definition type and why. */
  onFallback?: (type: string, reason: string) => void;
}

type Schema = z.core.$ZodType;
type Internals = Schema["_zod"];
type ZodCheck = z.core.$ZodCheck<unknown>;

const isObject = (v: unknown): v is Record<PropertyKey, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** zod's verdict for one sub-schema, without building a ZodError. */
function zodCheck(schema: Schema): Check {
  return (value) => {
    const result = schema._zod.run({ value, issues: [] }, { async: false });
    if (result instanceof Promise) throw new Error("asynchronous schema used synchronously");
    return result.issues.length === 0;
  };
}

// Checks whose zod implementation is synchronous, pure and leaves the value as it is. `overwrite`
// (trim, toLowerCase, ...) changes the value and `custom` (refine) runs user code: both go to zod.
const PURE_CHECKS: ReadonlySet<string> = new Set([
  "min_length",
  "max_length",
  "length_equals",
  "string_format",
  "number_format",
  "greater_than",
  "less_than",
  "multiple_of",
]);

// zod's built-in string formats; a user's z.stringFormat() may reuse a name, hence the trait test.
const BUILT_IN_FORMATS: ReadonlySet<string> = new Set([
  "base64", "base64url", "cidrv4", "cidrv6", "cuid", "cuid2", "date", "datetime", "duration", "e164",
  "email", "emoji", "ends_with", "guid", "includes", "ipv4", "ipv6", "jwt", "ksuid", "lowercase", "mac",
  "nanoid", "regex", "starts_with", "time", "ulid", "uppercase", "url", "uuid", "xid",
]);

function unsupportedCheck(ch: ZodCheck): string | undefined {
  const def = ch._zod.def as z.core.$ZodCheckDef & { format?: string };
  if (!PURE_CHECKS.has(def.check)) return `check ${def.check}`;
  if (def.check === "string_format") {
    if (def.format === undefined || !BUILT_IN_FORMATS.has(def.format)) return `format ${String(def.format)}`;
    if ((ch as unknown as Schema)._zod.traits.has("$ZodCustomStringFormat")) return "custom string format";
  }
  return undefined;
}

/** One of zod's checks as a predicate, on a payload reused from call to call. */
function leafCheck(ch: ZodCheck): Check {
  const payload: z.core.ParsePayload = { value: undefined, issues: [] };
  const when = ch._zod.def.when;
  const check = ch._zod.check;
  return (value) => {
    payload.value = value;
    // the type already matched, so no issue precedes this check: zod runs it unless `when` says no
    const pass = (when !== undefined && !when(payload)) || (check(payload), payload.issues.length === 0);
    payload.value = undefined;
    payload.issues.length = 0;
    return pass;
  };
}

function all(checks: Check[]): Check | undefined {
  if (checks.length === 0) return undefined;
  if (checks.length === 1) return checks[0];
  return (value) => {
    for (const c of checks) if (!c(value)) return false;
    return true;
  };
}

/** Compiles `schema` into a predicate with zod's verdict: `check(v) === schema.safeParse(v).success`. */
export function compileCheck(schema: z.ZodType | Schema, opts: CompileCheckOptions = {}): Check {
  const compiled = new Map<Schema, Check>();

  const fallback = (s: Schema, reason: string): Check => {
    opts.onFallback?.(s._zod.def.type, reason);
    return zodCheck(s);
  };

  function compile(s: Schema): Check {
    const done = compiled.get(s);
    if (done !== undefined) return done;
    // a recursive schema reaches itself while it compiles: hand out a forwarder until it is done
    let impl: Check | undefined;
    compiled.set(s, (v) => impl!(v));
    impl = build(s);
    compiled.set(s, impl);
    return impl;
  }

  function build(s: Schema): Check {
    const zod: Internals = s._zod;
    const def = zod.def as z.core.$ZodTypeDef & { coerce?: boolean };
    // a schema that is itself a check (z.int(), z.iso.datetime(), z.guid()) runs first, as in zod
    const checks: ZodCheck[] = [
      ...(zod.traits.has("$ZodCheck") ? [s as unknown as ZodCheck] : []),
      ...((def.checks ?? []) as ZodCheck[]),
    ];
    for (const ch of checks) {
      const why = unsupportedCheck(ch);
      if (why !== undefined) return fallback(s, why);
    }
    if (def.coerce === true) return fallback(s, "coercion");
    const type = buildType(s);
    if (typeof type === "string") return fallback(s, type);
    const rest = all(checks.map(leafCheck));
    if (rest === undefined) return type;
    return (v) => type(v) && rest(v);
  }

  /** The type-level test of `s` (zod's `_zod.parse`), or why it is left to zod. */
  function buildType(s: Schema): Check | string {
    const def = s._zod.def;
    switch (def.type) {
      case "string":
        return (v) => typeof v === "string";
      case "number":
        return (v) => typeof v === "number" && !Number.isNaN(v) && Number.isFinite(v);
      case "boolean":
        return (v) => typeof v === "boolean";
      case "null":
        return (v) => v === null;
      case "undefined":
        return (v) => v === undefined;
      case "unknown":
      case "any":
        return () => true;
      case "never":
        return () => false;
      case "enum":
      case "literal": {
        const values = s._zod.values;
        if (values === undefined) return `${def.type} without values`;
        return (v) => values.has(v as never);
      }
      case "nullable": {
        const inner = compile((def as z.core.$ZodNullableDef).innerType);
        return (v) => v === null || inner(v);
      }
      case "optional": {
        const innerType = (def as z.core.$ZodOptionalDef).innerType;
        const inner = compile(innerType);
        if (s._zod.traits.has("$ZodExactOptional")) return inner;
        // a defaulted inner substitutes a value for undefined: that is parsing, not checking
        if (innerType._zod.optin === "defaulted") return "optional of a defaulted schema";
        return (v) => v === undefined || inner(v);
      }
      case "lazy": {
        let inner: Check | undefined;
        // resolved on first use, as zod does, so a lazy may refer to a schema defined after it
        return (v) => (inner ??= compile((s._zod as unknown as { innerType: Schema }).innerType))(v);
      }
      case "array": {
        const element = compile((def as z.core.$ZodArrayDef).element);
        return (v) => {
          if (!Array.isArray(v)) return false;
          for (let i = 0; i < v.length; i++) if (!element(v[i])) return false;
          return true;
        };
      }
      case "object":
        return buildObject(def as z.core.$ZodObjectDef);
      case "record":
        return buildRecord(def as z.core.$ZodRecordDef);
      case "union":
        return buildUnion(def as z.core.$ZodUnionDef & { discriminator?: PropertyKey; unionFallback?: boolean });
      default:
        return def.type;
    }
  }

  function buildObject(def: z.core.$ZodObjectDef): Check | string {
    const shape = def.shape; // the first read resolves getters (recursive fields) once and for all
    if (Object.getOwnPropertySymbols(shape).length > 0) return "object with symbol keys";
    const keys: string[] = [];
    const fields: Check[] = [];
    // zod's rule for a key: an absent key fails unless the field is optional-in (optional, default,
    // nullable or union of one); an optional-in-and-out field's failure on an absent key is ignored
    const modes: number[] = [];
    for (const key of Object.keys(shape)) {
      if (key === "__proto__") continue; // zod never reads it
      const field = shape[key]!;
      keys.push(key);
      fields.push(compile(field));
      const optin = field._zod.optin;
      const optout = field._zod.optout;
      modes.push(optin === undefined ? REQUIRED : optout === "optional" ? OPTIONAL : OPTIONAL_IN);
    }
    const n = keys.length;
    const shapeOk = (v: Record<string, unknown>): boolean => {
      for (let i = 0; i < n; i++) {
        const key = keys[i]!;
        const mode = modes[i]!;
        if (fields[i]!(v[key])) {
          if (mode === REQUIRED && !(key in v)) return false;
        } else if (mode !== OPTIONAL || key in v) {
          return false;
        }
      }
      return true;
    };
    const catchall = def.catchall;
    if (catchall === undefined) return (v) => isObject(v) && shapeOk(v);
    const catchallType = catchall._zod.def.type;
    const catchallChecks = catchall._zod.def.checks ?? [];
    if ((catchallType === "unknown" || catchallType === "any") && catchallChecks.length === 0) {
      // a loose object: every other key is accepted as it is
      return (v) => isObject(v) && shapeOk(v);
    }
    // zod's key set is every declared string key, __proto__ included
    const keySet: ReadonlySet<string> = new Set(Object.keys(shape));
    if (catchallType === "never") {
      // a strict object: any other key fails, even __proto__ (for..in, as zod: inherited
      // enumerable keys count too); zod never runs a `never` catchall, so its checks do not matter
      return (v) => {
        if (!isObject(v) || !shapeOk(v)) return false;
        for (const key in v) if (!keySet.has(key)) return false;
        return true;
      };
    }
    const rest = compile(catchall);
    return (v) => {
      if (!isObject(v) || !shapeOk(v)) return false;
      for (const key in v) if (!keySet.has(key) && key !== "__proto__" && !rest(v[key])) return false;
      return true;
    };
  }

  function buildRecord(def: z.core.$ZodRecordDef): Check | string {
    // Only string-keyed records: zod then tests every own enumerable key, and a symbol key fails
    // z.string() unless the record is loose. Enumerated, refined or numeric keys go to zod.
    const keyDef = def.keyType._zod.def as z.core.$ZodTypeDef & { coerce?: boolean; format?: string };
    const plainStringKey =
      keyDef.type === "string" &&
      keyDef.coerce !== true &&
      keyDef.format === undefined &&
      (keyDef.checks ?? []).length === 0 &&
      !def.keyType._zod.traits.has("$ZodCheck");
    if (!plainStringKey) return "record whose keys are not a plain z.string()";
    const loose = (def as { mode?: string }).mode === "loose";
    const valueDef = def.valueType._zod.def;
    const anyValue = (valueDef.type === "unknown" || valueDef.type === "any") && (valueDef.checks ?? []).length === 0;
    const value = anyValue ? undefined : compile(def.valueType);
    const isPlainObject = z.util.isPlainObject;
    const hasOwn = Object.prototype.hasOwnProperty;
    const isEnumerable = Object.prototype.propertyIsEnumerable;
    return (v) => {
      if (!isPlainObject(v)) return false;
      const o = v as Record<PropertyKey, unknown>;
      if (!loose) {
        // the only allocation of a check on valid input: one (empty) array per record
        const symbols = Object.getOwnPropertySymbols(o);
        for (const sym of symbols) if (isEnumerable.call(o, sym)) return false;
      }
      if (value === undefined) return true;
      for (const key in o) {
        if (key === "__proto__" || !hasOwn.call(o, key)) continue;
        if (!value(o[key])) return false;
      }
      return true;
    };
  }

  function buildUnion(
    def: z.core.$ZodUnionDef & { discriminator?: PropertyKey; unionFallback?: boolean },
  ): Check | string {
    const options = def.options.map(compile);
    if (def.discriminator !== undefined) {
      if (def.unionFallback === true) return "discriminated union with unionFallback";
      // zod's discriminator map: each option's literal values of the key; a value two options
      // claim is ambiguous and matches none
      const byValue = new Map<unknown, Check | null>();
      for (let i = 0; i < def.options.length; i++) {
        const values = (def.options[i]!._zod as { propValues?: Record<PropertyKey, Set<unknown>> }).propValues?.[
          def.discriminator
        ];
        if (values === undefined || values.size === 0) return "discriminated union option without a discriminator";
        for (const value of values) {
          if (byValue.has(value)) {
            if (value !== undefined) return "discriminated union with a duplicate discriminator value";
            byValue.set(value, null);
          } else byValue.set(value, options[i]!);
        }
      }
      const key = def.discriminator;
      return (v) => {
        if (!isObject(v)) return false;
        const option = byValue.get(v[key]);
        return option !== undefined && option !== null && option(v);
      };
    }
    if (options.length === 1) return options[0]!;
    if ((def as { inclusive?: boolean }).inclusive === false) {
      // z.xor: exactly one option matches
      return (v) => {
        let matches = 0;
        for (const o of options) if (o(v)) matches++;
        return matches === 1;
      };
    }
    return (v) => {
      for (const o of options) if (o(v)) return true;
      return false;
    };
  }

  return compile(schema as Schema);
}

const REQUIRED = 0;
const OPTIONAL = 1; // optional in and out: an absent key passes, whatever the field says of undefined
const OPTIONAL_IN = 2; // defaulted and the like: an absent key is allowed, the field's verdict stands
