// docs/server.md's table "How each figure is derived", written from the definitions (their `doc`)
// and the records (path, dialects, deprecation): `node scripts/gen-stats-endpoints.mjs` writes it
// between its markers, and test/server/endpoint-pieces.test.ts fails when it is stale.
import { STATS_ENDPOINTS, type StatsEndpoint } from "../../stats/endpoints.js";
import type { EndpointDoc } from "../stats/engine.js";
import { STATS_SPECS, TIME_TO_MERGE } from "./index.js";

export const DOCS_PATH = "docs/server.md";
export const TABLE_BEGIN = "<!-- stats endpoints: generated from src/server/endpoints/ by scripts/gen-stats-endpoints.mjs -->";
export const TABLE_END = "<!-- end of stats endpoints -->";

/** an endpoint's definition on the server side, by its record's name, or undefined when it has none */
export function definitionOf(name: string): { doc: EndpointDoc } | undefined {
  return name === "time-to-merge" ? TIME_TO_MERGE : STATS_SPECS[name];
}

function label(e: StatsEndpoint): string {
  const notes = [
    e.deprecatedUse ? "deprecated" : "",
    e.dialects.length === 1 && e.dialects[0] === "mergify" ? "the real service's; `--dialect mergify`" : "",
  ].filter(Boolean);
  return `\`${e.path}\`${notes.length > 0 ? ` (${notes.join("; ")})` : ""}`;
}

/** the table, one row per record that has a definition */
export function derivationTable(): string {
  const rows = ["| endpoint | from | figure |", "|---|---|---|"];
  for (const e of STATS_ENDPOINTS) {
    const doc = definitionOf(e.name)?.doc;
    if (doc) rows.push(`| ${label(e)} | ${doc.from} | ${doc.figure} |`);
  }
  return rows.join("\n");
}

/** the page with its table replaced by `derivationTable()` (the markers kept) */
export function withDerivationTable(page: string): string {
  const begin = page.indexOf(TABLE_BEGIN);
  const end = page.indexOf(TABLE_END);
  if (begin < 0 || end < begin) throw new Error(`${DOCS_PATH} has no ${TABLE_BEGIN} ... ${TABLE_END}`);
  return `${page.slice(0, begin + TABLE_BEGIN.length)}\n${derivationTable()}\n${page.slice(end)}`;
}
