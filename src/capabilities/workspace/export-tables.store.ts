/**
 * What a workspace export holds, in which order (docs/export.md). Every table the migrations create is
 * either listed here or named in EXCLUDED_TABLES with its reason; `checkTableCoverage` refuses to export
 * or restore when a migration added a table this list does not know, so a backup can never silently miss one.
 *
 * The order is the restore order, so every foreign key points at a row restored before it: branches
 * before what lives on them, plans before tasks (`PLAN-…` sorts before `TASK-…`), a parent step before
 * its children, a record before the records under it. The one reference that may point forward,
 * `records.resolved_by`, is settled by the restore itself (restore.store.ts). Within a table, rows run
 * in the order of `order`, a unique key that also resumes a page (keyset paging, never OFFSET).
 */

export interface ExportTable {
  name: string;
  /** SQL expressions over the table's columns: a unique sort key, compared as a row value. */
  order: readonly string[];
  /** A condition on the rows that belong to the export (constant SQL, no parameters); default: every row. */
  where?: string;
}

/**
 * `workspace_meta` keys that describe this database rather than the workspace's contents: its name
 * (a restore keeps the target's own), the change count, the restore state, the cursor key and how far
 * the term index's backfill got (graph-terms-backfill.store.ts). They are not exported, not counted, and
 * a restored row may not carry them.
 */
export const INSTANCE_META_KEYS: readonly string[] = ["name", "change_count", "restore", "restored", "cursor_key", "graph_terms_backfill"];

/** `(length(id), id)`: ids with a counter that widens past its padding (BR-9999, BR-10000) in creation order. */
const BY_NUMBERED_ID = ["length(id)", "id"] as const;

export const EXPORT_TABLES: readonly ExportTable[] = [
  { name: "workspace_meta", order: ["key"], where: `key NOT IN (${INSTANCE_META_KEYS.map((key) => `'${key}'`).join(", ")})` },
  { name: "branches", order: BY_NUMBERED_ID },
  { name: "checkouts", order: ["agent_id"] },
  { name: "doc_entries", order: ["seq"] },
  { name: "documents", order: ["branch_id", "doc"] },
  { name: "branch_heads", order: ["branch_id"] },
  { name: "tags", order: ["name"] },
  { name: "reflog", order: ["id"] },
  { name: "journal", order: ["tick"] },
  { name: "idempotency_keys", order: ["agent_id", "key"] },
  { name: "graph_versions", order: ["seq"] },
  // After graph_versions: its trigger rebuilds these rows as versions arrive; the restore then writes
  // the exported ones over them (restore.store.ts).
  { name: "graph_heads", order: ["branch_id", "doc", "kind", "key"] },
  { name: "graph_conflicts", order: ["ordinal"] },
  { name: "tasks", order: ["id"] },
  { name: "steps", order: BY_NUMBERED_ID },
  { name: "step_ordinals", order: ["task_id", "parent_step_id"] },
  { name: "task_proofs", order: ["id"] },
  { name: "focus", order: ["agent_id"] },
  { name: "step_leases", order: ["step_id"] },
  { name: "task_dependencies", order: ["task_id", "blocker_id"] },
  { name: "task_claims", order: ["task_id"] },
  { name: "snapshot_baselines", order: ["agent_id", "target_id"] },
  { name: "jobs", order: BY_NUMBERED_ID },
  { name: "job_events", order: ["job_id", "seq"] },
  { name: "knowledge_keys", order: ["anchor", "key", "lane"] },
  { name: "knowledge_versions", order: ["anchor", "key", "lane", "seq"] },
  { name: "anchors", order: ["slug"] },
  { name: "anchor_aliases", order: ["alias"] },
  { name: "anchor_paths", order: ["path", "anchor"] },
  { name: "anchor_links", order: ["anchor", "branch_id", "graph_doc", "card_id"] },
  { name: "code_refs", order: ["id"] },
  { name: "records", order: ["num"] },
  { name: "record_versions", order: ["record_id", "version"] },
  { name: "record_sessions", order: ["num"] },
  { name: "session_records", order: ["session_id", "record_id"] },
  { name: "record_activity", order: ["id"] },
];

/** Tables of the schema that an export leaves out, each with its reason (docs/export.md). */
export const EXCLUDED_TABLES: Readonly<Record<string, string>> = {
  _migrations: "the schema version travels in the header; a restore needs a server at the same version",
  clocks: "the clocks travel in the header and the trailer; the trailer sets them",
  records_fts: "the full-text index (and FTS5's shadow tables) is rebuilt from `records` as its rows are restored",
  graph_node_text:
    "the trigram index of node versions (and FTS5's shadow tables) is rebuilt from `graph_versions` as its rows are restored",
  task_readiness:
    "what makes a task ready is derived: its triggers rebuild it from `tasks`, `steps`, `task_dependencies` and `task_claims` as their rows are restored",
  graph_terms:
    "the term index of node versions is derived: its triggers rebuild it from `branches` and `graph_versions` as their rows are restored",
};

/** The tables the workspace's migrations create (the platform adds its own, e.g. `_cf_…`: not ours to export). */
export function migrationTables(migrations: readonly { sql: string }[]): string[] {
  const names = migrations.flatMap((migration) =>
    [...migration.sql.matchAll(/CREATE\s+(?:VIRTUAL\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?"?(\w+)"?/gi)].map((match) => match[1] as string),
  );
  return [...new Set(names)].sort();
}

/** Tables the migrations create that are neither exported nor excluded (empty when the list is complete). */
export function uncoveredTables(created: readonly string[]): string[] {
  const known = new Set(EXPORT_TABLES.map((table) => table.name));
  return created.filter((name) => !known.has(name) && !(name in EXCLUDED_TABLES));
}
