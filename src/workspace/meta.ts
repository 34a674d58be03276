/** Workspace facts kept in `workspace_meta`: its name, creation time and project guard. */
import type { Db } from "./db";

export type MetaKey = "name" | "created_at_ms" | "project_guard";

export function getMeta(db: Db, key: MetaKey): string | undefined {
  return db.one<{ value: string }>("SELECT value FROM workspace_meta WHERE key = ?", key)?.value;
}

export function setMeta(db: Db, key: MetaKey, value: string): void {
  db.run("INSERT INTO workspace_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value);
}
