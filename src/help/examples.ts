// Every command's help examples, keyed by command path ("" is mq itself): the hand-written ones
// (command-examples.ts) and each stats endpoint's (its record in src/stats/endpoints.ts). What the
// tests and the docs read; test/help-examples.e2e.test.ts runs every line.
import { STATS_ENDPOINTS } from "../stats/endpoints.js";
import { COMMAND_EXAMPLES } from "./command-examples.js";

export const EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  ...COMMAND_EXAMPLES,
  ...Object.fromEntries(STATS_ENDPOINTS.map((e) => [`stats ${e.name}`, e.examples])),
};
