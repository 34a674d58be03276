/**
 * Sync-down (seed 004 "Activation Commands"): `records.activate` (activate: load a record's context
 * bundle into a session — new, named, resumed or branched — with conflict, stale and orphan warnings)
 * and `records.sync` (sync_session: the changes other sessions made since this one last synced, in
 * tick order, paged). Session bookkeeping only: both are logged in the activity and never advance the
 * project tick, and a read-role token may call them.
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { defineCommand } from "../../commands/registry";
import { fail } from "../../shared/errors";
import { type BundleFrame, buildBundle, bundleOfOverflowingRefs } from "./bundle";
import { activateIn, logActivity, requireRoom } from "./record-writes";
import {
  type BundleWarning,
  type ContextBundle,
  contextBundleSchema,
  DEFAULT_BUNDLE_CHARS,
  DEFAULT_STALE_AFTER_TICKS,
  DEFAULT_SYNC_CHANGES,
  iso,
  MAX_ACTIVE_RECORDS,
  MAX_BUNDLE_CHARS,
  MAX_BUNDLE_CHILDREN,
  MAX_BUNDLE_GRANDCHILDREN,
  MAX_LISTED_SESSIONS,
  MAX_SYNC_CHANGES,
  MIN_BUNDLE_CHARS,
  projectIdField,
  recordIdSchema,
  sessionIdField,
  sessionIdSchema,
  sessionStatusSchema,
  staleAfterField,
} from "./records.schema";
import { type BundleRows, bundleRowsOf, type RecordRow, requireRecord, toRecord, toRef } from "./records.store";
import { type ChangeRow, changesAfter } from "./records-versions.store";
import { namedSession, noOpenSession, projectTick, selectSession, sessionStatus, startSession } from "./session-select";
import {
  activeRecordIds,
  findActivation,
  findSession,
  markReopened,
  type SessionRow,
  sessionsWith,
  setLastSync,
  touchSession,
} from "./sessions.store";

/** The session an activation runs in, and how it came to be. */
function activationSession(
  ctx: CommandContext,
  args: { session_id?: string | undefined; parent_session?: string | undefined; stale_after_ticks?: number | undefined },
  recordId: string,
  tick: number,
): { session: SessionRow; started: boolean; resumed: boolean } {
  const staleAfter = args.stale_after_ticks ?? DEFAULT_STALE_AFTER_TICKS;
  if (args.session_id !== undefined && args.parent_session !== undefined) {
    fail(
      "INVALID_INPUT",
      "Give session_id (continue a session) or parent_session (start a session branched from it), not both.",
      "Drop one of the two.",
      { fields: ["session_id", "parent_session"] },
    );
  }
  if (args.session_id !== undefined) {
    const named = namedSession(ctx, args.session_id, false);
    if (named.status === "open") return { session: named, started: false, resumed: false };
    // A closed session can be resumed, but starts fresh: in sync now, nothing active (close cleared it).
    markReopened(ctx.db, named.id, tick);
    logActivity(ctx, {
      at_tick: tick,
      type: "session_started",
      session_id: named.id,
      record_id: recordId,
      summary: `${named.id} resumed`,
      details: { resumed: true },
    });
    return { session: findSession(ctx.db, named.id) as SessionRow, started: false, resumed: true };
  }
  if (args.parent_session !== undefined) {
    const parent = findSession(ctx.db, args.parent_session);
    if (!parent) {
      fail("SESSION_NOT_FOUND", `No session ${args.parent_session} to branch from.`, "Name an existing session, or omit parent_session.", {
        session_id: args.parent_session,
      });
    }
    return {
      session: startSession(ctx, { parent, stale_after_ticks: staleAfter, record_id: recordId, tick }),
      started: true,
      resumed: false,
    };
  }
  return { session: startSession(ctx, { stale_after_ticks: staleAfter, record_id: recordId, tick }), started: true, resumed: false };
}

function bundleWarnings(
  target: RecordRow,
  parent: RecordRow | null,
  session: SessionRow,
  tick: number,
  others: SessionRow[],
): BundleWarning[] {
  const warnings: BundleWarning[] = [];
  if (others.length > 0) {
    warnings.push({
      type: "conflict",
      message: `${target.id} is also active in ${others.length === 1 ? "session" : "sessions"} ${others.map((other) => other.id).join(", ")}. Single-writer model: confirm with the user before changing it.`,
      details: {
        sessions: others.map((other) => ({
          session_id: other.id,
          agent_id: other.agent_id,
          last_activity: iso(other.last_activity_at_ms),
        })),
      },
    });
  }
  if (sessionStatus(session, tick) === "stale") {
    warnings.push({
      type: "stale",
      message: `Session ${session.id} is stale: ${tick - session.last_sync_tick} writes since its last sync (threshold ${session.stale_after_ticks}). Call sync_session to see them.`,
      details: { last_sync_tick: session.last_sync_tick, project_tick: tick, stale_after_ticks: session.stale_after_ticks },
    });
  }
  if (parent && target.state === "OPEN" && (parent.state === "RESOLVED" || parent.state === "DISCARDED")) {
    warnings.push({
      type: "orphan",
      message: `${target.id} is OPEN but its parent ${parent.id} is ${parent.state}.`,
      details: { parent_id: parent.id, parent_state: parent.state },
    });
  }
  return warnings;
}

export const recordsActivate = defineCommand({
  name: "records.activate",
  tool: "activate",
  title: "Activate a record",
  description: `Load a record into a session for reasoning (sync-down). Returns the context bundle: the record and its parent in full, OPEN children in full, other children and grandchildren as refs, warnings (conflict, stale, orphan, budget); fitted to max_chars (default ${DEFAULT_BUNDLE_CHARS}): past it, OPEN children degrade to refs. Without session_id a new session starts — pass its session_id on every later call of this chat; parent_session starts one branched from another session; a closed session_id is resumed fresh. Re-activating answers already_loaded: true and says whether the record changed since. If another open session has the record active, it still activates and reports conflict. Does not advance the project tick.`,
  kind: "write",
  requiresRole: "read",
  example: { id: "R001" },
  input: {
    id: recordIdSchema,
    ...sessionIdField,
    parent_session: sessionIdSchema.optional().describe("Start a new session branched from this one (a new chat for a subtopic)."),
    override: z.boolean().default(false).describe("You saw the conflict and proceed anyway (recorded in the activity)."),
    max_chars: z
      .number()
      .int()
      .min(MIN_BUNDLE_CHARS)
      .max(MAX_BUNDLE_CHARS)
      .default(DEFAULT_BUNDLE_CHARS)
      .describe("Budget of the context bundle in characters of its JSON."),
    ...staleAfterField,
    ...projectIdField,
  },
  output: {
    session_id: z.string(),
    session_started: z.boolean(),
    session_resumed: z.boolean(),
    session_status: sessionStatusSchema,
    context: contextBundleSchema,
    already_loaded: z.boolean(),
    changed_since_load: z.boolean().optional().describe("Re-activation: the record changed since this session last loaded it."),
    loaded_version: z.number().optional().describe("Re-activation: the version this session had loaded before."),
    conflict: z
      .object({
        session_id: z.string(),
        agent_id: z.string(),
        last_activity: z.string(),
        message: z.string(),
        sessions: z.array(z.object({ session_id: z.string(), agent_id: z.string(), last_activity: z.string() })),
      })
      .optional(),
    active_records: z.array(z.string()),
    project_tick: z.number(),
  },
  handler: (ctx, args) => {
    const record = requireRecord(ctx.db, args.id);
    const tick = projectTick(ctx);
    const { session, started, resumed } = activationSession(ctx, args, record.id, tick);
    // A session this call started has nothing active yet, and its last activity is now already.
    const previous = started ? undefined : findActivation(ctx.db, session.id, record.id);
    if (!previous && !started) requireRoom(ctx, session);
    const others = sessionsWith(ctx.db, record.id, session.id, MAX_LISTED_SESSIONS).slice(0, MAX_LISTED_SESSIONS);
    activateIn(ctx, session, record, tick);
    if (!started) touchSession(ctx.db, session.id, ctx.nowMs);
    const changedSinceLoad = previous !== undefined && previous.loaded_version !== record.version;
    logActivity(ctx, {
      at_tick: tick,
      type: "activation",
      session_id: session.id,
      record_id: record.id,
      summary: `${record.id} activated in ${session.id}${previous ? " (again)" : ""}`,
      details: {
        already_loaded: previous !== undefined,
        ...(previous ? { changed_since_load: changedSinceLoad, loaded_version: previous.loaded_version } : {}),
        version: record.version,
        ...(args.override ? { override: true } : {}),
      },
    });
    const listed = others.map((other) => ({
      session_id: other.id,
      agent_id: other.agent_id,
      last_activity: iso(other.last_activity_at_ms),
    }));
    if (others.length > 0) {
      logActivity(ctx, {
        at_tick: tick,
        type: "conflict_detected",
        session_id: session.id,
        record_id: record.id,
        summary: `${record.id} activated in ${session.id} while active in ${listed.map((other) => other.session_id).join(", ")}`,
        details: { command: "activate", sessions: listed.map((other) => other.session_id), override: args.override },
      });
    }

    // Only the last activity moved since the session was read (activateIn writes the activation only).
    const current: SessionRow = { ...session, last_activity_at_ms: ctx.nowMs };
    const context = contextOf(
      ctx,
      record,
      (parent) => bundleWarnings(record, parent, current, tick, others),
      args.max_chars ?? DEFAULT_BUNDLE_CHARS,
    );
    const first = listed[0];
    return {
      session_id: session.id,
      session_started: started,
      session_resumed: resumed,
      session_status: sessionStatus(current, tick),
      context,
      already_loaded: previous !== undefined,
      ...(previous ? { changed_since_load: changedSinceLoad, loaded_version: previous.loaded_version } : {}),
      ...(first
        ? {
            conflict: {
              ...first,
              message: `${record.id} is active in another open session (${listed.map((other) => `${other.session_id} of ${other.agent_id}`).join(", ")}). It was activated anyway: warn the user before changing it; concurrent updates are reported as conflicts.`,
              sessions: listed,
            },
          }
        : {}),
      // A session this call started has this record active, and nothing else.
      active_records: started ? [record.id] : activeRecordIds(ctx.db, session.id, MAX_ACTIVE_RECORDS),
      project_tick: tick,
    };
  },
});

/**
 * The context bundle of `record`: from the OPEN children's refs alone when those already overflow the
 * budget (one small read; see `bundleOfOverflowingRefs`), else from every row the bundle may show.
 */
function contextOf(
  ctx: CommandContext,
  record: RecordRow,
  warningsOf: (parent: RecordRow | null) => BundleWarning[],
  maxChars: number,
): ContextBundle {
  const frameOf = (rows: BundleRows): BundleFrame => ({
    target: toRecord(record),
    parent: rows.parent ? toRecord(rows.parent) : null,
    openChildrenTotal: record.open_children_count,
    otherChildrenTotal: record.children_count - record.open_children_count,
    grandchildrenTotal: Math.max(rows.grandTotal, rows.grandRows),
    warnings: warningsOf(rows.parent ?? null),
    maxChars,
  });
  if (record.open_children_count > 0) {
    const refs = bundleRowsOf(ctx.db, record, MAX_BUNDLE_CHILDREN, MAX_BUNDLE_GRANDCHILDREN, true);
    const bundle = bundleOfOverflowingRefs({ ...frameOf(refs), openChildRefs: refs.openRefs.map(toRef) });
    if (bundle !== undefined) return bundle;
  }
  const rows = bundleRowsOf(ctx.db, record, MAX_BUNDLE_CHILDREN, MAX_BUNDLE_GRANDCHILDREN, false);
  return buildBundle({
    ...frameOf(rows),
    openChildren: rows.open.map(toRecord),
    otherChildren: rows.other.map(toRef),
    grandchildren: rows.grand.map(toRef),
  });
}

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
  description: `Pull what other sessions changed since this session last synced: each change with record_id, change_type (created, modified, state_changed), old and new values, by_session and at_tick, oldest first, at most limit (default ${DEFAULT_SYNC_CHANGES}). Moves the session's last_sync_tick to the last tick it covered: with has_more, call again for the rest. Reports tick_gap and whether the session is stale. Does not advance the project tick.`,
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
    session_status: z.enum(["active", "stale"]),
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
    const status = sessionStatus({ ...session, last_sync_tick: synced }, tick) === "stale" ? ("stale" as const) : ("active" as const);
    return {
      session_id: session.id,
      project_tick: tick,
      session_tick_before: before,
      tick_gap: gap,
      last_sync_tick: synced,
      changes: shown.map((row) => toChange(row, active)),
      has_more: hasMore,
      session_status: status,
      ...(gap > session.stale_after_ticks
        ? { warning: `${gap} writes occurred since your last sync (stale threshold ${session.stale_after_ticks}).` }
        : {}),
    };
  },
});
