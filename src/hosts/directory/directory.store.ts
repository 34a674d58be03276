/**
 * The Directory's SQL: one row per workspace with the last summary it pushed. A push never moves a
 * row backwards (`as_of_tick` only grows), so late or repeated pushes are harmless. Record-Sync counts
 * (project tick, open records, open sessions) ride along; a push without them counts zeros.
 */

import type { ListingPageRequest, WorkspaceListing, WorkspacePage } from "../../directory/project-directory";
import { MAX_PROJECT_PAGE, MAX_PROJECT_SCAN, PROJECT_SCAN_BATCH } from "../../directory/project-limits";
import { MAX_LIST_LIMIT } from "../../shared/limits";
import { matchesWorkspace } from "../../shared/workspace-patterns";
import type { WorkspaceSummary } from "../../shared/workspace-summary";
import type { Db } from "../../storage/db";

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

/**
 * One page of workspace summaries in name order, only those the patterns allow (`workspace_list`).
 * Bounded like the project list: at most MAX_PROJECT_SCAN rows are examined, and when that bound stops
 * the scan the page says where to go on.
 */
export function listAllowedWorkspaces(db: Db, request: ListingPageRequest): WorkspacePage {
  const limit = Math.min(Math.max(request.limit, 1), MAX_PROJECT_PAGE);
  const allowed = request.patterns.includes("**")
    ? () => true
    : (name: string) => request.patterns.some((pattern) => matchesWorkspace(pattern, name));
  const shown: WorkspaceListing[] = [];
  let after = request.after ?? "";
  let scanned = 0;
  while (scanned < MAX_PROJECT_SCAN) {
    const batch = Math.min(Math.max(limit + 1, PROJECT_SCAN_BATCH), MAX_PROJECT_SCAN - scanned);
    const rows = db.all<WorkspaceListing & Record<string, string | number>>(
      `SELECT name, tick, seq, branches, as_of_tick, project_tick, open_records, open_sessions, updated_at_ms
       FROM workspaces WHERE name > ? ORDER BY name LIMIT ?`,
      after,
      batch,
    );
    for (const row of rows) {
      scanned++;
      after = row.name;
      if (!allowed(row.name)) continue;
      if (shown.length === limit) return { workspaces: shown, has_more: true, next_cursor: shown[limit - 1]?.name as string };
      shown.push(row);
    }
    if (rows.length < batch) return { workspaces: shown, has_more: false };
  }
  return { workspaces: shown, has_more: true, next_cursor: after };
}
