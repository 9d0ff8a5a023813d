// The options every command accepts and their allowed values. A leaf module (it imports nothing),
// so config/, api/ and the context can all depend on it without depending on each other.

export type OutputFormat = "table" | "json" | "ndjson" | "csv" | "none" | "markdown" | "openmetrics";
export const OUTPUT_FORMATS: readonly OutputFormat[] = ["table", "json", "ndjson", "csv", "none", "markdown", "openmetrics"];
/** Formats of figures over a window: only commands whose output has them (mq stats) take these. */
export const FIGURE_FORMATS: readonly OutputFormat[] = ["markdown", "openmetrics"];
export type ColorMode = "auto" | "always" | "never";
export const COLOR_MODES: readonly ColorMode[] = ["auto", "always", "never"];

/** The two sides of the API (src/api/dialects has what each says): the contract, and the real service. */
export type DialectName = "spec" | "mergify";
export const DIALECT_NAMES: readonly DialectName[] = ["spec", "mergify"];

/** Options that every command accepts, before or after the subcommand name. */
export interface GlobalOptions {
  repo?: string;
  apiUrl?: string;
  offline: boolean;
  output?: OutputFormat;
  /** undefined: --color not given (auto, unless the config file says otherwise) */
  color?: ColorMode;
  debug: boolean;
  token?: string;
  /** request timeout in seconds */
  timeout?: number;
  retry: boolean;
  insecure: boolean;
  strict: boolean;
  /** neutralise csv cells a spreadsheet would run as formulas (--no-csv-guard turns it off) */
  csvGuard: boolean;
  /** --dialect: which side of the API to speak (the names of src/api/dialects; default: from the API URL) */
  dialect?: DialectName;
}

export const DEFAULT_GLOBALS: GlobalOptions = {
  offline: false,
  debug: false,
  retry: true,
  insecure: false,
  strict: false,
  csvGuard: true,
};
