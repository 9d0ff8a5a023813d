// A page of the event log checked against the dialect in effect: the dialect's generated
// validators say whether it is valid as it is (envelope.ts surelyValidPage) and, when it is not,
// parseEventsPage (page.ts) runs them again for the messages and the verdict of --strict. `mq logs`
// for one repository or several, `mq insights` and the archive use it. No zod.
import type { DialectName } from "../dialects/types.js";
import { CONTRACT_METADATA_CHECKS } from "./contract-checks.generated.js";
import { surelyValidPage, type MetadataChecks } from "./envelope.js";
import { parseEventsPage, type ParseEventsPageOptions } from "./page.js";

/** what a metadata mismatch is said not to match, in the warnings of each dialect */
export const METADATA_SHAPES_OF: Readonly<Record<DialectName, string>> = { spec: "the contract", mergify: "the service's OpenAPI" };

/** parseEventsPage's options but the metadata shapes and their name, which are the dialect's */
export type PageCheckOptions = Omit<ParseEventsPageOptions, "metadata" | "against">;

/** The page's events, as parseEventsPage returns them. */
export type PageCheck = (body: unknown, opts: PageCheckOptions) => unknown[] | Promise<unknown[]>;

const NO_METADATA_CHECKS: MetadataChecks = {};

/**
 * The generated checks of each event type's metadata in DIALECT. The contract's come with this
 * module; the real service's (52 KB) are loaded for its dialect only.
 */
export async function metadataChecks(dialect: DialectName): Promise<MetadataChecks> {
  if (dialect === "spec") return CONTRACT_METADATA_CHECKS;
  return (await import("../dialects/mergify-checks.generated.js")).MERGIFY_METADATA_CHECKS;
}

/**
 * `envelopes`: for a caller that never has metadata checked (parseEventsPage's checkMetadataOf
 * always false, outside --strict): the quick verdict then skips the metadata too, as it would.
 */
export async function pageCheck(dialect: DialectName, what: "pages" | "envelopes" = "pages"): Promise<PageCheck> {
  const metadata = await metadataChecks(dialect);
  const quick = what === "envelopes" ? NO_METADATA_CHECKS : metadata;
  const against = METADATA_SHAPES_OF[dialect];
  return (body, opts) => {
    if (surelyValidPage(body, quick)) return (body as { events: unknown[] }).events;
    return parseEventsPage(body, { ...opts, metadata, against }).events;
  };
}
