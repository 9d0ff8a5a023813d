// Values for options and arguments that commander declares as open strings but whose values come
// from a known set. Enumerated options (`.choices(...)`) need no entry: their choices are read
// from the tree.
import { ALL_EVENT_TYPES, MERGIFY_DIALECT, SPEC_DIALECT } from "../api/dialects/index.js";
import { CONFIG_KEYS } from "../config/keys.js";

export interface KnownValues {
  readonly values: readonly string[];
  /** the option takes comma-separated lists (`--type a,b`) */
  readonly commaList?: boolean;
}

/** By long flag. */
// both dialects' types: the shell cannot know which side the command will talk to, and mq
// refuses a type of the other side in one line
const TYPES: KnownValues = {
  values: [...new Set([...SPEC_DIALECT.eventFamilies, ...MERGIFY_DIALECT.eventFamilies, ...ALL_EVENT_TYPES])].sort(),
  commaList: true,
};
const OUTCOMES: KnownValues = { values: MERGIFY_DIALECT.outcomes, commaList: true };

export const OPTION_VALUES: Readonly<Record<string, KnownValues>> = {
  "--type": TYPES,
  "--not-type": TYPES,
  "--outcome": OUTCOMES,
  "--not-outcome": OUTCOMES,
};

/** By command path: the values of each positional argument. */
export const ARGUMENT_VALUES: Readonly<Record<string, ReadonlyArray<readonly string[]>>> = {
  "config get": [CONFIG_KEYS],
  "config set": [CONFIG_KEYS],
  "config unset": [CONFIG_KEYS],
};
