/**
 * Workspace facts kept in `workspace_meta`: its name, creation time and project guard, plus the
 * instance's own bookkeeping — the change count an export page checks (docs/export.md), and the state of
 * a restore in progress or done. The bookkeeping keys describe this database, not its contents, so an
 * export leaves them out.
 */
import type { Db } from "./db";

export type MetaKey = "name" | "created_at_ms" | "project_guard" | "change_count" | "restore" | "restored";

export function getMeta(db: Db, key: MetaKey): string | undefined {
  return db.one<{ value: string }>("SELECT value FROM workspace_meta WHERE key = ?", key)?.value;
}

/** Several keys in one statement (the executor reads `name` and `restore` on every write). */
export function getMetas(db: Db, keys: readonly MetaKey[]): Partial<Record<MetaKey, string>> {
  const rows = db.all<{ key: MetaKey; value: string }>(
    "SELECT key, value FROM workspace_meta WHERE key IN (SELECT value FROM json_each(?))",
    JSON.stringify(keys),
  );
  return Object.fromEntries(rows.map((row) => [row.key, row.value]));
}

export function setMeta(db: Db, key: MetaKey, value: string): void {
  db.run("INSERT INTO workspace_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value);
}

export function deleteMeta(db: Db, key: MetaKey): void {
  db.run("DELETE FROM workspace_meta WHERE key = ?", key);
}

/**
 * Counts calls that wrote rows (any table, reads with bookkeeping included): an export cursor records the
 * count at its first page, and a later page refuses to continue once it moved (EXPORT_STALE).
 */
export function noteChange(db: Db): void {
  db.run(
    "INSERT INTO workspace_meta (key, value) VALUES ('change_count', '1') ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)",
  );
}

export function changeCount(db: Db): number {
  return Number(getMeta(db, "change_count") ?? "0");
}
