/**
 * Storage of record versions (migration 0013): each change of a record is a whole snapshot, kept with
 * the tick, session and agent that made it. Reads: one version, the version as of a tick or time,
 * version pages, and the changes other sessions made since a tick (sync and conflict warnings). Every
 * function runs inside the caller's transaction.
 */
import type { Db } from "../../storage/db";
import { limitSql } from "../../storage/seq-scans";
import type { RecordState } from "./records.schema";

type SqlRow<T> = T & Record<string, string | number | null>;

export type ChangeType = "created" | "modified" | "state_changed";

export interface VersionRow {
  record_id: string;
  version: number;
  tick: number;
  change_type: ChangeType;
  change_summary: string;
  session_id: string;
  agent_id: string;
  ts_ms: number;
  type: string;
  title: string;
  summary: string;
  body: string;
  state: RecordState;
  state_reason: string | null;
  resolved_by: string | null;
  related_json: string;
  metadata_json: string | null;
  forced: number;
}

const VERSION_COLUMNS =
  "record_id, version, tick, change_type, change_summary, session_id, agent_id, ts_ms, type, title, summary, body, state, state_reason, resolved_by, related_json, metadata_json, forced";

export function insertVersion(db: Db, row: VersionRow): void {
  db.run(
    `INSERT INTO record_versions (${VERSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    row.record_id,
    row.version,
    row.tick,
    row.change_type,
    row.change_summary,
    row.session_id,
    row.agent_id,
    row.ts_ms,
    row.type,
    row.title,
    row.summary,
    row.body,
    row.state,
    row.state_reason,
    row.resolved_by,
    row.related_json,
    row.metadata_json,
    row.forced,
  );
}

export function findVersion(db: Db, recordId: string, version: number): VersionRow | undefined {
  return db.one<SqlRow<VersionRow>>(
    `SELECT ${VERSION_COLUMNS} FROM record_versions WHERE record_id = ? AND version = ?`,
    recordId,
    version,
  );
}

/** The record's newest version written at or before a project tick, or at or before a wall-clock time. */
export function versionAsOf(db: Db, recordId: string, at: { tick: number } | { ts_ms: number }): VersionRow | undefined {
  const [column, value] = "tick" in at ? ["tick", at.tick] : ["ts_ms", at.ts_ms];
  return db.one<SqlRow<VersionRow>>(
    `SELECT ${VERSION_COLUMNS} FROM record_versions WHERE record_id = ? AND ${column} <= ? ORDER BY version DESC LIMIT 1`,
    recordId,
    value,
  );
}

/**
 * Versions of a record below `beforeVersion` (exclusive) and written at or after `sinceMs` (a
 * wall-clock filter the caller asked for; order stays by version), newest first, at most `limit + 1`.
 */
export function versionsOf(
  db: Db,
  recordId: string,
  options: { beforeVersion?: number | undefined; sinceMs?: number | undefined; limit: number },
): VersionRow[] {
  const parts = ["record_id = ?"];
  const params: (string | number)[] = [recordId];
  if (options.beforeVersion !== undefined) {
    parts.push("version < ?");
    params.push(options.beforeVersion);
  }
  if (options.sinceMs !== undefined) {
    parts.push("ts_ms >= ?");
    params.push(options.sinceMs);
  }
  return db.all<SqlRow<VersionRow>>(
    `SELECT ${VERSION_COLUMNS} FROM record_versions WHERE ${parts.join(" AND ")} ORDER BY version DESC LIMIT ${Math.trunc(options.limit) + 1}`,
    ...params,
  );
}

/** The body of one version (the predecessor a history diff compares against). */
export function versionBody(db: Db, recordId: string, version: number): string | undefined {
  return db.one<{ body: string }>("SELECT body FROM record_versions WHERE record_id = ? AND version = ?", recordId, version)?.body;
}

/** A change after a tick, with what it changed against the version before (bodies compared in SQL, not loaded). */
export interface ChangeRow extends Omit<VersionRow, "body" | "metadata_json" | "forced"> {
  parent_id: string | null;
  prev_type: string | null;
  prev_title: string | null;
  prev_summary: string | null;
  prev_state: RecordState | null;
  prev_resolved_by: string | null;
  prev_related_json: string | null;
  metadata_changed: number;
  body_changed: number;
}

/** Versions written after `afterTick` by sessions other than `exceptSession`, in tick order, at most `limit + 1`. */
export function changesAfter(db: Db, afterTick: number, exceptSession: string, limit: number): ChangeRow[] {
  return db.all<SqlRow<ChangeRow>>(
    `SELECT v.record_id, v.version, v.tick, v.change_type, v.change_summary, v.session_id, v.agent_id, v.ts_ms, v.type, v.title, v.summary,
       v.state, v.state_reason, v.resolved_by, v.related_json, r.parent_id,
       p.type AS prev_type, p.title AS prev_title, p.summary AS prev_summary, p.state AS prev_state, p.resolved_by AS prev_resolved_by,
       p.related_json AS prev_related_json,
       (p.version IS NOT NULL AND v.metadata_json IS NOT p.metadata_json) AS metadata_changed,
       (p.version IS NOT NULL AND v.body <> p.body) AS body_changed
     FROM record_versions v INDEXED BY record_versions_by_tick
     JOIN records r ON r.id = v.record_id
     LEFT JOIN record_versions p ON p.record_id = v.record_id AND p.version = v.version - 1
     WHERE v.tick > ? AND v.session_id <> ?
     ORDER BY v.tick, v.record_id LIMIT ${Math.trunc(limit) + 1}`,
    afterTick,
    exceptSession,
  );
}

/**
 * How many records sessions other than `exceptSession` changed after `afterTick`, over the oldest
 * `scanned` of their versions (in tick order, so the changes made first are always counted): `capped`
 * when more versions remain past those.
 */
export function countRecordsChangedAfter(
  db: Db,
  afterTick: number,
  exceptSession: string,
  scanned: number,
): { records: number; capped: boolean } {
  const ids = db
    .all<{ record_id: string }>(
      `SELECT v.record_id FROM record_versions v INDEXED BY record_versions_by_tick
       WHERE v.tick > ? AND v.session_id <> ? ORDER BY v.tick${limitSql(scanned + 1)}`,
      afterTick,
      exceptSession,
    )
    .map((row) => row.record_id);
  return { records: new Set(ids.slice(0, scanned)).size, capped: ids.length > scanned };
}

/** Records a session wrote after `afterTick`, in number order, at most `limit + 1`. */
export function recordsChangedBy(db: Db, sessionId: string, afterTick: number, limit: number): string[] {
  return db
    .all<{ record_id: string }>(
      `SELECT record_id FROM (SELECT DISTINCT record_id FROM record_versions INDEXED BY record_versions_by_session WHERE session_id = ? AND tick > ?)
       JOIN records ON records.id = record_id ORDER BY records.num LIMIT ${Math.trunc(limit) + 1}`,
      sessionId,
      afterTick,
    )
    .map((row) => row.record_id);
}
