/**
 * `npm run cycles` (part of `npm test`): no import cycle among the modules of app/ and dev/
 * (docs/decisions/0067-no-import-cycles.md). Imports are read from TypeScript's output
 * (`tsPreCompilationDeps: false`), so an import that brings only types, which compiles away, ties
 * no module to another.
 */
/** @type {import("dependency-cruiser").IConfiguration} */
export default {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "Two modules that import each other, directly or through others: move what both need into a module of its own, or let the later feature register with the earlier one (app/sync/full/after-full-sync.server.ts).",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: false,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
