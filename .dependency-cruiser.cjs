/**
 * The layering of docs/architecture.md ("Layers and the rules a tool checks"), checked by
 * dependency-cruiser on every import in src/ (type-only imports included; tests may import anything).
 * `npm run lint` runs it. Capabilities have declared ranks (CAPABILITY_RANKS): a capability imports
 * only capabilities of a lower rank, so no two import each other and none reaches up.
 */
const fs = require("node:fs");
const path = require("node:path");

/**
 * The capabilities from the bottom up. A capability builds on the ranks below its own: never on its
 * own rank, never on a rank above. Every folder of src/capabilities/ has a rank; a new one gets one here
 * (and in docs/architecture.md) before it is used.
 */
const CAPABILITY_RANKS = [
  { rank: 1, why: "what is stored and read by the rest: document entries, Record-Sync records, code refs", names: ["docs", "records", "code-refs"] },
  { rank: 2, why: "structures over entries: the typed graph, branch heads and tags, branches, jobs", names: ["graph", "vcs", "branches", "jobs"] },
  { rank: 3, why: "what points into the graph and the logs: anchors, step traces", names: ["anchors", "trace"] },
  { rank: 4, why: "reasoning: thinking cards and their views", names: ["think"] },
  { rank: 5, why: "work built on reasoning: knowledge, tasks, export and import, projects", names: ["knowledge", "tasks", "workspace", "projects"] },
  { rank: 6, why: "readers across everything: open, system, visualize", names: ["open", "system", "visualize"] },
];

const CAPABILITIES_DIR = path.join(__dirname, "src", "capabilities");
const rankOf = new Map(CAPABILITY_RANKS.flatMap(({ rank, names }) => names.map((name) => [name, rank])));
const folders = fs.readdirSync(CAPABILITIES_DIR, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
const unranked = folders.filter((name) => !rankOf.has(name));
const gone = [...rankOf.keys()].filter((name) => !folders.includes(name));
if (unranked.length > 0 || gone.length > 0) {
  throw new Error(`CAPABILITY_RANKS in .dependency-cruiser.cjs is out of date: unranked ${unranked.join(", ") || "none"}; no folder for ${gone.join(", ") || "none"}.`);
}

/** One rule per capability: it may not import a capability of its own rank or above. */
const RANK_RULES = folders.map((name) => {
  const notBelow = folders.filter((other) => other !== name && rankOf.get(other) >= rankOf.get(name));
  return {
    name: `rank-${rankOf.get(name)}-${name}-imports-only-lower-ranks`,
    comment: `${name} (rank ${rankOf.get(name)}) builds only on capabilities of ranks below ${rankOf.get(name)}: move what both need down (to src/place/, src/shared/ or a lower capability), or pass it in.`,
    severity: "error",
    from: { path: `^src/capabilities/${name}/` },
    to: { path: `^src/capabilities/(${notBelow.join("|")})/` },
  };
});

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
      comment: "The Worker is the top layer: move what others need into src/shared/, src/commands/ or src/catalog/.",
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
        "The storage kernel, the Directory, the hosts, the Worker, the command kernel and the catalog's derived tables learn what they need from command metadata and the hooks the catalog (src/catalog/catalog.ts) registers.",
      severity: "error",
      from: { path: "^src/(storage|directory|hosts|worker|shared|commands|catalog)/", pathNot: "^src/catalog/catalog\\.ts$" },
      to: { path: "^src/(capabilities|place)/" },
    },
    {
      name: "the-place-knows-no-capability",
      comment:
        "src/place/ holds the rules every capability uses to find where it works (branches and checkouts, focus, targets, reasoning refs): it sits below them all.",
      severity: "error",
      from: { path: "^src/place/" },
      to: { path: "^src/(capabilities|directory)/" },
    },
    {
      name: "the-command-kernel-stays-below-the-catalog",
      comment: "src/commands/ holds the command types, the context, the hooks' types and the portal table: what capabilities build on, below them and the catalog.",
      severity: "error",
      from: { path: "^src/commands/" },
      to: { path: "^src/(catalog|place|capabilities)/" },
    },
    {
      name: "capabilities-build-on-the-command-kernel",
      comment:
        "A capability (or the place module) imports the command kernel, src/commands/, never the catalog: the catalog and what is derived from it reach a command through its context.",
      severity: "error",
      from: { path: "^src/(capabilities|place)/" },
      to: { path: "^src/catalog/" },
    },
    {
      name: "only-the-worker-knows-the-hosts",
      comment:
        "The Durable Objects and the executor (src/hosts/) run commands: everything they run sits below them, and only the Worker calls them.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/(hosts|worker)/" },
      to: { path: "^src/hosts/" },
    },
    {
      name: "the-objects-talk-through-an-interface",
      comment: "The workspace and the Directory share src/shared/workspace-summary.ts and the Directory's interfaces (src/directory/), not each other's modules.",
      severity: "error",
      from: { path: "^src/hosts/workspace/" },
      to: { path: "^src/hosts/directory/" },
    },
    {
      name: "the-directory-object-runs-no-workspace-code",
      comment: "The Directory object reaches a workspace through the Worker's calls, never through the workspace object's modules.",
      severity: "error",
      from: { path: "^src/hosts/directory/" },
      to: { path: "^src/hosts/workspace/" },
    },
    {
      name: "the-storage-kernel-stays-below-the-commands",
      comment: "db, clocks, journal, meta, migrations and idempotency know no command, capability, Directory or host.",
      severity: "error",
      from: { path: "^src/storage/" },
      to: { path: "^src/(commands|catalog|place|capabilities|directory|hosts)/" },
    },
    {
      name: "the-directory-contract-stays-below-the-commands",
      comment: "src/directory/ is what the Directory offers commands (its interface, project ids, limits): it imports only src/shared/.",
      severity: "error",
      from: { path: "^src/directory/" },
      to: { path: "^src/", pathNot: "^src/(directory|shared)/" },
    },
    {
      name: "sql-files-belong-to-the-migration-lists",
      comment: "Schema lives in migrations/*.sql, read only by the migration lists of the two objects.",
      severity: "error",
      from: { pathNot: "^src/(storage/migrations|hosts/directory/directory-object)\\.ts$" },
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
    ...RANK_RULES,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "\\.test\\.ts$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
