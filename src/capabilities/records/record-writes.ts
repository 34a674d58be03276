/**
 * How record writes land (docs/records.md "Tick accounting"): a write that advances the project tick
 * (create_record, update_record, transition, save_session) takes the next tick, keeps the writing
 * session in sync if it was, and journals one workspace note; every record change stores a whole
 * version; activations and the conflict window live here too. Logging helpers put every activity
 * entry in one shape.
 */
import type { CommandContext } from "../../commands/context";
import { fail } from "../../shared/errors";
import { suggest } from "../../shared/suggestion";
import { clip } from "../../shared/text";
import { advance } from "../../storage/clocks";
import { insertActivity, type NewActivity } from "./activity.store";
import { MAX_ACTIVE_RECORDS } from "./records.schema";
import type { RecordRow } from "./records.store";
import { type ChangeType, insertVersion } from "./records-versions.store";
import {
  type ActivationRow,
  countActive,
  fastForwardSync,
  findActivation,
  type SessionRow,
  touchSession,
  upsertActivation,
} from "./sessions.store";

/** Journal and activity summaries quote at most this much of a title. */
const QUOTE_CHARS = 60;

export function quote(text: string): string {
  return clip(text, QUOTE_CHARS);
}

/** Takes the next project tick for a write of `session`, and journals it in the workspace (one note). */
export function advanceProjectTick(ctx: CommandContext, session: SessionRow, note: { target: string; summary: string }): number {
  const tick = advance(ctx.db, "project_tick");
  fastForwardSync(ctx.db, session.id, tick);
  touchSession(ctx.db, session.id, ctx.nowMs);
  ctx.journal(note);
  return tick;
}

export function logActivity(ctx: CommandContext, entry: Omit<NewActivity, "ts_ms" | "agent_id">): void {
  insertActivity(ctx.db, { ...entry, ts_ms: ctx.nowMs, agent_id: ctx.principal.agent_id });
}

/**
 * Stores `row` (already at its new version) as a version written by `session` at `tick`. Only the
 * session's id is stored: workspace_import writes as the pseudo-session `import` (no session row).
 */
export function storeVersion(
  ctx: CommandContext,
  row: RecordRow,
  session: Pick<SessionRow, "id">,
  tick: number,
  change: { type: ChangeType; summary: string; reason?: string | undefined; forced?: boolean },
): void {
  insertVersion(ctx.db, {
    record_id: row.id,
    version: row.version,
    tick,
    change_type: change.type,
    change_summary: change.summary,
    session_id: session.id,
    agent_id: ctx.principal.agent_id,
    ts_ms: ctx.nowMs,
    type: row.type,
    title: row.title,
    summary: row.summary,
    body: row.body,
    state: row.state,
    // The version keeps the reason given for this change, whatever state it led to.
    state_reason: change.reason ?? row.state_reason,
    resolved_by: row.resolved_by,
    related_json: row.related_json,
    metadata_json: row.metadata_json,
    forced: change.forced ? 1 : 0,
  });
}

/** A session may hold MAX_ACTIVE_RECORDS active records; one more is refused. */
export function ensureRoom(ctx: CommandContext, session: SessionRow, recordId: string): void {
  if (findActivation(ctx.db, session.id, recordId)) return;
  requireRoom(ctx, session);
}

/** Room for one more active record in `session` (the record is known not to be active there). */
export function requireRoom(ctx: CommandContext, session: SessionRow): void {
  if (countActive(ctx.db, session.id) < MAX_ACTIVE_RECORDS) return;
  fail(
    "BUDGET_EXCEEDED",
    `Session ${session.id} already has ${MAX_ACTIVE_RECORDS} active records.`,
    "Close this session (close_session) and start a new one with the records you still need.",
    { session_id: session.id, max_active_records: MAX_ACTIVE_RECORDS },
    [suggest("close_session", { session_id: session.id }, "End this session; activate again in a fresh one.")],
  );
}

/** Activates `record` in `session` at project tick `tick`: the session has seen its current version. */
export function activateIn(ctx: CommandContext, session: SessionRow, record: RecordRow, tick: number): void {
  const row: ActivationRow = {
    session_id: session.id,
    record_id: record.id,
    loaded_version: record.version,
    base_tick: tick,
    activated_tick: tick,
    activated_at_ms: ctx.nowMs,
  };
  upsertActivation(ctx.db, row);
}

/** The record's activation in the session, or NOT_ACTIVATED (seed 004: mutations require activation). */
export function requireActivation(ctx: CommandContext, session: SessionRow, record: RecordRow): ActivationRow {
  const row = findActivation(ctx.db, session.id, record.id);
  if (row) return row;
  return fail(
    "NOT_ACTIVATED",
    `${record.id} is not active in session ${session.id}.`,
    "Call activate on the record first (it loads its context), then retry.",
    { record_id: record.id, session_id: session.id },
    [suggest("activate", { id: record.id, session_id: session.id }, `Load ${record.id} into ${session.id}.`)],
  );
}

export interface ConflictInfo {
  by_session: string;
  modified_tick: number;
  window_start_tick: number;
}

/**
 * Seed 004's conflict: the record was modified by another session after this session activated it
 * (or last wrote it) or last synced, whichever is later. Decided by project ticks, never by time.
 */
export function conflictOf(record: RecordRow, session: SessionRow, activation: ActivationRow): ConflictInfo | undefined {
  const windowStart = Math.max(activation.base_tick, session.last_sync_tick);
  if (record.modified_by_session === session.id || record.modified_tick <= windowStart) return undefined;
  return { by_session: record.modified_by_session, modified_tick: record.modified_tick, window_start_tick: windowStart };
}
