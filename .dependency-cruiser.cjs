// The import rules `npm run check:imports` enforces (CI runs it): no circles in src/, type-only
// imports and lazy `import()` included, and the layers below the commands never reach up into them.
// .dependency-cruiser-known-violations.json lists the violations that existed when the check came
// in (output/stats-render.ts reading commands/stats/, being moved into src/stats/): those are
// tolerated, anything new fails. Empty that file once they are gone.
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
    {
      name: "layers-below-commands",
      severity: "error",
      comment: "output/, api/, config/, server/, archive/ and insights/ serve the commands and never import them.",
      from: { path: "^src/(output|api|config|server|archive|insights)/" },
      to: { path: "^src/commands/" },
    },
    {
      name: "analyses-not-on-the-server",
      severity: "error",
      comment: "insights/, stats/, output/, api/ and archive/ read any server's answers: the bundled server is one of them, not a dependency.",
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
