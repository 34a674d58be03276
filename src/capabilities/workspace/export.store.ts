/**
 * The export's SQL: the tables' columns as SQLite reports them, one bounded keyset page of
 * a table's rows in export order, row counts and the clocks. Table and column names come from the
 * schema itself (never from a caller) and are quoted; key values are bound.
 */
import type { Db, SqlValue } from "../../storage/db";
import { WORKSPACE_MIGRATIONS } from "../../storage/migrations";
import type { Clocks } from "./export-format";
import { type ExportTable, migrationTables, uncoveredTables } from "./export-tables.store";

export interface Column {
  name: string;
  /** The declared type (INTEGER, TEXT, …); every workspace table is STRICT. */
  type: string;
}

export interface KeyedRow {
  values: SqlValue[];
  /** The row's sort key (the table's `order` expressions), where the next page resumes. */
  key: SqlValue[];
}

/** migrate.ts creates the table that records applied migrations. */
const MIGRATIONS_TABLE = "CREATE TABLE _migrations";

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Refuses to export or restore when a migration creates a table the export list does not cover (a new
 * migration without its entry): such a backup could not be complete. A bug, so not a typed refusal.
 */
export function checkTableCoverage(): void {
  const missing = uncoveredTables(migrationTables([...WORKSPACE_MIGRATIONS, { sql: MIGRATIONS_TABLE }]));
  if (missing.length > 0) throw new Error(`export table list misses ${missing.join(", ")}`);
}

export function tableColumns(db: Db, table: string): Column[] {
  return db.all<{ name: string; type: string }>("SELECT name, type FROM pragma_table_info(?) ORDER BY cid", table);
}

/** Up to `limit` rows after `after` (null: from the first), in export order. */
export function rowsAfter(db: Db, table: ExportTable, columns: readonly Column[], after: SqlValue[] | null, limit: number): KeyedRow[] {
  const keys = table.order.map((expression, index) => `${expression} AS _export_key_${index}`);
  const conditions = [table.where, after === null ? undefined : `(${table.order.join(", ")}) > (${table.order.map(() => "?").join(", ")})`];
  const where = conditions.filter((condition) => condition !== undefined);
  const sql = `SELECT ${[...columns.map((column) => quoted(column.name)), ...keys].join(", ")} FROM ${quoted(table.name)}${
    where.length > 0 ? ` WHERE ${where.join(" AND ")}` : ""
  } ORDER BY ${table.order.join(", ")} LIMIT ${Math.max(1, Math.trunc(limit))}`;
  return db.all(sql, ...(after ?? [])).map((row) => ({
    values: columns.map((column) => row[column.name] as SqlValue),
    key: table.order.map((_, index) => row[`_export_key_${index}`] as SqlValue),
  }));
}

/** The rows of `table` that belong to the export. */
export function countRows(db: Db, table: ExportTable): number {
  const where = table.where === undefined ? "" : ` WHERE ${table.where}`;
  return db.one<{ n: number }>(`SELECT COUNT(*) AS n FROM ${quoted(table.name)}${where}`)?.n ?? 0;
}

/** Every clock, by name. */
export function readClocks(db: Db): Clocks {
  const clocks: Clocks = {};
  for (const row of db.all<{ name: string; value: number }>("SELECT name, value FROM clocks ORDER BY name")) clocks[row.name] = row.value;
  return clocks;
}
