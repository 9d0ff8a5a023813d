// A statistics answer checked against the dialect in effect by its generated validators
// (contract-stats-checks.generated.ts, dialects/mergify-stats-checks.generated.ts), which also word
// what is wrong (issues.ts). No zod.
import { ContractError } from "../../errors.js";
import { CONTRACT_STATS_CHECKS, CONTRACT_STATS_LENIENT_CHECKS } from "./contract-stats-checks.generated.js";
import { issuesText } from "./issues.js";

export interface ParseStatsOptions {
  /** Throw ContractError when the body differs from the contract in the real service's known way. */
  strict?: boolean;
  /** Called once when the body differs from the contract the way the real service does. */
  onMismatch?: (name: string, message: string) => void;
}

const PREFIX = "response does not match the contract";

/** True when the contract's validator of endpoint `name` accepts `body` as it is (false for an unknown name). */
export function isContractStatsAnswer(name: string, body: unknown): boolean {
  return Object.hasOwn(CONTRACT_STATS_CHECKS, name) && CONTRACT_STATS_CHECKS[name]!(body);
}

/**
 * Validates a statistics response and returns the body itself (unknown fields and key order kept).
 * A body that only lacks the group keys the real service omits (partition_name, partition_names)
 * is accepted with onMismatch (ContractError with strict); anything else throws ContractError
 * naming the path, e.g. `groups[0].stats[2].entered: Invalid input: expected number, received string`.
 */
export function parseStatsResponse(name: string, body: unknown, opts: ParseStatsOptions = {}): unknown {
  if (!Object.hasOwn(CONTRACT_STATS_CHECKS, name)) throw new Error(`unknown statistics endpoint: ${name}`);
  const strict = CONTRACT_STATS_CHECKS[name]!;
  if (strict(body)) return body;
  const message = issuesText(strict, body)!;
  const lenient = CONTRACT_STATS_LENIENT_CHECKS[name]!;
  if (!lenient(body)) throw new ContractError(`${PREFIX}: ${name}: ${issuesText(lenient, body)!}`);
  if (opts.strict) throw new ContractError(`${PREFIX}: ${name}: ${message}`);
  opts.onMismatch?.(name, message);
  return body;
}

/**
 * What is wrong with the real service's answer of `path` (below /repos/{owner}/{repository}/) by
 * its OpenAPI, as one line; undefined when it matches or the OpenAPI gives that path no answer schema.
 */
export async function mergifyStatsIssues(path: string, body: unknown): Promise<string | undefined> {
  const { MERGIFY_STATS_CHECKS } = await loadMergifyStatsChecks();
  if (!Object.hasOwn(MERGIFY_STATS_CHECKS, path)) return undefined;
  return issuesText(MERGIFY_STATS_CHECKS[path]!, body);
}

/** True when the real service's OpenAPI accepts `body` as the answer of `path`, or gives that path no answer schema. */
export async function isMergifyStatsAnswer(path: string, body: unknown): Promise<boolean> {
  const { MERGIFY_STATS_CHECKS } = await loadMergifyStatsChecks();
  // a path the OpenAPI gives no answer schema is not checked at all
  if (!Object.hasOwn(MERGIFY_STATS_CHECKS, path)) return true;
  return MERGIFY_STATS_CHECKS[path]!(body);
}

/** The real service's generated checks (40 KB), loaded for its dialect only: the contract's come with this module. */
const loadMergifyStatsChecks = () => import("../dialects/mergify-stats-checks.generated.js");
