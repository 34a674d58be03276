/**
 * The restore's SQL: is the target empty, write one exported row, settle forward `resolved_by`
 * references, set the clocks, and empty the workspace again when a restore is given up.
 *
 * Rows are written with plain INSERTs, so the schema's own checks (types of the STRICT tables, keys,
 * foreign keys, CHECK constraints) judge every restored row; a refusal becomes INVALID_INPUT naming the
 * line, never SQL text. Two tables are written over instead: `graph_heads`, which the graph_versions
 * trigger has already rebuilt by the time its rows arrive, and `workspace_meta`, whose creation time the
 * executor records on the first write. The full-text index follows `records` through its triggers.
 */
import { fail } from "../../shared/errors";
import type { Db, SqlValue } from "../../storage/db";
import type { Column } from "./export.store";
import type { Clocks } from "./export-format";
import { EXPORT_TABLES, type ExportTable } from "./export-tables.store";

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Rows that an empty workspace may already hold: the executor records the creation time on a first write. */
const EMPTY_WORKSPACE_META = "key <> 'created_at_ms'";

/** Exported tables holding rows, and clocks that moved: both empty in a workspace nothing was written to. */
export function nonEmptyParts(db: Db): string[] {
  const parts: string[] = [];
  for (const table of EXPORT_TABLES) {
    const conditions = [table.where, table.name === "workspace_meta" ? EMPTY_WORKSPACE_META : undefined].filter((c) => c !== undefined);
    const where = conditions.length > 0 ? ` WHERE ${conditions.join(" AND ")}` : "";
    if (db.one(`SELECT 1 AS found FROM ${quoted(table.name)}${where} LIMIT 1`) !== undefined) parts.push(table.name);
  }
  for (const row of db.all<{ name: string }>("SELECT name FROM clocks WHERE value <> 0 ORDER BY name")) parts.push(`clock ${row.name}`);
  return parts;
}

/** Tables whose restored rows replace what is there (see the header comment), by their conflict target. */
const WRITTEN_OVER: Record<string, string> = {
  graph_heads: "branch_id, doc, kind, key",
  workspace_meta: "key",
};

/** Why SQLite refused a row, in words that name no SQL. */
function refusal(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (message.includes("FOREIGN KEY")) return "it refers to a row that is not there";
  if (message.includes("UNIQUE") || message.includes("PRIMARY KEY")) return "a row with the same key is already there";
  if (message.includes("CHECK")) return "it breaks one of the table's rules";
  if (message.includes("NOT NULL")) return "a required value is null";
  if (message.includes("DATATYPE") || message.includes("cannot store")) return "a value has the wrong type";
  return "the table refused it";
}

/** A statement that writes one row of `table`, made once per table and page. */
export function rowWriter(db: Db, table: ExportTable, columns: readonly Column[]): (values: SqlValue[], line: number) => void {
  const names = columns.map((column) => quoted(column.name));
  const conflict = WRITTEN_OVER[table.name];
  const update =
    conflict === undefined
      ? ""
      : ` ON CONFLICT (${conflict}) DO UPDATE SET ${names.map((name) => `${name} = excluded.${name}`).join(", ")}`;
  const sql = `INSERT INTO ${quoted(table.name)} (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})${update}`;
  return (values, line) => {
    try {
      db.run(sql, ...values);
    } catch (error) {
      fail(
        "INVALID_INPUT",
        `Line ${line} (a row of ${table.name}) cannot be restored: ${refusal(error)}.`,
        "The export is damaged or was edited: restore from an intact copy. Nothing of this page was written.",
        { line, table: table.name },
      );
    }
  };
}

export function recordExists(db: Db, id: string): boolean {
  return db.one("SELECT 1 AS found FROM records WHERE id = ?", id) !== undefined;
}

/** Points the given records' `resolved_by` at `target` (the update touches no indexed text). */
export function settleResolvedBy(db: Db, ids: readonly string[], target: string): void {
  db.run("UPDATE records SET resolved_by = ? WHERE id IN (SELECT value FROM json_each(?))", target, JSON.stringify(ids));
}

export function clockNames(db: Db): string[] {
  return db.all<{ name: string }>("SELECT name FROM clocks ORDER BY name").map((row) => row.name);
}

export function setClocks(db: Db, clocks: Clocks): void {
  for (const [name, value] of Object.entries(clocks)) db.run("UPDATE clocks SET value = ? WHERE name = ?", value, name);
}

/**
 * Empties every exported table (children first, so no foreign key is ever left dangling), the full-text
 * index and the clocks: the workspace as a first write finds it. Only for an unfinished restore.
 */
export function emptyWorkspace(db: Db): void {
  db.run("INSERT INTO records_fts (records_fts) VALUES ('delete-all')");
  for (const table of [...EXPORT_TABLES].reverse()) {
    const conditions = [table.where, table.name === "workspace_meta" ? EMPTY_WORKSPACE_META : undefined].filter((c) => c !== undefined);
    db.run(`DELETE FROM ${quoted(table.name)}${conditions.length > 0 ? ` WHERE ${conditions.join(" AND ")}` : ""}`);
  }
  db.run("UPDATE clocks SET value = 0");
}
