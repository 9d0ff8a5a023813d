// What `mq logs` runs with once its flags are checked (LogsOptions), and the limits and fields its
// flags, its run and its messages share.
import type { OutputFormat } from "../../context.js";
import type { Dialect } from "../../api/dialects/index.js";
import type { LogsFilterValues } from "../../cmdutil/logs-filters.js";
import type { ArchiveMode } from "../../archive/choose.js";
import { SCREEN_ROWS } from "../../iostreams/long-list.js";

/** Events shown on a terminal when neither --limit nor --all is given (and the --follow backlog): the one screen of iostreams/long-list.ts. */
export const DEFAULT_TERMINAL_LIMIT = SCREEN_ROWS;
export const MAX_PER_PAGE = 100;
export const DEFAULT_INTERVAL_SECONDS = 5;

/** Fields of the event envelope that --fields can select; `outcome` is sent by the real service. */
export const EVENT_FIELDS = [
  "id",
  "received_at",
  "trigger",
  "repository",
  "pull_request",
  "base_ref",
  "outcome",
  "type",
  "metadata",
] as const;
/** CSV columns without --fields: the contract's envelope, metadata as JSON. */
export const CSV_COLUMNS = ["id", "received_at", "trigger", "repository", "pull_request", "base_ref", "type", "metadata"];

/** CSV columns without --fields: the envelope of the dialect's events (the real service adds `outcome`). */
export function csvColumns(d: Dialect): string[] {
  return d.outcomes.length > 0
    ? ["id", "received_at", "trigger", "repository", "pull_request", "base_ref", "outcome", "type", "metadata"]
    : CSV_COLUMNS;
}

export interface LogsOptions {
  /** the dialect in effect: its event types, filters and metadata shapes */
  dialect: Dialect;
  /** the list filters (--pr, --type, --outcome, their exclusions, ...) by query parameter */
  filters: LogsFilterValues;
  baseRef?: string;
  /** the list filters as typed ("--type 'action.queue.*'"): what an empty result repeats */
  typedFilters?: string[];
  /** event types after family globs are expanded, in the order given (filters.event_type) */
  types?: string[];
  since?: Date;
  until?: Date;
  perPage?: number;
  /** stop after this many events; undefined means every page of the window */
  limit?: number;
  /** true when the user typed --limit (the header names the flag only then) */
  limitGiven: boolean;
  all: boolean;
  cursor?: string;
  follow: boolean;
  /** poll period for --follow, in seconds */
  interval: number;
  fields?: string[];
  format: OutputFormat;
  /** read the local archive (`mq archive sync`) instead of the API: always, never, or when it covers the window */
  archive: ArchiveMode;
  /** requests in flight for a whole window (--since, no --limit): parallel time slices */
  parallel: number;
}

/** The API's default window: received_from = received_to minus one day. */
export const DEFAULT_WINDOW_MS = 86_400_000;
