// The real service's schemas (JSON Schema, its OpenAPI) read into zod, loose like every schema of mq:
// an independent reading of what the file means, for the tests. mq validates with its generated
// validators (src/api/schema/check-files.ts); these zod schemas are what their verdicts and their
// words are compared with (the converter mq used to validate with, kept as the reference).
import * as z from "zod";
import { DateTimeSchema, UuidSchema } from "../../src/api/schema/common.js";

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export class JsonSchemaToZod {
  private readonly refs = new Map<string, z.ZodType>();

  constructor(private readonly components: Readonly<Record<string, unknown>>) {}

  /** zod for `schema`; `$ref: #/components/schemas/X` resolves in the components given. */
  convert(schema: unknown): z.ZodType {
    if (!isObject(schema)) return z.unknown();
    if (typeof schema.$ref === "string") return this.ref(schema.$ref);
    const branches = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
    if (Array.isArray(branches)) return this.union(branches);
    if (Array.isArray(schema.enum)) return this.enumOf(schema.enum);
    if ("const" in schema) return z.literal(schema.const as string | number | boolean | null);
    switch (schema.type) {
      case "object":
        return this.object(schema);
      case "array": {
        let a = z.array(this.convert(schema.items));
        if (typeof schema.maxItems === "number") a = a.max(schema.maxItems);
        if (typeof schema.minItems === "number") a = a.min(schema.minItems);
        return a;
      }
      case "string":
        return this.string(schema);
      case "integer":
      case "number": {
        if (schema.type === "integer" && typeof schema.maximum === "number" && schema.maximum >= 2 ** 63) {
          // the real service's int64: any integer up to 2^63 (JSON.parse reads 2^63-1 as 2^63), not
          // only the safe ones z.int() takes; the words are zod's for an int and its maximum
          let n = z.number().refine(Number.isInteger, { message: "Invalid input: expected int, received number", abort: true });
          if (typeof schema.minimum === "number") n = n.min(schema.minimum);
          return n.refine((v) => v <= 2 ** 63, { message: "Too big: expected int to be <=9223372036854775807" });
        }
        let n = schema.type === "integer" ? z.int() : z.number();
        if (typeof schema.minimum === "number") n = n.min(schema.minimum);
        if (typeof schema.maximum === "number" && schema.maximum <= Number.MAX_SAFE_INTEGER) n = n.max(schema.maximum);
        if (typeof schema.exclusiveMaximum === "number") n = n.lt(schema.exclusiveMaximum);
        return n;
      }
      case "boolean":
        return z.boolean();
      case "null":
        return z.null();
      default:
        return z.unknown();
    }
  }

  private ref(ref: string): z.ZodType {
    const name = ref.replace(/^#\/components\/schemas\//, "");
    let found = this.refs.get(name);
    if (found === undefined) {
      // lazy: the schemas refer to themselves (condition evaluations nest)
      let built: z.ZodType | undefined;
      found = z.lazy(() => (built ??= this.convert(this.components[name])));
      this.refs.set(name, found);
    }
    return found;
  }

  private union(branches: unknown[]): z.ZodType {
    const nonNull = branches.filter((b) => !(isObject(b) && b.type === "null"));
    const nullable = nonNull.length < branches.length;
    const parts = nonNull.map((b) => this.convert(b));
    let out: z.ZodType;
    if (parts.length === 0) out = z.null();
    else if (parts.length === 1) out = parts[0]!;
    else out = z.union(parts as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]]);
    return nullable && parts.length > 0 ? out.nullable() : out;
  }

  private enumOf(values: unknown[]): z.ZodType {
    if (values.every((v): v is string => typeof v === "string")) return z.enum(values as [string, ...string[]]);
    return z.union(values.map((v) => z.literal(v as string | number | boolean | null)) as unknown as [z.ZodType, z.ZodType]);
  }

  private string(schema: Json): z.ZodType {
    if (schema.format === "date-time") return DateTimeSchema;
    if (schema.format === "uuid") return UuidSchema;
    let s = z.string();
    if (typeof schema.minLength === "number") s = s.min(schema.minLength);
    if (typeof schema.maxLength === "number") s = s.max(schema.maxLength);
    if (typeof schema.pattern === "string") s = s.regex(new RegExp(schema.pattern, "u"));
    return s;
  }

  private object(schema: Json): z.ZodType {
    const props = isObject(schema.properties) ? schema.properties : undefined;
    if (props === undefined) {
      const extra = schema.additionalProperties;
      return z.record(z.string(), isObject(extra) ? this.convert(extra) : z.unknown());
    }
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const shape: Record<string, z.ZodType> = {};
    for (const [k, v] of Object.entries(props)) {
      const t = this.convert(v);
      shape[k] = required.has(k) ? t : t.optional();
    }
    return z.looseObject(shape);
  }
}
