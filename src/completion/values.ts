// Values for options and arguments that commander declares as open strings but whose values come
// from a known set. Enumerated options (`.choices(...)`) need no entry: their choices are read
// from the tree.
import { EVENT_TYPES, EVENT_TYPE_FAMILIES } from "../api/event-types.js";
import { CONFIG_KEYS } from "../config/keys.js";
import { OUTCOMES, SORT_FIELDS } from "../insights/records.js";
import { GATE_SCOPES } from "../stats/fail-if.js";

export interface KnownValues {
  readonly values: readonly string[];
  /** the option takes comma-separated lists (`--type a,b`) */
  readonly commaList?: boolean;
}

/** By long flag. */
export const OPTION_VALUES: Readonly<Record<string, KnownValues>> = {
  "--type": { values: [...new Set([...EVENT_TYPE_FAMILIES, ...EVENT_TYPES])].sort(), commaList: true },
  "--fail-if-scope": { values: GATE_SCOPES },
  // mq prs, mq insights
  "--sort": { values: SORT_FIELDS },
  "--outcome": { values: OUTCOMES, commaList: true },
  "--compare": { values: ["previous", "none"] },
};

/** By command path: the values of each positional argument. */
export const ARGUMENT_VALUES: Readonly<Record<string, ReadonlyArray<readonly string[]>>> = {
  "config get": [CONFIG_KEYS],
  "config set": [CONFIG_KEYS],
  "config unset": [CONFIG_KEYS],
};
