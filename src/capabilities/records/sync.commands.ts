/**
 * `records.sync` (sync_session, seed 004 "Activation Commands"): the changes other sessions made since
 * this one last synced, in tick order, paged, each marked when it touches a record active in this
 * session. Session bookkeeping only: logged in the activity, never advances the project tick, and a
 * read-role token may call it.
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { logActivity } from "./record-writes";
import { DEFAULT_SYNC_CHANGES, iso, MAX_ACTIVE_RECORDS, MAX_SYNC_CHANGES, projectIdField, sessionIdField } from "./records.schema";
import { type ChangeRow, changesAfter } from "./records-versions.store";
import { noOpenSession, projectTick, selectSession, sessionStatus } from "./session-select";
import { activeRecordIds, setLastSync, touchSession } from "./sessions.store";

const changeSchema = z.object({
  record_id: z.string(),
  change_type: z.enum(["created", "modified", "state_changed", "deleted"]),
  version: z.number(),
  title: z.string(),
  fields: z.array(z.string()).optional().describe("modified: the fields that changed (body and metadata are named, not shown)."),
  old_value: z.record(z.string(), z.unknown()).optional(),
  new_value: z.record(z.string(), z.unknown()).optional(),
  by_session: z.string(),
  by_agent: z.string(),
  at_tick: z.number(),
  timestamp: z.string(),
  active_in_session: z.boolean().describe("The record is active in the syncing session."),
});

function toChange(row: ChangeRow, active: Set<string>) {
  const base = {
    record_id: row.record_id,
    change_type: row.change_type,
    version: row.version,
    title: row.title,
    by_session: row.session_id,
    by_agent: row.agent_id,
    at_tick: row.tick,
    timestamp: iso(row.ts_ms),
    active_in_session: active.has(row.record_id),
  };
  if (row.change_type === "created") {
    return { ...base, new_value: { type: row.type, title: row.title, state: row.state, parent_id: row.parent_id } };
  }
  if (row.change_type === "state_changed") {
    return {
      ...base,
      old_value: { state: row.prev_state, ...(row.prev_resolved_by ? { resolved_by: row.prev_resolved_by } : {}) },
      new_value: {
        state: row.state,
        ...(row.resolved_by ? { resolved_by: row.resolved_by } : {}),
        ...(row.state_reason ? { reason: row.state_reason } : {}),
      },
    };
  }
  const fields: string[] = [];
  const oldValue: Record<string, unknown> = {};
  const newValue: Record<string, unknown> = {};
  const small: [string, unknown, unknown][] = [
    ["type", row.prev_type, row.type],
    ["title", row.prev_title, row.title],
    ["summary", row.prev_summary, row.summary],
  ];
  for (const [field, before, after] of small) {
    if (before === after) continue;
    fields.push(field);
    oldValue[field] = before;
    newValue[field] = after;
  }
  if (row.body_changed) fields.push("body");
  if (row.prev_related_json !== row.related_json) {
    fields.push("related");
    oldValue.related = JSON.parse(row.prev_related_json ?? "[]");
    newValue.related = JSON.parse(row.related_json);
  }
  if (row.metadata_changed) fields.push("metadata");
  return { ...base, fields, old_value: oldValue, new_value: newValue };
}

export const recordsSync = defineCommand({
  name: "records.sync",
  tool: "sync_session",
  title: "Sync a session",
  description: `Pull what other sessions changed since this session last synced: each change with record_id, change_type (created, modified, state_changed), old and new values, by_session and at_tick, oldest first, at most limit (default ${DEFAULT_SYNC_CHANGES}). Moves the session's last_sync_tick to the last tick it covered: with has_more, call again for the rest. Reports tick_gap and session_status: stale when the gap found was past the session's stale threshold (a warning says so). Does not advance the project tick.`,
  kind: "write",
  requiresRole: "read",
  input: {
    ...sessionIdField,
    limit: z.number().int().min(1).max(MAX_SYNC_CHANGES).default(DEFAULT_SYNC_CHANGES).describe("Changes per call."),
    ...projectIdField,
  },
  output: {
    session_id: z.string(),
    project_tick: z.number(),
    session_tick_before: z.number(),
    tick_gap: z.number().describe("Writes since the session's last sync (project_tick - session_tick_before)."),
    last_sync_tick: z.number().describe("The session's last_sync_tick after this call."),
    changes: z.array(changeSchema),
    has_more: z.boolean(),
    session_status: z.enum(["active", "stale"]).describe("The status the sync found: stale when tick_gap was past the stale threshold."),
    warning: z.string().optional(),
  },
  handler: (ctx, args) => {
    const session = selectSession(ctx, args.session_id, () => noOpenSession(ctx));
    const tick = projectTick(ctx);
    const before = session.last_sync_tick;
    const rows = changesAfter(ctx.db, before, session.id, args.limit);
    const shown = rows.slice(0, args.limit);
    const hasMore = rows.length > args.limit;
    const synced = hasMore ? (shown[shown.length - 1] as ChangeRow).tick : tick;
    setLastSync(ctx.db, session.id, synced);
    touchSession(ctx.db, session.id, ctx.nowMs);
    const active = new Set(activeRecordIds(ctx.db, session.id, MAX_ACTIVE_RECORDS));
    logActivity(ctx, {
      at_tick: tick,
      type: "session_synced",
      session_id: session.id,
      summary: `${session.id} synced ticks ${before}..${synced}: ${shown.length} changes${hasMore ? " (more remain)" : ""}`,
      details: { from_tick: before, to_tick: synced, changes: shown.length, has_more: hasMore },
    });
    const gap = tick - before;
    // The status the sync found, as seed 004 means it: stale when the gap was past the threshold. (After
    // the sync the session is in sync again unless has_more, so the status after it would hide that.)
    const status = sessionStatus(session, tick) === "stale" ? ("stale" as const) : ("active" as const);
    return {
      session_id: session.id,
      project_tick: tick,
      session_tick_before: before,
      tick_gap: gap,
      last_sync_tick: synced,
      changes: shown.map((row) => toChange(row, active)),
      has_more: hasMore,
      session_status: status,
      ...(status === "stale"
        ? { warning: `${gap} writes occurred since your last sync (stale threshold ${session.stale_after_ticks}).` }
        : {}),
    };
  },
});
