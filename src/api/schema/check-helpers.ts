// What the generated predicates (*-checks.generated.ts, written by scripts/gen-checks.mjs) call:
// zod's object and plain-record tests (zod's core/util.js), without zod. One copy for the four
// generated modules, which import it.
/* eslint-disable @typescript-eslint/no-explicit-any */

export const isObj = (v: any): boolean => typeof v === "object" && v !== null && !Array.isArray(v);
export function isPlainObject(o: any): boolean {
  if (!isObj(o)) return false;
  const ctor = o.constructor;
  if (ctor === undefined || typeof ctor !== "function") return true;
  const prot = ctor.prototype;
  return isObj(prot) && Object.prototype.hasOwnProperty.call(prot, "isPrototypeOf");
}
export function everyItem(v: any[], item: (x: unknown) => boolean): boolean {
  for (let i = 0; i < v.length; i++) if (!item(v[i])) return false;
  return true;
}
export function isPlainRecord(v: any, loose: boolean, value: ((x: unknown) => boolean) | undefined): boolean {
  if (!isPlainObject(v)) return false;
  if (!loose) for (const sym of Object.getOwnPropertySymbols(v)) if (Object.prototype.propertyIsEnumerable.call(v, sym)) return false;
  if (value === undefined) return true;
  for (const key in v) {
    if (key === "__proto__" || !Object.prototype.hasOwnProperty.call(v, key)) continue;
    if (!value(v[key])) return false;
  }
  return true;
}
