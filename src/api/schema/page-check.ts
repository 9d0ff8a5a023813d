// A page of the event log checked against the dialect in effect, loading zod only when it must:
// the generated predicates (envelope.ts surelyValidPage) vouch for a valid page; the first page
// they cannot vouch for loads zod and the dialect's metadata schemas, and parseEventsPage has the
// last word and every message. `mq logs` for one repository or several use it, so a one-page run
// against either side of the API costs no zod.
import type { DialectName } from "../dialects/types.js";
import { surelyValidPage } from "./envelope.js";
import type { ParseEventsPageOptions } from "./events.js";

/** what a metadata mismatch is said not to match, in the warnings of each dialect */
export const METADATA_SHAPES_OF: Readonly<Record<DialectName, string>> = { spec: "the contract", mergify: "the service's OpenAPI" };

/** parseEventsPage's options but the metadata shapes, which are the dialect's */
export type PageCheckOptions = Omit<ParseEventsPageOptions, "metadata">;

/** The page's events, as parseEventsPage returns them (a promise when zod is loaded for it). */
export type PageCheck = (body: unknown, opts: PageCheckOptions) => unknown[] | Promise<unknown[]>;

const NO_METADATA_CHECKS: Readonly<Record<string, undefined>> = {};

/**
 * `envelopes`: for a caller that never has metadata checked (parseEventsPage's checkMetadataOf
 * always false, outside --strict): the predicates then skip the metadata too, as it would.
 */
export async function pageCheck(dialect: DialectName, what: "pages" | "envelopes" = "pages"): Promise<PageCheck> {
  const mergify = dialect === "mergify";
  // the contract's checks are surelyValidPage's default
  const checks =
    what === "envelopes" ? NO_METADATA_CHECKS : mergify ? (await import("../dialects/mergify-checks.generated.js")).MERGIFY_METADATA_CHECKS : undefined;
  let parse: ((body: unknown, opts: PageCheckOptions) => unknown[]) | undefined;
  let loading: Promise<void> | undefined;
  const load = () =>
    (loading ??= Promise.all([import("./events.js"), mergify ? import("../dialects/mergify-metadata.js") : undefined]).then(([events, shapes]) => {
      const metadata = shapes?.MERGIFY_METADATA_SCHEMAS;
      parse = (body, opts) => events.parseEventsPage(body, { ...opts, metadata }).events;
    }));
  return (body, opts) => {
    if (surelyValidPage(body, checks)) return (body as { events: unknown[] }).events;
    if (parse !== undefined) return parse(body, opts);
    return load().then(() => parse!(body, opts));
  };
}
