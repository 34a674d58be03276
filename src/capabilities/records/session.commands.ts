/**
 * Session lifecycle (seed 004 "Session Lifecycle Commands"): `records.save_session` (save_session:
 * a sync-up point that names the records the session changed since its last save; a write, it
 * advances the project tick) and `records.close_session` (close_session: deactivates everything,
 * warns about changes made since the last save, and ends the session; advances nothing).
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { advanceProjectTick, logActivity, quote } from "./record-writes";
import { iso, MAX_ACTIVE_RECORDS, MAX_SAVED_RECORDS, projectIdField, reasonSchema, sessionIdField } from "./records.schema";
import { recordsChangedBy } from "./records-versions.store";
import { noOpenSession, projectTick, selectSession } from "./session-select";
import { activeRecordIds, deactivateAll, markClosed, markSaved, type SessionRow, touchSession } from "./sessions.store";

/** Changes count from the last save, or from the session's start (a resumed session: from its resume). */
function saveBaseline(session: SessionRow): number {
  return session.last_save_tick ?? session.created_tick;
}

export const recordsSaveSession = defineCommand({
  name: "records.save_session",
  tool: "save_session",
  title: "Save a session",
  description:
    "Sync-up point without ending the session: names the records this session changed since its last save (saved_records), records last_save, and logs session_saved with your summary. get_record_diff from last_save compares against this point. Advances the project tick.",
  kind: "write",
  input: {
    ...sessionIdField,
    summary: reasonSchema.optional().describe("What this session did, for the activity log."),
    ...projectIdField,
  },
  output: {
    success: z.boolean(),
    session_id: z.string(),
    saved_records: z.array(z.string()),
    saved_records_has_more: z.boolean(),
    last_save: z.string(),
    project_tick: z.number(),
  },
  handler: (ctx, args) => {
    const session = selectSession(ctx, args.session_id, () => noOpenSession(ctx));
    const since = saveBaseline(session);
    const changed = recordsChangedBy(ctx.db, session.id, since, MAX_SAVED_RECORDS);
    const saved = changed.slice(0, MAX_SAVED_RECORDS);
    const tick = advanceProjectTick(ctx, session, {
      target: session.id,
      summary: `session saved${args.summary ? `: ${quote(args.summary)}` : ""}`,
    });
    markSaved(ctx.db, session.id, tick, ctx.nowMs);
    logActivity(ctx, {
      at_tick: tick,
      type: "session_saved",
      session_id: session.id,
      summary: `${session.id} saved${args.summary ? `: ${quote(args.summary)}` : ""} (${saved.length} records changed)`,
      details: { saved_records: saved, ...(args.summary ? { summary: args.summary } : {}) },
    });
    return {
      success: true,
      session_id: session.id,
      saved_records: saved,
      saved_records_has_more: changed.length > MAX_SAVED_RECORDS,
      last_save: iso(ctx.nowMs),
      project_tick: tick,
    };
  },
});

export const recordsCloseSession = defineCommand({
  name: "records.close_session",
  tool: "close_session",
  title: "Close a session",
  description:
    "End a session cleanly: clears its active records (deactivated_records), warns when records were changed since the last save_session (unsaved_warning), logs session_closed. A closed session can be resumed with activate {session_id}, starting fresh. Session bookkeeping: does not advance the project tick; a read-role token may call it.",
  kind: "write",
  requiresRole: "read",
  input: {
    ...sessionIdField,
    summary: reasonSchema.optional().describe("How the session ended, for the activity log."),
    ...projectIdField,
  },
  output: {
    success: z.boolean(),
    session_id: z.string(),
    deactivated_records: z.array(z.string()),
    unsaved_warning: z.string().optional(),
    unsaved_records: z.array(z.string()).optional(),
    project_tick: z.number(),
  },
  handler: (ctx, args) => {
    const session = selectSession(ctx, args.session_id, () => noOpenSession(ctx));
    const tick = projectTick(ctx);
    const unsaved = recordsChangedBy(ctx.db, session.id, saveBaseline(session), MAX_SAVED_RECORDS).slice(0, MAX_SAVED_RECORDS);
    const deactivated = activeRecordIds(ctx.db, session.id, MAX_ACTIVE_RECORDS);
    deactivateAll(ctx.db, session.id);
    markClosed(ctx.db, session.id, tick, ctx.nowMs);
    touchSession(ctx.db, session.id, ctx.nowMs);
    logActivity(ctx, {
      at_tick: tick,
      type: "session_closed",
      session_id: session.id,
      summary: `${session.id} closed${args.summary ? `: ${quote(args.summary)}` : ""}`,
      details: { deactivated_records: deactivated, unsaved_records: unsaved, ...(args.summary ? { summary: args.summary } : {}) },
    });
    return {
      success: true,
      session_id: session.id,
      deactivated_records: deactivated,
      ...(unsaved.length > 0
        ? {
            unsaved_warning: `${unsaved.length} records changed since the last save_session: ${unsaved.join(", ")}. They are stored; only the save point is missing.`,
            unsaved_records: unsaved,
          }
        : {}),
      project_tick: tick,
    };
  },
});
