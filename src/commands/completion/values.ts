// Values for options and arguments that commander declares as open strings but whose values come
// from a known set. Enumerated options (`.choices(...)`) need no entry: their choices are read
// from the tree.
import { ALL_EVENT_TYPES, MERGIFY_DIALECT, SPEC_DIALECT } from "../../api/dialects/index.js";
import { CONFIG_KEYS } from "../../config/keys.js";
import { OUTCOMES, SORT_FIELDS } from "../../insights/records.js";
import { GATE_SCOPES } from "../../stats/fail-if.js";

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
const EVENT_OUTCOMES: KnownValues = { values: MERGIFY_DIALECT.outcomes, commaList: true };
const EVENT_OR_STAY_OUTCOMES: KnownValues = { values: [...new Set([...MERGIFY_DIALECT.outcomes, ...OUTCOMES])], commaList: true };

export const OPTION_VALUES: Readonly<Record<string, KnownValues>> = {
  "--type": TYPES,
  "--not-type": TYPES,
  // mq logs (an event's outcome) and mq prs / mq insights (a queue stay's): the shell offers both
  "--outcome": EVENT_OR_STAY_OUTCOMES,
  "--not-outcome": EVENT_OUTCOMES,
  "--fail-if-scope": { values: GATE_SCOPES },
  // mq prs, mq insights
  "--sort": { values: SORT_FIELDS },
  "--compare": { values: ["previous", "none"] },
};

/** By command path: the values of each positional argument. */
export const ARGUMENT_VALUES: Readonly<Record<string, ReadonlyArray<readonly string[]>>> = {
  "config get": [CONFIG_KEYS],
  "config set": [CONFIG_KEYS],
  "config unset": [CONFIG_KEYS],
};
