/**
 * Forward-only schema migrations. Files are `migrations/NNNN_name.sql`, listed in `migrations.ts`
 * with gapless ids; each applied one is recorded in `_migrations`. All pending files apply in one
 * transaction (all or nothing). A list with a gap, a duplicate or a reordering is refused, and so is
 * a database that records a migration this code does not know (a rollback of the code).
 */
import type { Db } from "./db";

export interface Migration {
  id: number;
  name: string;
  sql: string;
  /**
   * Leaves every exported table and column as it was (it adds triggers, indexes, or derived tables that
   * exports leave out and restores rebuild), so a workspace export made at the schema version before it
   * restores on a server that has it (docs/export.md).
   */
  keepsTables?: boolean;
}

/**
 * The oldest schema version whose exports restore on a server at the last migration of `migrations`:
 * every migration after it keeps the tables.
 */
export function oldestRestorableVersion(migrations: readonly Migration[]): number {
  let version = migrations.length;
  while (version > 0 && migrations[version - 1]?.keepsTables === true) version--;
  return version;
}

export function checkMigrationList(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.id !== index + 1) {
      throw new Error(`migration list out of order: position ${index + 1} holds ${migration.id}_${migration.name}`);
    }
  });
}

export function migrate(db: Db, migrations: readonly Migration[], nowMs: number): number[] {
  checkMigrationList(migrations);
  db.run("CREATE TABLE IF NOT EXISTS _migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at_ms INTEGER NOT NULL) STRICT");
  const applied = db.all<{ id: number; name: string }>("SELECT id, name FROM _migrations ORDER BY id");
  applied.forEach((row, index) => {
    const known = migrations[index];
    if (row.id !== index + 1 || !known || known.name !== row.name) {
      throw new Error(`database records migration ${row.id}_${row.name}, which this code does not have in that place`);
    }
  });
  const pending = migrations.slice(applied.length);
  if (pending.length === 0) return [];
  db.remembered.clear();
  db.transaction(() => {
    for (const migration of pending) {
      db.run(migration.sql);
      db.run("INSERT INTO _migrations (id, name, applied_at_ms) VALUES (?, ?, ?)", migration.id, migration.name, nowMs);
    }
  });
  return pending.map((migration) => migration.id);
}

export function schemaVersion(migrations: readonly Migration[]): number {
  return migrations.length;
}
