// A normalized JSON Schema (json-schemas.ts) as the source text of plain JavaScript validators,
// for both dialects: scripts/gen-checks.mjs writes them (check-files.ts lists the modules). Each
// node becomes `function cN(v, p)`: without `p`, a yes/no test that allocates nothing (the hot
// path of `mq logs --all`, and the start-up path of a one-page `mq logs`); with a path, the same
// test recording every issue in zod's words and order (check-helpers.ts), for the messages mq has
// always printed. One implementation answers and explains: they cannot disagree.
// Generation time only.
import { DATE_TIME_MESSAGE } from "./envelope.js";

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** A value in a message: strings quoted, as zod writes them. */
function primitive(v: unknown): string {
  return typeof v === "string" ? JSON.stringify(v) : String(v);
}

function enumMessage(values: readonly unknown[]): string {
  if (values.length === 1) return `Invalid input: expected ${primitive(values[0])}`;
  return `Invalid option: expected one of ${values.map(primitive).join("|")}`;
}

export interface EmitOptions {
  /** the node a `$ref` points to */
  resolve: (ref: string) => unknown;
  /** the regular expressions of the formats the schemas use */
  formats: Readonly<Record<string, RegExp>>;
}

export interface EmittedChecks {
  /** constant and function declarations */
  declarations: string[];
  /** name -> the function's identifier */
  names: Map<string, string>;
}

const q = JSON.stringify;

/** Emits one validator per named schema, sharing the functions of nodes they have in common. */
export function emitChecks(schemas: ReadonlyMap<string, unknown>, opts: EmitOptions): EmittedChecks {
  const declarations: string[] = [];
  const names = new Map<string, string>();
  const fnOfRef = new Map<string, string>();
  const fnOfBody = new Map<string, string>();
  const constants = new Map<string, string>();
  let count = 0;

  function constant(prefix: string, code: string): string {
    let id = constants.get(code);
    if (id === undefined) {
      id = `${prefix}${constants.size}`;
      constants.set(code, id);
      declarations.push(`const ${id} = ${code};`);
    }
    return id;
  }

  /** the function that validates `node` */
  function fn(node: unknown): string {
    if (isObject(node) && typeof node.$ref === "string") {
      const ref = node.$ref;
      let id = fnOfRef.get(ref);
      if (id === undefined) {
        // named before its body is built: a recursive schema calls itself by name
        id = `c${count++}`;
        fnOfRef.set(ref, id);
        declarations.push(`function ${id}(v: any, p?: Path | null): boolean {\n${body(opts.resolve(ref))}\n}`);
      }
      return id;
    }
    const text = body(node);
    let id = fnOfBody.get(text);
    if (id === undefined) {
      id = `c${count++}`;
      fnOfBody.set(text, id);
      declarations.push(`function ${id}(v: any, p?: Path | null): boolean {\n${text}\n}`);
    }
    return id;
  }

  /** `return` statements: the test on the fast path, and the recording path */
  function body(node: unknown): string {
    if (!isObject(node) || Object.keys(node).length === 0) return "  return true;";
    if (typeof node.$ref === "string") return `  return ${fn(node)}(v, p);`;
    if (Array.isArray(node.anyOf)) return unionBody(node.anyOf as unknown[]);
    if (Array.isArray(node.enum)) return oneOf(node.enum);
    if ("const" in node) return oneOf([node.const]);
    switch (node.type) {
      case "string":
        return stringBody(node);
      case "number":
        return numberBody(node);
      case "boolean":
        return `  return typeof v === "boolean" || (p != null && typeIssue(p, "boolean", v));`;
      case "null":
        return `  return v === null || (p != null && typeIssue(p, "null", v));`;
      case "array":
        return arrayBody(node);
      case "object":
        return node["x-record"] === true ? recordBody(node) : objectBody(node);
      default:
        throw new Error(`cannot emit a check for ${q(node)}`);
    }
  }

  function oneOf(values: unknown[]): string {
    if (
      !values.every((x) => x === null || typeof x === "string" || typeof x === "boolean" || (typeof x === "number" && Number.isFinite(x)))
    ) {
      throw new Error(`cannot emit an enum of ${q(values)}`);
    }
    const test = values.length <= 4 ? values.map((x) => `v === ${q(x)}`).join(" || ") : `${constant("e", `new Set(${q(values)})`)}.has(v)`;
    return `  return ${test} || (p != null && bad(p, ${q(enumMessage(values))}));`;
  }

  function unionBody(branches: unknown[]): string {
    const isNull = (b: unknown) => isObject(b) && b.type === "null" && Object.keys(b).length === 1;
    if (branches.length === 2 && isNull(branches[1])) {
      // "X or null": X's issues, as zod's nullable
      return `  return v === null || ${fn(branches[0])}(v, p);`;
    }
    const fns = branches.map(fn);
    return `  return ${fns.map((f) => `${f}(v, null)`).join(" || ")} || (p != null && union(v, p, [${fns.join(", ")}]));`;
  }

  function stringBody(node: Json): string {
    if (node.format === "date-time") {
      // the contract's one message for anything but a date-time, a string or not
      const re = constant("re", opts.formats["date-time"]!.toString());
      return `  return (typeof v === "string" && ${re}.test(v)) || (p != null && bad(p, ${q(DATE_TIME_MESSAGE)}, typeof v !== "string"));`;
    }
    const lines = [`  if (typeof v !== "string") return p != null && typeIssue(p, "string", v);`];
    const checks: Array<[string, string]> = [];
    if (node.format === "uuid") checks.push([`${constant("re", opts.formats.uuid!.toString())}.test(v)`, "Invalid GUID"]);
    else if (node.format !== undefined) throw new Error(`cannot emit format ${String(node.format)}`);
    // zod counts UTF-16 units (string.length)
    if (typeof node.minLength === "number")
      checks.push([`v.length >= ${node.minLength}`, `Too small: expected string to have >=${node.minLength} characters`]);
    if (typeof node.maxLength === "number")
      checks.push([`v.length <= ${node.maxLength}`, `Too big: expected string to have <=${node.maxLength} characters`]);
    if (typeof node.pattern === "string") {
      const re = new RegExp(node.pattern);
      checks.push([`${constant("re", re.toString())}.test(v)`, `Invalid string: must match pattern ${re.toString()}`]);
    }
    return [...lines, ...checksCode(checks)].join("\n");
  }

  /** checks after the type: all run, each failure recorded (zod's continuable checks) */
  function checksCode(checks: Array<[string, string]>): string[] {
    if (checks.length === 0) return ["  return true;"];
    if (checks.length === 1) return [`  return ${checks[0]![0]} || (p != null && bad(p, ${q(checks[0]![1])}, false));`];
    return [
      `  if (p == null) return ${checks.map(([t]) => `(${t})`).join(" && ")};`,
      `  return all([${checks.map(([t, m]) => `${t} || bad(p, ${q(m)}, false)`).join(", ")}]);`,
    ];
  }

  function numberBody(node: Json): string {
    const lines = [`  if (typeof v !== "number" || !Number.isFinite(v)) return p != null && typeIssue(p, "number", v);`];
    const checks: Array<[string, string]> = [];
    if (node.minimum !== undefined) checks.push([`v >= ${node.minimum}`, `Too small: expected number to be >=${node.minimum}`]);
    if (node.exclusiveMinimum !== undefined)
      checks.push([`v > ${node.exclusiveMinimum}`, `Too small: expected number to be >${node.exclusiveMinimum}`]);
    if (node.maximum !== undefined) checks.push([`v <= ${node.maximum}`, `Too big: expected number to be <=${node.maximum}`]);
    if (node.exclusiveMaximum !== undefined)
      checks.push([`v < ${node.exclusiveMaximum}`, `Too big: expected number to be <${node.exclusiveMaximum}`]);
    if (node["x-int64"] === true) {
      // any integer (a double at or beyond 2^53 is one) up to 2^63: JSON.parse rounds 2^63-1 to it
      lines.push(`  if (!Number.isInteger(v)) return p != null && bad(p, "Invalid input: expected int, received number");`);
      checks.push(["v <= 9223372036854775807", "Too big: expected int to be <=9223372036854775807"]);
      return [...lines, ...checksCode(checks)].join("\n");
    }
    if (node["x-int"] === true) {
      // zod's int check comes first, and a non-integer stops the checks after it
      if (checks.length === 0) return [...lines, "  return int(v, p);"].join("\n");
      lines.push("  if (!Number.isInteger(v)) return int(v, p);");
      if (checks.length > 0) {
        return [
          ...lines,
          `  if (p == null) return Number.isSafeInteger(v) && ${checks.map(([t]) => `(${t})`).join(" && ")};`,
          `  return all([int(v, p), ${checks.map(([t, m]) => `${t} || bad(p, ${q(m)}, false)`).join(", ")}]);`,
        ].join("\n");
      }
    }
    return [...lines, ...checksCode(checks)].join("\n");
  }

  function arrayBody(node: Json): string {
    const item = isObject(node.items) && Object.keys(node.items).length > 0 ? fn(node.items) : undefined;
    const lines = [`  if (!Array.isArray(v)) return p != null && typeIssue(p, "array", v);`];
    const checks: Array<[string, string]> = [];
    if (typeof node.minItems === "number")
      checks.push([`v.length >= ${node.minItems}`, `Too small: expected array to have >=${node.minItems} items`]);
    if (typeof node.maxItems === "number")
      checks.push([`v.length <= ${node.maxItems}`, `Too big: expected array to have <=${node.maxItems} items`]);
    if (item === undefined) return [...lines, ...checksCode(checks)].join("\n");
    if (checks.length === 0) return [...lines, `  return items(v, p, ${item});`].join("\n");
    // an item's aborting issue skips the array's own checks, as zod does
    return [
      ...lines,
      `  if (p == null) return items(v, null, ${item}) && ${checks.map(([t]) => `(${t})`).join(" && ")};`,
      "  const m = mark();",
      `  const ok = items(v, p, ${item});`,
      "  if (abortedSince(m)) return false;",
      `  return all([ok, ${checks.map(([t, msg]) => `${t} || bad(p, ${q(msg)}, false)`).join(", ")}]);`,
    ].join("\n");
  }

  function recordBody(node: Json): string {
    const value =
      isObject(node.additionalProperties) && Object.keys(node.additionalProperties).length > 0 ? fn(node.additionalProperties) : undefined;
    const test = `  if (!isObj(v)) return p != null && typeIssue(p, "record", v);`;
    return value === undefined ? `${test}\n  return true;` : `${test}\n  return values(v, p, ${value});`;
  }

  function objectBody(node: Json): string {
    const props = (node.properties ?? {}) as Json;
    const required = new Set((node.required ?? []) as string[]);
    const keys = Object.keys(props).filter((k) => k !== "__proto__");
    const head = `  if (!isObj(v)) return p != null && typeIssue(p, "object", v);`;
    if (keys.length === 0) return `${head}\n  return true;`;
    const fast: string[] = [];
    const slow: string[] = [];
    for (const k of keys) {
      const f = fn(props[k]);
      const x = `v[${q(k)}]`;
      const missing = required.has(k) ? missingMessage(props[k]) : undefined;
      fast.push(missing !== undefined ? `${x} !== undefined && ${f}(${x}, null)` : `(${x} === undefined || ${f}(${x}, null))`);
      slow.push(`prop(v, p, ${q(k)}, ${f}, ${missing === undefined ? "undefined" : constant("m", q(missing))})`);
    }
    return [head, `  if (p == null) return ${fast.join(" && ")};`, `  return all([${slow.join(", ")}]);`].join("\n");
  }

  /** zod's words for an absent required key: its issue for `undefined` */
  function missingMessage(node: unknown, depth = 0): string {
    if (!isObject(node) || Object.keys(node).length === 0) return "Invalid input: expected nonoptional, received undefined";
    if (typeof node.$ref === "string") {
      if (depth > 16) throw new Error(`${node.$ref}: a reference to itself`);
      return missingMessage(opts.resolve(node.$ref), depth + 1);
    }
    if (Array.isArray(node.anyOf)) {
      const [first, second] = node.anyOf as unknown[];
      if (node.anyOf.length === 2 && isObject(second) && second.type === "null") return missingMessage(first, depth + 1);
      return "Invalid input";
    }
    if (Array.isArray(node.enum)) return enumMessage(node.enum);
    if ("const" in node) return enumMessage([node.const]);
    if (node.format === "date-time") return DATE_TIME_MESSAGE;
    const type = node.type === "object" && node["x-record"] === true ? "record" : String(node.type);
    return `Invalid input: expected ${type}, received undefined`;
  }

  for (const [name, schema] of schemas) names.set(name, fn(schema));
  return { declarations, names };
}
