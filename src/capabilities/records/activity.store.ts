/**
 * The Record-Sync activity log (migration 0013, `record_activity`): one row per logged event, never
 * updated or deleted, ordered by its id. Appends and the bounded, filtered reads of
 * get_recent_activity and the overview. Runs inside the caller's transaction.
 */
import type { Db } from "../../storage/db";
import { type ActivityEntry, type ActivityType, iso } from "./records.schema";

export interface NewActivity {
  at_tick: number;
  ts_ms: number;
  type: ActivityType;
  session_id: string;
  agent_id: string;
  record_id?: string | undefined;
  summary: string;
  details?: Record<string, unknown> | undefined;
}

interface ActivityRow {
  id: number;
  at_tick: number;
  ts_ms: number;
  type: ActivityType;
  session_id: string;
  agent_id: string;
  record_id: string | null;
  summary: string;
  details_json: string | null;
}

type SqlRow<T> = T & Record<string, string | number | null>;

export function insertActivity(db: Db, entry: NewActivity): number {
  const row = db.one<{ id: number }>(
    `INSERT INTO record_activity (at_tick, ts_ms, type, session_id, agent_id, record_id, summary, details_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    entry.at_tick,
    entry.ts_ms,
    entry.type,
    entry.session_id,
    entry.agent_id,
    entry.record_id ?? null,
    entry.summary,
    entry.details === undefined ? null : JSON.stringify(entry.details),
  );
  return row?.id ?? 0;
}

export interface ActivityFilter {
  types?: string[] | undefined;
  record_id?: string | undefined;
  /** Wall-clock filter the caller asked for (entries at or after it); order stays by id. */
  since_ms?: number | undefined;
  /** Entries after this project tick. */
  since_tick?: number | undefined;
  /** Exclusive cursor: entries with a smaller id. */
  before_id?: number | undefined;
}

/** Entries newest first, at most `limit + 1`. */
export function listActivity(db: Db, filter: ActivityFilter, limit: number): ActivityEntry[] {
  const parts: string[] = [];
  const params: (string | number)[] = [];
  let index = "";
  if (filter.record_id !== undefined) {
    parts.push("record_id = ?");
    params.push(filter.record_id);
    index = "INDEXED BY record_activity_by_record";
  }
  if (filter.types !== undefined && filter.types.length > 0) {
    parts.push("type IN (SELECT value FROM json_each(?))");
    params.push(JSON.stringify(filter.types));
  }
  if (filter.since_ms !== undefined) {
    parts.push("ts_ms >= ?");
    params.push(filter.since_ms);
  }
  if (filter.since_tick !== undefined) {
    parts.push("at_tick > ?");
    params.push(filter.since_tick);
  }
  if (filter.before_id !== undefined) {
    parts.push("id < ?");
    params.push(filter.before_id);
  }
  const where = parts.length === 0 ? "" : `WHERE ${parts.join(" AND ")}`;
  const rows = db.all<SqlRow<ActivityRow>>(
    `SELECT id, at_tick, ts_ms, type, session_id, agent_id, record_id, summary, details_json FROM record_activity ${index} ${where}
     ORDER BY id DESC LIMIT ${Math.trunc(limit) + 1}`,
    ...params,
  );
  return rows.map(toEntry);
}

function toEntry(row: ActivityRow): ActivityEntry {
  const entry: ActivityEntry = {
    id: row.id,
    timestamp: iso(row.ts_ms),
    at_tick: row.at_tick,
    type: row.type,
    session_id: row.session_id,
    agent_id: row.agent_id,
    summary: row.summary,
  };
  if (row.record_id !== null) entry.record_id = row.record_id;
  if (row.details_json !== null) entry.details = JSON.parse(row.details_json) as Record<string, unknown>;
  return entry;
}
