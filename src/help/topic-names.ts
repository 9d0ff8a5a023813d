// What `mq --help` shows of the help topics: their names (the help command's description) and the
// exit codes (the text that ends it). The topics' texts are in topics.ts, which only the help
// command's run loads (the figures topic is the whole figure catalogue).
import { EXIT_CODE_TABLE } from "../errors.js";

/** The topics of `mq help <topic>`, in the order `mq help --help` names them (topics.ts has a text for each). */
export const TOPIC_NAMES = ["formats", "config", "environment", "figures", "exit-codes"] as const;

export type TopicName = (typeof TOPIC_NAMES)[number];

/** The exit codes as `mq --help` ends and `mq help exit-codes` prints them, from the one map. */
export function exitCodesText(): string {
  return `Exit codes:\n${EXIT_CODE_TABLE.map(([c, d]) => `  ${String(c).padEnd(4)}${d}`).join("\n")}\n`;
}
