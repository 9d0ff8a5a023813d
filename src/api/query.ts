// Query-string encoding shared by the client and the tests. Light on purpose (no zod): the client
// builds URLs with it before any schema is loaded.

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

/**
 * Encodes parameters as `a=1&b=x` (no leading "?"). Arrays become repeated keys
 * (`event_type=a&event_type=b`), the form FastAPI reads for list parameters; undefined and null are
 * skipped so callers can pass optional flags straight through. Keys keep insertion order, which
 * keeps URLs (and the tests that assert them) stable.
 */
export function encodeQuery(params: Readonly<Record<string, QueryValue>>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value as readonly (string | number)[]) search.append(key, String(item));
    } else {
      search.append(key, String(value));
    }
  }
  return search.toString();
}
