/**
 * Workspace facts kept in `workspace_meta`: its name, creation time and project guard, plus the
 * instance's own bookkeeping — the change count an export page checks (docs/export.md), and the state of
 * a restore in progress or done, and the key that signs its opaque cursors (migration 0016). The
 * bookkeeping keys describe this database, not its contents, so an export leaves them out.
 */
import type { Db } from "./db";

export type MetaKey = "name" | "created_at_ms" | "project_guard" | "change_count" | "restore" | "restored" | "cursor_key";

export function getMeta(db: Db, key: MetaKey): string | undefined {
  return db.one<{ value: string }>("SELECT value FROM workspace_meta WHERE key = ?", key)?.value;
}

/** What every write checks before it runs (see `readWriteGuards`). */
export interface WriteGuards {
  name: string | undefined;
  restore: string | undefined;
  /** Whether any branch is stored: the first write of a workspace creates `main`. */
  hasBranches: boolean;
}

/**
 * The `name` and `restore` keys and whether a branch exists, in one statement: the executor needs all
 * three on every write, and a Durable Object pays a fixed cost per statement.
 */
export function readWriteGuards(db: Db): WriteGuards {
  const rows = db.all<{ key: string | null; value: string | null; branches: number | null }>(
    `SELECT key, value, NULL AS branches FROM workspace_meta WHERE key IN ('name', 'restore')
     UNION ALL SELECT NULL, NULL, EXISTS (SELECT 1 FROM branches)`,
  );
  const metaValue = (key: MetaKey) => rows.find((row) => row.key === key)?.value ?? undefined;
  return { name: metaValue("name"), restore: metaValue("restore"), hasBranches: rows.some((row) => row.branches === 1) };
}

export function setMeta(db: Db, key: MetaKey, value: string): void {
  db.run("INSERT INTO workspace_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value);
}

export function deleteMeta(db: Db, key: MetaKey): void {
  db.run("DELETE FROM workspace_meta WHERE key = ?", key);
}

/**
 * Counts changes: every journal row (its trigger, migration 0015) and every call that wrote rows without
 * one (reads with bookkeeping included). An export cursor records the count at its first page, and a
 * later page refuses to continue once it moved (EXPORT_STALE).
 */
export function noteChange(db: Db): void {
  db.run(
    "INSERT INTO workspace_meta (key, value) VALUES ('change_count', '1') ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)",
  );
}

export function changeCount(db: Db): number {
  return Number(getMeta(db, "change_count") ?? "0");
}
