// The one reader of error bodies. The contract leaves them open (docs/api.md §7); the real service
// is FastAPI, which sends `{"detail": "..."}` or, for invalid parameters, a validation list
// `{"detail": [{loc, msg, type}, ...]}` (schema/errors.ts describes both shapes); proxies and other
// servers send `{"message": ...}` or short text. No zod here: it runs on the error path of the
// transport, before any schema is loaded.

/**
 * One readable line from an error body, or undefined when it says nothing readable:
 * `query.per_page: Input should be less than or equal to 100`; several details are joined by "; ".
 */
export function formatErrorBody(body: unknown): string | undefined {
  if (typeof body === "string") return body || undefined;
  if (body === null || typeof body !== "object") return undefined;
  const b = body as { detail?: unknown; message?: unknown };
  if (typeof b.detail === "string") return b.detail;
  if (Array.isArray(b.detail)) {
    const parts = b.detail.map((item: unknown) => {
      if (item === null || typeof item !== "object") return String(item);
      const { loc, msg } = item as { loc?: unknown; msg?: unknown };
      const where = Array.isArray(loc) ? loc.join(".") : "";
      const what = typeof msg === "string" ? msg : JSON.stringify(item);
      return where ? `${where}: ${what}` : what;
    });
    return parts.join("; ") || undefined;
  }
  if (b.detail !== undefined) return JSON.stringify(b.detail);
  if (typeof b.message === "string") return b.message;
  return undefined;
}

/** The body of a failed response: JSON when it parses, short text, nothing for an HTML page. */
export function parseErrorBody(text: string, contentType: string | string[] | undefined): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    const ct = String(contentType ?? "");
    if (ct.includes("html") || /^\s*</.test(text)) return undefined;
    return text.trim().slice(0, 200);
  }
}
