/**
 * Storage of Record-Sync sessions (migration 0013): session rows (ids from the `record_session`
 * clock), the records each open session has active (`session_records`), and the bounded reads that
 * select a session, find who else has a record active, and list a session's active records. Runs
 * inside the caller's transaction; nothing here logs activity.
 */
import { advance } from "../../storage/clocks";
import type { Db } from "../../storage/db";

export interface SessionRow {
  num: number;
  id: string;
  agent_id: string;
  status: "open" | "closed";
  parent_session: string | null;
  stale_after_ticks: number;
  created_tick: number;
  last_sync_tick: number;
  last_save_tick: number | null;
  last_save_at_ms: number | null;
  closed_tick: number | null;
  created_at_ms: number;
  last_activity_at_ms: number;
  closed_at_ms: number | null;
}

export interface ActivationRow {
  session_id: string;
  record_id: string;
  loaded_version: number;
  base_tick: number;
  activated_tick: number;
  activated_at_ms: number;
}

type SqlRow<T> = T & Record<string, string | number | null>;

const SESSION_COLUMNS =
  "num, id, agent_id, status, parent_session, stale_after_ticks, created_tick, last_sync_tick, last_save_tick, last_save_at_ms, closed_tick, created_at_ms, last_activity_at_ms, closed_at_ms";

/** S001, zero-padded to 3 digits, wider past 999. */
export function nextSessionId(db: Db): { num: number; id: string } {
  const num = advance(db, "record_session");
  return { num, id: `S${String(num).padStart(3, "0")}` };
}

export function insertSession(db: Db, row: SessionRow): void {
  db.run(
    `INSERT INTO record_sessions (${SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    row.num,
    row.id,
    row.agent_id,
    row.status,
    row.parent_session,
    row.stale_after_ticks,
    row.created_tick,
    row.last_sync_tick,
    row.last_save_tick,
    row.last_save_at_ms,
    row.closed_tick,
    row.created_at_ms,
    row.last_activity_at_ms,
    row.closed_at_ms,
  );
}

export function findSession(db: Db, id: string): SessionRow | undefined {
  return db.one<SqlRow<SessionRow>>(`SELECT ${SESSION_COLUMNS} FROM record_sessions WHERE id = ?`, id);
}

/** An agent's open sessions in number order, at most `limit + 1`. */
export function openSessionsOf(db: Db, agentId: string, limit: number): SessionRow[] {
  return db.all<SqlRow<SessionRow>>(
    `SELECT ${SESSION_COLUMNS} FROM record_sessions INDEXED BY record_sessions_open_by_agent WHERE agent_id = ? AND status = 'open'
     ORDER BY num LIMIT ${Math.trunc(limit) + 1}`,
    agentId,
  );
}

/** An agent's newest open session (the highest number), or undefined. */
export function latestOpenSessionOf(db: Db, agentId: string): SessionRow | undefined {
  return db.one<SqlRow<SessionRow>>(
    `SELECT ${SESSION_COLUMNS} FROM record_sessions INDEXED BY record_sessions_open_by_agent WHERE agent_id = ? AND status = 'open'
     ORDER BY num DESC LIMIT 1`,
    agentId,
  );
}

/** Every open session in number order, at most `limit + 1`. */
export function openSessions(db: Db, limit: number): SessionRow[] {
  return db.all<SqlRow<SessionRow>>(
    `SELECT ${SESSION_COLUMNS} FROM record_sessions INDEXED BY record_sessions_open WHERE status = 'open' ORDER BY num LIMIT ${Math.trunc(limit) + 1}`,
  );
}

/** Open sessions, counted up to `cap + 1`. */
export function countOpenSessions(db: Db, cap: number): number {
  return (
    db.one<{ n: number }>(
      `SELECT COUNT(*) AS n FROM (SELECT 1 FROM record_sessions INDEXED BY record_sessions_open WHERE status = 'open' LIMIT ${Math.trunc(cap) + 1})`,
    )?.n ?? 0
  );
}

export function touchSession(db: Db, id: string, nowMs: number): void {
  db.run("UPDATE record_sessions SET last_activity_at_ms = ? WHERE id = ?", nowMs, id);
}

export function setLastSync(db: Db, id: string, tick: number): void {
  db.run("UPDATE record_sessions SET last_sync_tick = ? WHERE id = ?", tick, id);
}

/**
 * After the session's own write at `tick`: a session that had seen every tick before it stays in
 * sync (its own writes do not make it stale). A session already behind stays behind.
 */
export function fastForwardSync(db: Db, id: string, tick: number): void {
  db.run("UPDATE record_sessions SET last_sync_tick = ? WHERE id = ? AND last_sync_tick = ?", tick, id, tick - 1);
}

export function markSaved(db: Db, id: string, tick: number, nowMs: number): void {
  db.run("UPDATE record_sessions SET last_save_tick = ?, last_save_at_ms = ? WHERE id = ?", tick, nowMs, id);
}

export function markClosed(db: Db, id: string, tick: number, nowMs: number): void {
  db.run("UPDATE record_sessions SET status = 'closed', closed_tick = ?, closed_at_ms = ? WHERE id = ?", tick, nowMs, id);
}

/**
 * A closed session resumed by activate: open again, in sync now, nothing active (close cleared it),
 * and its unsaved changes count from now (it starts fresh).
 */
export function markReopened(db: Db, id: string, tick: number): void {
  db.run(
    "UPDATE record_sessions SET status = 'open', closed_tick = NULL, closed_at_ms = NULL, last_sync_tick = ?, last_save_tick = ? WHERE id = ?",
    tick,
    tick,
    id,
  );
}

// ---- active records ----------------------------------------------------------------------------

export function findActivation(db: Db, sessionId: string, recordId: string): ActivationRow | undefined {
  return db.one<SqlRow<ActivationRow>>(
    "SELECT session_id, record_id, loaded_version, base_tick, activated_tick, activated_at_ms FROM session_records WHERE session_id = ? AND record_id = ?",
    sessionId,
    recordId,
  );
}

/** Activates (or re-activates) a record in a session: loaded version and conflict window start now. */
export function upsertActivation(db: Db, row: ActivationRow): void {
  db.run(
    `INSERT INTO session_records (session_id, record_id, loaded_version, base_tick, activated_tick, activated_at_ms) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (session_id, record_id) DO UPDATE SET loaded_version = excluded.loaded_version, base_tick = excluded.base_tick,
       activated_tick = excluded.activated_tick, activated_at_ms = excluded.activated_at_ms`,
    row.session_id,
    row.record_id,
    row.loaded_version,
    row.base_tick,
    row.activated_tick,
    row.activated_at_ms,
  );
}

/** After the session's own write to the record: it has seen this version, the window starts at its tick. */
export function moveWindow(db: Db, sessionId: string, recordId: string, version: number, tick: number): void {
  db.run(
    "UPDATE session_records SET loaded_version = ?, base_tick = ? WHERE session_id = ? AND record_id = ?",
    version,
    tick,
    sessionId,
    recordId,
  );
}

/** A session's active record ids in record-number order, at most `limit` (callers pass MAX_ACTIVE_RECORDS). */
export function activeRecordIds(db: Db, sessionId: string, limit: number): string[] {
  return db
    .all<{ record_id: string }>(
      `SELECT s.record_id FROM session_records s JOIN records r ON r.id = s.record_id WHERE s.session_id = ? ORDER BY r.num LIMIT ${Math.trunc(limit)}`,
      sessionId,
    )
    .map((row) => row.record_id);
}

/** Active record ids of several sessions (the overview), each list in record-number order. */
export function activeRecordIdsOf(db: Db, sessionIds: string[], perSession: number): Map<string, string[]> {
  const out = new Map<string, string[]>(sessionIds.map((id) => [id, []]));
  if (sessionIds.length === 0) return out;
  const rows = db.all<{ session_id: string; record_id: string }>(
    `SELECT s.session_id, s.record_id FROM session_records s JOIN records r ON r.id = s.record_id
     WHERE s.session_id IN (SELECT value FROM json_each(?)) ORDER BY s.session_id, r.num LIMIT ${Math.trunc(perSession * sessionIds.length)}`,
    JSON.stringify(sessionIds),
  );
  for (const row of rows) out.get(row.session_id)?.push(row.record_id);
  return out;
}

export function countActive(db: Db, sessionId: string): number {
  return db.one<{ n: number }>("SELECT COUNT(*) AS n FROM session_records WHERE session_id = ?", sessionId)?.n ?? 0;
}

export function deactivateAll(db: Db, sessionId: string): void {
  db.run("DELETE FROM session_records WHERE session_id = ?", sessionId);
}

/** Open sessions that have `recordId` active, other than `exceptSession`, in session-number order, at most `limit + 1`. */
export function sessionsWith(db: Db, recordId: string, exceptSession: string | null, limit: number): SessionRow[] {
  return db.all<SqlRow<SessionRow>>(
    `SELECT ${SESSION_COLUMNS.split(", ")
      .map((column) => `s.${column}`)
      .join(", ")}
     FROM session_records a INDEXED BY session_records_by_record JOIN record_sessions s ON s.id = a.session_id
     WHERE a.record_id = ? AND s.status = 'open' AND s.id IS NOT ? ORDER BY s.num LIMIT ${Math.trunc(limit) + 1}`,
    recordId,
    exceptSession,
  );
}
