// Shapes a value to a JSON Schema of the real service's OpenAPI: properties the schema does not
// list are dropped, required ones that are missing get a neutral value (null where allowed, else
// [], false, 0, "", the first enum value, the given instant, a uuid). The bundled server's
// simulation is written in the contract's shape; this is how `mq serve --dialect mergify` answers
// in the service's shape without a second simulation. Generic on purpose: the schema says it all.

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export interface ConformContext {
  components: Readonly<Record<string, unknown>>;
  /** the date-time used for a missing date-time */
  instant: string;
  /** a uuid for a missing uuid (the caller makes it deterministic) */
  uuid: () => string;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function resolve(schema: unknown, c: ConformContext): Json {
  let s = schema;
  for (let i = 0; i < 16 && isObject(s) && typeof s.$ref === "string"; i++) {
    s = c.components[s.$ref.replace(/^#\/components\/schemas\//, "")];
  }
  return isObject(s) ? s : {};
}

function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function typeMatches(s: Json, v: unknown): boolean {
  const t = jsonType(v);
  if (Array.isArray(s.enum)) return s.enum.includes(v as never);
  if ("const" in s) return s.const === v;
  if (s.type === undefined) return true;
  if (s.type === "number") return t === "number" || t === "integer";
  if (s.type === "string" && s.format === "uuid") return typeof v === "string" && UUID_RE.test(v);
  return s.type === t;
}

/** how well `v` fits branch `s` of an anyOf (-1: not at all) */
function fit(s: Json, v: unknown): number {
  if (!typeMatches(s, v)) return -1;
  if (s.type !== "object" || !isObject(v) || !isObject(s.properties)) return 1;
  let score = 1;
  for (const [k, p] of Object.entries(s.properties)) {
    if (!(k in v)) continue;
    if (isObject(p) && "const" in p && p.const !== v[k]) return -1;
    score++;
  }
  return score;
}

export function defaultFor(schema: unknown, c: ConformContext): unknown {
  const s = resolve(schema, c);
  const branches = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(branches)) {
    if (branches.some((b) => resolve(b, c).type === "null")) return null;
    return defaultFor(branches[0], c);
  }
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (s.default !== undefined) return s.default;
  switch (s.type) {
    case "object":
      return conform({}, s, c);
    case "array":
      return [];
    case "string":
      return s.format === "date-time" ? c.instant : s.format === "uuid" ? c.uuid() : "";
    case "integer":
    case "number":
      return typeof s.minimum === "number" ? s.minimum : 0;
    case "boolean":
      return false;
    default:
      return null;
  }
}

type Conformer = (value: unknown, c: ConformContext) => unknown;

// Every event of a translated day goes through the same few schemas: each schema is turned once
// into a function (references resolved, branches and properties listed), which made translating
// a simulated day several times cheaper than walking the schema for every value.
const compiled = new WeakMap<Readonly<Record<string, unknown>>, Map<unknown, Conformer>>();

function conformerFor(schema: unknown, c: ConformContext): Conformer {
  let byComponents = compiled.get(c.components);
  if (!byComponents) compiled.set(c.components, (byComponents = new Map()));
  let f = byComponents.get(schema);
  if (f) return f;
  // a placeholder first: a schema may refer to itself
  let built: Conformer | undefined;
  byComponents.set(schema, (v, cc) => built!(v, cc));
  built = compile(schema, c);
  byComponents.set(schema, built);
  return built;
}

function compile(schema: unknown, c: ConformContext): Conformer {
  const s = resolve(schema, c);
  const fallback = (cc: ConformContext) => defaultFor(s, cc);
  const branches = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(branches)) {
    const resolved = branches.map((b) => resolve(b, c));
    return (value, cc) => {
      let best: Json | undefined;
      let bestFit = -1;
      for (const r of resolved) {
        const f = fit(r, value);
        if (f > bestFit) {
          bestFit = f;
          best = r;
        }
      }
      return best === undefined ? fallback(cc) : conformerFor(best, cc)(value, cc);
    };
  }
  if (s.type === "array") {
    let item: Conformer | undefined;
    return (value, cc) => {
      if (!typeMatches(s, value)) return fallback(cc);
      if (!Array.isArray(value)) return value;
      item ??= conformerFor(s.items, cc);
      return value.map((v) => item!(v, cc));
    };
  }
  if (s.type === "object" && isObject(s.properties)) {
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    const props = Object.entries(s.properties).map(([k, p]) => ({
      k,
      p,
      required: required.has(k),
      f: undefined as Conformer | undefined,
    }));
    return (value, cc) => {
      if (!typeMatches(s, value)) return fallback(cc);
      if (!isObject(value)) return value;
      const out: Json = {};
      for (const prop of props) {
        const v = value[prop.k];
        if (v !== undefined) out[prop.k] = (prop.f ??= conformerFor(prop.p, cc))(v, cc);
        else if (prop.required) out[prop.k] = defaultFor(prop.p, cc);
      }
      return out;
    };
  }
  return (value, cc) => (typeMatches(s, value) ? value : fallback(cc));
}

/** `value` shaped to `schema` (see the file comment); a value that fits is returned as it is */
export function conform(value: unknown, schema: unknown, c: ConformContext): unknown {
  return conformerFor(schema, c)(value, c);
}
