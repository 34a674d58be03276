/**
 * The Directory's SQL: one row per workspace with the last summary it pushed. A push never moves a
 * row backwards (`as_of_tick` only grows), so late or repeated pushes are harmless. Record-Sync counts
 * (project tick, open records, open sessions) ride along; a push without them counts zeros.
 */
import { MAX_LIST_LIMIT } from "../shared/limits";
import type { Db } from "../workspace/db";
import type { WorkspaceSummary } from "../workspace/workspace-object";

export interface DirectoryEntry extends WorkspaceSummary {
  registered_at_ms: number;
  updated_at_ms: number;
}

export function upsertSummary(db: Db, summary: WorkspaceSummary, nowMs: number): void {
  db.run(
    `INSERT INTO workspaces (name, registered_at_ms, updated_at_ms, tick, seq, branches, as_of_tick, project_tick, open_records, open_sessions)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET updated_at_ms = excluded.updated_at_ms, tick = excluded.tick, seq = excluded.seq,
       branches = excluded.branches, as_of_tick = excluded.as_of_tick, project_tick = excluded.project_tick,
       open_records = excluded.open_records, open_sessions = excluded.open_sessions
     WHERE excluded.as_of_tick >= workspaces.as_of_tick`,
    summary.name,
    nowMs,
    nowMs,
    summary.tick,
    summary.seq,
    summary.branches,
    summary.as_of_tick,
    summary.project_tick ?? 0,
    summary.open_records ?? 0,
    summary.open_sessions ?? 0,
  );
}

export function listWorkspaces(db: Db, after: string | undefined, limit: number): { workspaces: DirectoryEntry[]; has_more: boolean } {
  const bounded = Math.min(Math.max(limit, 1), MAX_LIST_LIMIT);
  const rows = db.all<DirectoryEntry & Record<string, string | number>>(
    `SELECT name, registered_at_ms, updated_at_ms, tick, seq, branches, as_of_tick, project_tick, open_records, open_sessions
     FROM workspaces WHERE name > ? ORDER BY name LIMIT ?`,
    after ?? "",
    bounded + 1,
  );
  return { workspaces: rows.slice(0, bounded), has_more: rows.length > bounded };
}
