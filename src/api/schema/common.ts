// Scalars and enumerations shared by every schema of the contract (docs/api.md §2.1, §2.4, §3).
import * as z from "zod";
import { EVENT_TYPES } from "../dialects/spec.js";
import { ABORT_CODES } from "../abort-codes.js";
import { NAME_MAX_LENGTH, NAME_PATTERN, OWNER_MAX_LENGTH, OWNER_PATTERN } from "../../validators.js";

import { DATE_TIME_MESSAGE } from "./envelope.js";

// isDateTime tests zod's own date-time pattern of DateTimeSchema (offset required, any precision:
// it knows month lengths and leap years, so 2026-02-30 is refused), generated into a module
// without zod (contract-checks.generated.ts) so that hot paths test it without a schema call (envelope.ts)
export { DATE_TIME_MESSAGE, isDateTime } from "./envelope.js";

export const DateTimeSchema = z.iso.datetime({ offset: true, error: DATE_TIME_MESSAGE });

/** The hosting platform's uuids are not always RFC 4122 variants, so any 8-4-4-4-12 hex is taken. */
export const UuidSchema = z.guid();

// the rules of validators.ts, as schemas for the server's parameters and the contract's checks
export const OwnerSchema = z.string().min(1).max(OWNER_MAX_LENGTH).regex(OWNER_PATTERN);
export const RepositorySchema = z.string().min(1).max(NAME_MAX_LENGTH).regex(NAME_PATTERN);

export { ABORT_CODES };
export const AbortCodeSchema = z.enum(ABORT_CODES);
export type AbortCode = z.infer<typeof AbortCodeSchema>;

/** Counter names of QueueChecksOutcome (docs/api.md §2.6): every abort code plus SUCCESS. */
export const CHECKS_OUTCOME_COUNTERS = ["SUCCESS", ...ABORT_CODES] as const;

export const CHECK_STATES = [
  "failure",
  "error",
  "cancelled",
  "action_required",
  "timed_out",
  "pending",
  "neutral",
  "skipped",
  "stale",
  "success",
] as const;
export const CheckStateSchema = z.enum(CHECK_STATES);
export type CheckState = z.infer<typeof CheckStateSchema>;

export const CHECKS_CONCLUSIONS = [
  "success",
  "failure",
  "neutral",
  "cancelled",
  "skipped",
  "stale",
  "action_required",
  "timed_out",
  "error",
  "pending",
] as const;
export const ChecksConclusionSchema = z.enum(CHECKS_CONCLUSIONS);
export type ChecksConclusion = z.infer<typeof ChecksConclusionSchema>;

export const ABORT_STATUSES = ["DEFINITIVE", "REEMBARKED"] as const;
export const AbortStatusSchema = z.enum(ABORT_STATUSES);
export type AbortStatus = z.infer<typeof AbortStatusSchema>;

export const RETRY_MODES = ["job", "pipeline"] as const;
export const RetryModeSchema = z.enum(RETRY_MODES);
export type RetryMode = z.infer<typeof RetryModeSchema>;

export const PLATFORM_ACCOUNT_TYPES = ["User", "Organization", "Bot", "Mannequin", "Enterprise"] as const;
export const PlatformAccountTypeSchema = z.enum(PLATFORM_ACCOUNT_TYPES);
export type PlatformAccountType = z.infer<typeof PlatformAccountTypeSchema>;

export const ACTOR_TYPES = ["application", "user"] as const;
export const ActorTypeSchema = z.enum(ACTOR_TYPES);
export type ActorType = z.infer<typeof ActorTypeSchema>;

export const EventTypeSchema = z.enum(EVENT_TYPES);

/** `metadata.queued_at: expected ...`: one issue as a readable path and message. */
export function formatIssue(issue: z.core.$ZodIssue, prefix = ""): string {
  let path = prefix;
  for (const seg of issue.path) {
    if (typeof seg === "number") path += `[${seg}]`;
    else path += path === "" ? String(seg) : `.${String(seg)}`;
  }
  return path === "" ? issue.message : `${path}: ${issue.message}`;
}

/** The first issues of `value` against a zod schema of the contract, undefined when it matches (zod's public safeParse). */
export function firstIssues(schema: z.ZodType, value: unknown, max = 3): z.core.$ZodIssue[] | undefined {
  const result = schema.safeParse(value);
  return result.success ? undefined : result.error.issues.slice(0, max);
}
