// The topics of `mq help <topic>`: what users look up that belongs to no one command (the output
// formats, the settings, the environment, the exit codes). The texts are data; docs/formats.md,
// docs/configuration.md and docs/exit-codes.md say the same at length. `mq help --help` names the
// topics of this table (their names, in this order: topic-names.ts, which the root help reads
// without loading the texts).
import { CONFIG_KEY_HELP, CONFIG_KEYS } from "../config/keys.js";
import { fitHelpText } from "../output/help-text.js";
import { catalogueText } from "../figures/catalogue-text.js";
import { exitCodesText, type TopicName } from "./topic-names.js";

/** The width the texts are written to; on a narrower terminal `mq help` fits them again. */
export const WIDTH = 80;

const FORMATS = `Output formats (-o, --output; default: the config key output, else table on a
terminal and ndjson otherwise):
  table        for people: fitted to the terminal, coloured on a terminal
  json         one JSON document (mq logs: an array of the events as the API sent them)
  ndjson       one JSON record a line (mq logs: each event exactly as the API sent it)
  csv          RFC 4180 with a header; a cell starting with = + - @ gets a ' in front, so spreadsheets do not run it (--no-csv-guard: every cell as sent)
  none         nothing: the exit code says whether the query and its --fail-if checks passed
  markdown     mq stats only: the figures as a Markdown table
  openmetrics  mq stats only: OpenMetrics gauges, for node_exporter's textfile collector
--fields a,b,... keeps those fields in json, ndjson and csv; without -o it means
-o ndjson.
Tables and messages write times in UTC to the second (2026-11-20 11:58:03Z), ages as
3m or 2h, durations as 1h 0m 29s, changes from +100% on as a factor (▲ ×2.3), sizes in
binary units (24.5 MiB); json, ndjson and csv keep the raw values. A column of
durations has one precision. On a terminal a long list (or help topic) shows a
screen, 30 rows, and stderr says how many there are and what shows them all.
More: docs/formats.md
`;

function configText(width: number): string {
  const column = Math.max(...CONFIG_KEYS.map((k) => k.length)) + 2;
  const keys = CONFIG_KEYS.map((k) => `  ${k.padEnd(column)}${CONFIG_KEY_HELP[k]}`).join("\n");
  return fitHelpText(
    `Settings (mq config get KEY, set KEY VALUE, unset KEY, list):
${keys}
They live in $MQ_CONFIG_DIR/config.json, else $XDG_CONFIG_HOME/mq/config.json,
else ~/.config/mq/config.json, with the tokens of mq auth login (which mq config
list never shows). A flag wins over this file, and so do MQ_API_URL, MQ_REPO and
MQ_DIALECT (mq help environment).
More: docs/configuration.md
`,
    width,
  );
}

const ENVIRONMENT = `Environment variables (a flag wins over each):
  MQ_TOKEN, MERGIFY_TOKEN            the token (after --token)
  MQ_API_URL                         the API URL (after --api-url)
  MQ_REPO, GITHUB_REPOSITORY         the repository (after --repo; before the git remote)
  MQ_DIALECT                         spec or mergify (after --dialect)
  MQ_CONFIG_DIR, XDG_CONFIG_HOME     the folder of config.json
  MQ_DATA_DIR, XDG_DATA_HOME         the folder of the archive (after --data-dir)
  MQ_ARCHIVE                         auto, always or never: whether commands read the archive
  XDG_CACHE_HOME, LOCALAPPDATA       the folder of the code cache (MQ_NO_CODE_CACHE=1: none)
  NO_COLOR, FORCE_COLOR              colour when --color (or config color) is auto: NO_COLOR (not empty) turns it off, then FORCE_COLOR turns it on unless 0 or false
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY  the proxy, in either case (never with --offline, nor to an API on loopback)
  GITHUB_ACTIONS, GITHUB_STEP_SUMMARY, GITHUB_OUTPUT  annotations, the step summary, the gate's outputs
More: docs/configuration.md
`;

/**
 * Topic name -> its text as `mq help <topic>` prints it: fitted to `width` columns (a terminal's),
 * never wider than the WIDTH the texts are written to; fitted once, from the text as written (a text
 * fitted to 80 and then again to 60 broke its continuation lines a second time, past the edge).
 * Without a width (a pipe): WIDTH, and the exit codes whole, a code a line.
 */
export const HELP_TOPICS: Readonly<Record<string, (width?: number) => string>> = {
  formats: (width = WIDTH) => fitHelpText(FORMATS, Math.min(width, WIDTH)),
  config: (width = WIDTH) => configText(Math.min(width, WIDTH)),
  environment: (width = WIDTH) => fitHelpText(ENVIRONMENT, Math.min(width, WIDTH)),
  figures: (width = WIDTH) => fitHelpText(catalogueText(), Math.min(width, WIDTH)),
  // whole in a pipe, each code on one line (docs/formats.md); fitted to a terminal as every topic
  "exit-codes": (width) => (width === undefined ? exitCodesText() : fitHelpText(exitCodesText(), width)),
} satisfies Record<TopicName, (width?: number) => string>;
