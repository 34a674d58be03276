/**
 * The layering of docs/architecture.md ("Layers and the rules a tool checks"), checked by
 * dependency-cruiser on every import in src/ (type-only imports included; tests may import anything).
 * `npm run lint` runs it. Today's capability-to-capability imports are recorded in
 * .dependency-cruiser-known-violations.json, a baseline that may only shrink: a new such import fails.
 */

/** The files of src/commands/ that capabilities build on: the command types, the context, the hooks' types, the portal table. */
const COMMAND_KERNEL = "^src/commands/(registry|context|workspace-hooks|portal-table)\\.ts$";
/** The hosts of the workspace: they run commands, so they sit above the capabilities. */
const WORKSPACE_HOSTS = "^src/workspace/(execute|workspace-object)\\.ts$";
/** The libraries that speak MCP, OAuth or HTTP routing. */
const PROTOCOL_LIBRARIES = "node_modules/(@modelcontextprotocol|agents|@cloudflare/workers-oauth-provider)/";

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "An import circle hides the layering from people and tools: move the shared part down, or pass it in.",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "only-the-worker-knows-mcp-and-http",
      comment: "Only src/worker/ speaks MCP, OAuth and HTTP; everything below it is neutral.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/worker/" },
      to: { path: PROTOCOL_LIBRARIES },
    },
    {
      name: "nothing-below-the-worker-imports-it",
      comment: "The Worker is the top layer: move what others need into src/shared/ or src/commands/.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/worker/" },
      to: { path: "^src/worker/" },
    },
    {
      name: "shared-depends-on-nothing-above-it",
      comment: "src/shared/ is the foundation: it imports only itself and libraries.",
      severity: "error",
      from: { path: "^src/shared/" },
      to: { path: "^src/", pathNot: "^src/shared/" },
    },
    {
      name: "the-core-knows-no-capability",
      comment:
        "The workspace, the Directory, the Worker and the command kernel learn what they need from command metadata and the hooks the catalog seam (src/commands/catalog.ts) registers.",
      severity: "error",
      from: { path: "^src/(workspace|directory|worker|shared|commands)/", pathNot: "^src/commands/catalog\\.ts$" },
      to: { path: "^src/capabilities/" },
    },
    {
      name: "capabilities-build-on-the-command-kernel",
      comment:
        "A capability imports from src/commands/ only the command types, the context, the hooks' types and the portal table; the catalog and what is derived from it reach it through its context.",
      severity: "error",
      from: { path: "^src/capabilities/" },
      to: { path: "^src/commands/", pathNot: COMMAND_KERNEL },
    },
    {
      name: "capabilities-build-on-the-storage-kernel",
      comment: "A capability uses the workspace's storage (db, clocks, journal, meta), never the object or the executor that run it.",
      severity: "error",
      from: { path: "^src/(capabilities|commands|directory)/" },
      to: { path: WORKSPACE_HOSTS },
    },
    {
      name: "the-objects-talk-through-an-interface",
      comment: "The workspace and the Directory share src/shared/workspace-summary.ts and the Directory's interfaces, not each other's objects.",
      severity: "error",
      from: { path: "^src/(workspace|capabilities|commands)/" },
      to: { path: "^src/directory/directory-object\\.ts$" },
    },
    {
      name: "the-storage-kernel-stays-below-the-commands",
      comment: "db, clocks, journal, meta, migrations and idempotency know no command, capability or Directory.",
      severity: "error",
      from: { path: "^src/workspace/", pathNot: WORKSPACE_HOSTS },
      to: { path: "^src/(commands|capabilities|directory)/" },
    },
    {
      name: "sql-files-belong-to-the-migration-lists",
      comment: "Schema lives in migrations/*.sql, read only by the migration lists of the two objects.",
      severity: "error",
      from: { pathNot: "^src/(workspace/migrations|directory/directory-object)\\.ts$" },
      to: { path: "\\.sql$" },
    },
    {
      name: "commands-files-are-listed-not-used",
      comment:
        "A *.commands.ts file holds command definitions for its capability's catalog: what siblings share lives in a module of its own.",
      severity: "error",
      from: { path: "^src/", pathNot: "\\.catalog\\.ts$" },
      to: { path: "\\.commands\\.ts$" },
    },
    {
      name: "capability-to-capability",
      comment:
        "A capability imports another only through the baseline of known imports, which may only shrink (the next step moves the shared rules below the capabilities).",
      severity: "error",
      from: { path: "^src/capabilities/([^/]+)/" },
      to: { path: "^src/capabilities/", pathNot: "^src/capabilities/$1/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "\\.test\\.ts$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
