// One lazy-import boundary. src/cli.ts loads a command's flag module through the FLAGS table
// (src/command-flags.ts) when the command line names it (or the whole tree is built), and its run
// module through its RUN table when that command runs; a run module imports what it needs statically. Every other import() in src/ is listed below with the reason it stays
// lazy, which is never "command loading": a heavy package or a large module that most runs of
// that command do not need. A new import() fails here until it is listed, with its reason, and an
// entry that no longer matches an import() fails too (the list stays the truth).
// scripts/build.mjs turns an import() whose target reaches a heavy package (undici, zod,
// ora, DuckDB) or the server into a chunk of dist/chunks/; any other goes into the flags' file
// (dist/flags-HASH.cjs: the flag modules and what they import) or the commands' file
// (dist/commands-HASH.cjs), or stays in dist/main.cjs when it adds at most 8 KB of source, and is
// evaluated on its first import.
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** file (from the repository root) → the import() specifiers it may hold, and why each stays lazy */
const ALLOWED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "src/cli.ts": Object.fromEntries([
    ...[
      "./commands/logs/run.js",
      "./commands/stats/run.js",
      "./commands/insights/run.js",
      "./commands/insights/prs-run.js",
      "./commands/insights/pr-run.js",
      "./commands/queue/run.js",
      "./commands/why/run.js",
      "./commands/wait/run.js",
      "./commands/serve/run.js",
      "./commands/exporter/run.js",
      "./commands/archive/run.js",
      "./commands/auth/run.js",
      "./commands/config/run.js",
      "./commands/completion/run.js",
      "./commands/help/run.js",
    ].map((m) => [m, "the boundary: a command's run module, loaded when that command runs"]),
  ]),
  "src/command-flags.ts": Object.fromEntries([
    ...[
      "./commands/logs/index.js",
      "./commands/stats/index.js",
      "./commands/insights/index.js",
      "./commands/insights/prs.js",
      "./commands/insights/pr.js",
      "./commands/queue/index.js",
      "./commands/why/index.js",
      "./commands/wait/index.js",
      "./commands/serve/index.js",
      "./commands/exporter/index.js",
      "./commands/archive/index.js",
      "./commands/auth/index.js",
      "./commands/config/index.js",
      "./commands/completion/index.js",
    ].map((m) => [m, "the boundary: a command's flag module, loaded when the command line names that command or builds the whole tree"]),
  ]),
  "src/context.ts": {
    "./context/api-client.js":
      "the HTTP stack (node:http, the wire, retries) and the dialect tables, on a command's first request or first look at the dialect, never for help, auth status, config",
  },
  "src/context/api-client.ts": {
    "../server/index.js": "the bundled server (a chunk, with zod) for --offline only",
    "../api/undici-wire.js": "undici (a 730 KB chunk) behind a proxy or for a test's MockAgent only",
  },
  "src/api/node-wire.ts": {
    "node:https": "tls and crypto (~10 ms) for an https:// URL only",
  },
  "src/iostreams/spinner.ts": {
    ora: "ora (a chunk) when a spinner may run: stderr a terminal",
  },
  "src/api/schema/page-check.ts": {
    "../dialects/mergify-checks.generated.js": "the real service's metadata checks (52 KB) for its dialect only",
  },
  "src/api/schema/stats-check.ts": {
    "../dialects/mergify-stats-checks.generated.js": "the real service's statistics checks (40 KB) for its dialect only",
  },
  "src/archive/db.ts": {
    "./duckdb-engine.js": "DuckDB (optional, a native package; its JavaScript a chunk of its own) when an archive is opened",
  },
  "src/config/resolve.ts": {
    "../iostreams/terminal-width.js": "the East Asian width tables and an Intl.Segmenter (ICU data) for the offline demo's note only",
  },
  "src/commands/logs/output.ts": {
    "../../iostreams/terminal-width.js":
      "the East Asian width tables and an Intl.Segmenter (ICU data) for a line of prose that may not fit",
    "./table.js": "the table code and its width tables when the event table is drawn, not for piped formats",
  },
  "src/commands/logs/aggregate-run.ts": {
    "../../output/table.js": "the table code and its width tables when a table is drawn",
  },
  "src/commands/archive/render.ts": {
    "../../output/table.js": "the table code and its width tables when a table is drawn",
  },
  "src/commands/archive/run.ts": {
    "../../output/fitted-table.js": "the table code and its width tables when a table is drawn",
  },
  "src/server/worker.ts": {
    "./index.js": "the server, which mq serve's main thread never loads: only its worker thread does",
  },
  "src/server/repositories.ts": {
    "./stats/fold-helper.js": "its module is the fold helper thread's entry (new Worker(import.meta.url)): a chunk of its own",
  },
};

/** Every import( of src/ outside comments, as file → specifiers (an expression that is no string literal is kept as written). */
function lazyImports(): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const rel of readdirSync(join(root, "src"), { recursive: true, encoding: "utf8" })) {
    if (!rel.endsWith(".ts")) continue;
    const file = `src/${rel.split("\\").join("/")}`;
    const code = readFileSync(join(root, file), "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
    for (const m of code.matchAll(/\bimport\s*\(\s*([^)]*)\)/g)) {
      const arg = m[1]!.trim();
      const literal = /^["'`]([^"'`]+)["'`]$/.exec(arg);
      (found[file] ??= []).push(literal ? literal[1]! : arg);
    }
  }
  return found;
}

describe("lazy imports", () => {
  const found = lazyImports();

  it("are the FLAGS table (command-flags.ts), the RUN table of cli.ts and the listed exceptions, nothing else (type positions included)", () => {
    const unlisted = Object.entries(found).flatMap(([file, specs]) =>
      specs.filter((s) => ALLOWED[file]?.[s] === undefined).map((s) => `${file}: import(${s})`),
    );
    expect(unlisted).toEqual([]);
  });

  it("lists nothing that is no longer there", () => {
    const stale = Object.entries(ALLOWED).flatMap(([file, specs]) =>
      Object.keys(specs)
        .filter((s) => !found[file]?.includes(s))
        .map((s) => `${file}: ${s}`),
    );
    expect(stale).toEqual([]);
  });

  it("each command has one run module, loaded by cli.ts only", () => {
    const runModules = Object.keys(ALLOWED["src/cli.ts"]!);
    const commands = readdirSync(join(root, "src/commands"), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    for (const command of commands) expect(runModules, command).toContain(`./commands/${command}/run.js`);
  });
});
