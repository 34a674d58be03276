/**
 * Workspace facts kept in `workspace_meta`: its name, creation time and project guard, plus the
 * instance's own bookkeeping — the change count an export page checks (docs/export.md), and the state of
 * a restore in progress or done, and the key that signs its opaque cursors (migration 0016). The
 * bookkeeping keys describe this database, not its contents, so an export leaves them out.
 */
import type { Db, SqlValue } from "./db";

export type MetaKey = "name" | "created_at_ms" | "project_guard" | "change_count" | "restore" | "restored" | "cursor_key";

export function getMeta(db: Db, key: MetaKey): string | undefined {
  return db.one<{ value: string }>("SELECT value FROM workspace_meta WHERE key = ?", key)?.value;
}

/** A statement of one row and one column, the key's value (no row: null), for a write guard's probe. */
export function metaProbe(key: MetaKey): string {
  return `SELECT value FROM workspace_meta WHERE key = '${key}'`;
}

/** What every write reads before it runs: the workspace's name, and each write guard's probe. */
export interface WriteFacts {
  name: string | undefined;
  probes: SqlValue[];
}

/** The statement of each list of guards (the catalog registers one list; a restore's is empty), built once. */
const writeFactsStatements = new WeakMap<readonly { probe: string }[], string>();

/**
 * The `name` key and every guard's probe (a statement of one row and one column) in one statement: the
 * executor needs them on every write, and a Durable Object pays a fixed cost per statement.
 */
export function readWriteFacts(db: Db, guards: readonly { probe: string }[]): WriteFacts {
  let statement = writeFactsStatements.get(guards);
  if (statement === undefined) {
    const columns = guards.map((guard, index) => `, (${guard.probe}) AS p${index}`);
    statement = `SELECT (${metaProbe("name")}) AS name${columns.join("")}`;
    writeFactsStatements.set(guards, statement);
  }
  const row = db.one<Record<string, SqlValue>>(statement) ?? {};
  const name = row.name;
  return { name: typeof name === "string" ? name : undefined, probes: guards.map((_guard, index) => row[`p${index}`] ?? null) };
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
