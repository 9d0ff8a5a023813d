// The import rules `npm run check:imports` enforces (CI runs it): no circles in src/, type-only
// imports and lazy `import()` included, and every import runs down the layers below, never up.
// .dependency-cruiser-known-violations.json lists violations tolerated while they are being
// removed: it is empty, and stays so.

/**
 * src/ from the top down. A module imports modules of its own layer or of a layer below it; the one
 * import allowed to run back up is named in UPWARD_EXCEPTIONS, with its reason.
 */
const LAYERS = [
  // the entry and the command tree (with its table of the commands' flag modules)
  ["entry", "^src/(main|cli|command-flags)\\.ts$"],
  // one folder per command, each private to its command (rule below)
  ["commands", "^src/commands/"],
  // `mq help <topic>`: the help topics beside the commands' own help
  ["help", "^src/help/"],
  // the watch loop of every --watch (clock, interval, redraw, records per change, signals)
  ["watch", "^src/watch/"],
  // what several commands share: flags for time, repositories and filters, the gate, lists
  ["cmdutil", "^src/cmdutil/"],
  // the shared rendering toolkit: exporter, records, fitted tables, charts, formatting
  ["output", "^src/output/"],
  // the queue now, rebuilt from the stays (mq queue, mq wait, the exporter's queue size)
  ["queue", "^src/queue/"],
  // the DuckDB archive, and the archive as an event source for the analyses
  ["archive", "^src/archive/"],
  // the stays domain (queue stays rebuilt from the event log) and its figures
  ["insights", "^src/insights/"],
  // the factory: the Context (streams, clock, config, an API client built on demand) and the
  // secrets it must never print
  ["factory", "^src/(context\\.ts|context/|secrets\\.ts)"],
  // the bundled server (--offline, mq serve): reached only through the factory and mq serve
  ["server", "^src/server/"],
  // the config file, its keys, and what resolves a setting (flag, environment, file)
  ["config", "^src/config/"],
  // the dialects, the transport, pagination, slices, the schema checks, the event type
  ["api", "^src/api/"],
  // the stats endpoint records and the figures over them, and the catalogue of figures built
  // from those records (src/figures/: what every figure is, which the analyses above name)
  ["stats", "^src/(stats|figures)/"],
  // the floor: terminal and streams (iostreams/), errors and exit codes, globals, validators
  [
    "base",
    "^src/(iostreams/|process-streams\\.ts|pipe-reader\\.ts|errors\\.ts|arrays\\.ts|closest\\.ts|globals\\.ts|validators\\.ts|types/)",
  ],
];

/** Imports that run back up a layer on purpose, as { from, to } paths: at most one. */
const UPWARD_EXCEPTIONS = [];
if (UPWARD_EXCEPTIONS.length > 1) throw new Error(".dependency-cruiser.cjs: at most one import may run back up a layer");

const upwardRules = LAYERS.slice(1).map(([name, path], i) => ({
  name: `layer-${name}-imports-down`,
  severity: "error",
  comment: `${name} imports only its own layer and those below it (LAYERS in .dependency-cruiser.cjs).`,
  from: { path },
  to: {
    path: `(${LAYERS.slice(0, i + 1)
      .map(([, p]) => p)
      .join(")|(")})`,
    pathNot: UPWARD_EXCEPTIONS.filter((e) => new RegExp(path).test(e.from)).map((e) => e.to),
  },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import circle: modules that cannot be understood, loaded lazily or tested apart.",
      from: { path: "^src/" },
      to: { circular: true },
    },
    ...upwardRules,
    {
      name: "every-module-in-a-layer",
      severity: "error",
      comment: "A module of src/ outside every layer of LAYERS: add its path to a layer.",
      from: { path: "^src/", pathNot: LAYERS.map(([, p]) => p) },
      to: {},
    },
    {
      name: "every-import-in-a-layer",
      severity: "error",
      comment: "An import of a module of src/ outside every layer of LAYERS: add its path to a layer.",
      from: { path: "^src/" },
      to: { path: "^src/", pathNot: LAYERS.map(([, p]) => p) },
    },
    {
      name: "commands-apart",
      severity: "error",
      comment: "A command never imports another command's folder: what two commands share moves down to cmdutil/.",
      from: { path: "^src/commands/([^/]+)/" },
      to: { path: "^src/commands/", pathNot: "^src/commands/$1/" },
    },
    {
      name: "analyses-not-on-the-server",
      severity: "error",
      comment:
        "insights/, stats/, output/, api/ and archive/ read any server's answers: the bundled server is one of them, not a dependency.",
      from: { path: "^src/(insights|stats|output|api|archive)/" },
      to: { path: "^src/server/" },
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      comment: "An import that resolves to nothing.",
      from: { path: "^src/" },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // count `import type` too: a circle of types is still a circle to a reader
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    // undici's deep imports (api/undici-wire.ts) are plain CommonJS files
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
