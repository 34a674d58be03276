/**
 * Record mutations (seed 004 "Mutation Commands"): `records.create` (create_record: a root, or a child
 * of a record active in the session; auto-activated), `records.update` (update_record: content of an
 * active record; a change by another session inside the conflict window is reported, not written,
 * unless force) and `records.transition` (the workflow state machine; cascade warning, no cascade).
 * Each applied call advances the project tick once and stores one version.
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { fail } from "../../shared/errors";
import { suggest } from "../../shared/suggestion";
import { checkNewRecord, checkRelated, metadataJson, refuseTransition, writeNewRecord } from "./new-record";
import {
  activateIn,
  advanceProjectTick,
  conflictOf,
  ensureRoom,
  logActivity,
  quote,
  requireActivation,
  storeVersion,
} from "./record-writes";
import {
  DEFAULT_STALE_AFTER_TICKS,
  MAX_CASCADE_REFS,
  MAX_RECORD_DEPTH,
  metadataSchema,
  projectIdField,
  reasonSchema,
  recordBodySchema,
  recordIdSchema,
  recordRefSchema,
  recordSchema,
  recordSummarySchema,
  recordTitleSchema,
  recordTypeSchema,
  relatedSchema,
  sessionIdField,
  staleAfterField,
  stateSchema,
} from "./records.schema";
import {
  adjustChildCounts,
  nextRecordNum,
  openChildRefs,
  type RecordRow,
  recordIdOf,
  requireRecord,
  saveRecord,
  toRecord,
  toRef,
} from "./records.store";
import { projectTick, selectSession, startSession } from "./session-select";
import { findActivation, moveWindow, type SessionRow } from "./sessions.store";
import { checkTransition } from "./transitions";

export const recordsCreate = defineCommand({
  name: "records.create",
  tool: "create_record",
  title: "Create a record",
  description: `Create a record: a root (parent_id null) or a child of a record active in your session. Free-form type (question, conclusion, note…), title, 1-2 sentence summary, self-explaining body; state OPEN by default (LATER or DISCARDED need reason, RESOLVED needs resolved_by). Ids are R001, R002, …. The new record is auto-activated; without an open session, one is started (its id is returned). Hierarchy depth is at most ${MAX_RECORD_DEPTH}. Advances the project tick.`,
  kind: "write",
  example: { parent_id: null, type: "question", title: "Which storage engine?", summary: "Pick the storage for v2.", body: "We need…" },
  input: {
    parent_id: recordIdSchema.nullable().default(null).describe("The parent (active in your session), or null for a root."),
    type: recordTypeSchema,
    title: recordTitleSchema,
    summary: recordSummarySchema,
    body: recordBodySchema,
    state: stateSchema.default("OPEN"),
    reason: reasonSchema.optional().describe("Why, for an initial LATER or DISCARDED."),
    resolved_by: recordIdSchema.optional().describe("For an initial RESOLVED: the record that resolved it."),
    related: relatedSchema.optional(),
    metadata: metadataSchema.optional(),
    ...sessionIdField,
    ...staleAfterField,
    ...projectIdField,
  },
  output: {
    record: recordSchema,
    auto_activated: z.boolean(),
    session_id: z.string(),
    session_started: z.boolean(),
    project_tick: z.number(),
  },
  handler: (ctx, args) => {
    const parent = args.parent_id === null ? null : requireRecord(ctx.db, args.parent_id, "parent_id");
    let started = false;
    const session = selectSession(ctx, args.session_id, () => {
      if (parent) {
        return fail(
          "PARENT_NOT_ACTIVATED",
          `${parent.id} is not active: you have no open session.`,
          `Activate ${parent.id} first (activate starts a session), then create the child in that session.`,
          { parent_id: parent.id },
          [suggest("activate", { id: parent.id }, `Load ${parent.id} and start a session.`)],
        );
      }
      started = true;
      return startSession(ctx, { stale_after_ticks: args.stale_after_ticks ?? DEFAULT_STALE_AFTER_TICKS });
    });
    if (parent && !findActivation(ctx.db, session.id, parent.id)) {
      fail(
        "PARENT_NOT_ACTIVATED",
        `${parent.id} is not active in session ${session.id}.`,
        `Activate ${parent.id} in this session first (it loads the parent's context), then create the child.`,
        { parent_id: parent.id, session_id: session.id },
        [suggest("activate", { id: parent.id, session_id: session.id }, `Load ${parent.id} into ${session.id}.`)],
      );
    }
    const checked = checkNewRecord(ctx, parent, args);
    ensureRoom(ctx, session, "");

    const num = nextRecordNum(ctx.db);
    const id = recordIdOf(num);
    const tick = advanceProjectTick(ctx, session, { target: id, summary: `record created: ${quote(args.title)}` });
    const row = writeNewRecord(ctx, args, checked, parent, { num, tick, session_id: session.id });
    activateIn(ctx, session, row, tick);
    return { record: toRecord(row), auto_activated: true, session_id: session.id, session_started: started, project_tick: tick };
  },
});

/** The fields an update may change, compared with the stored record. */
const UPDATABLE = ["type", "title", "summary", "body", "related", "metadata"] as const;

export const recordsUpdate = defineCommand({
  name: "records.update",
  tool: "update_record",
  title: "Update a record",
  description:
    "Change an active record's title, summary, body, type, related or metadata (only the fields given). If another session modified the record after your activation or last sync, nothing is written and the answer carries conflict {message, other_version}: show both versions, then call again with force: true to apply yours. An update that changes nothing writes nothing. Advances the project tick when applied.",
  kind: "write",
  example: { id: "R001", body: "Revised reasoning…" },
  input: {
    id: recordIdSchema,
    type: recordTypeSchema.optional(),
    title: recordTitleSchema.optional(),
    summary: recordSummarySchema.optional(),
    body: recordBodySchema.optional(),
    related: relatedSchema.optional().describe("Replaces the related ids."),
    metadata: metadataSchema.nullable().optional().describe("Replaces the metadata; null removes it."),
    force: z.boolean().default(false).describe("Apply even though another session changed the record (after a conflict answer)."),
    ...sessionIdField,
    ...projectIdField,
  },
  output: {
    record: recordSchema.describe("The record as stored after the call (unchanged when not applied)."),
    applied: z.boolean().describe("False when nothing was written: a conflict, or no field changed."),
    changed_fields: z.array(z.string()),
    conflict: z
      .object({
        message: z.string(),
        other_version: recordSchema,
        by_session: z.string(),
        modified_tick: z.number(),
        window_start_tick: z.number(),
      })
      .optional(),
    conflict_overridden: z.object({ by_session: z.string(), overridden_version: z.number() }).optional(),
    session_id: z.string(),
    project_tick: z.number(),
  },
  handler: (ctx, args) => {
    const record = requireRecord(ctx.db, args.id);
    const session = selectSession(ctx, args.session_id, () => notActivatedNoSession(record.id));
    const activation = requireActivation(ctx, session, record);
    const related = checkRelated(ctx, args.related, record.id);
    const metadata = args.metadata === null ? null : metadataJson(args.metadata ?? undefined);
    const next: RecordRow = {
      ...record,
      type: args.type ?? record.type,
      title: args.title ?? record.title,
      summary: args.summary ?? record.summary,
      body: args.body ?? record.body,
      related_json: related === undefined ? record.related_json : JSON.stringify(related),
      metadata_json: args.metadata === undefined ? record.metadata_json : (metadata ?? null),
    };
    const changed = UPDATABLE.filter((field) => {
      if (field === "related") return next.related_json !== record.related_json;
      if (field === "metadata") return next.metadata_json !== record.metadata_json;
      return next[field] !== record[field];
    });
    const tickNow = projectTick(ctx);
    if (changed.length === 0) {
      return { record: toRecord(record), applied: false, changed_fields: [], session_id: session.id, project_tick: tickNow };
    }
    const conflict = conflictOf(record, session, activation);
    if (conflict && !args.force) {
      logActivity(ctx, {
        at_tick: tickNow,
        type: "conflict_detected",
        session_id: session.id,
        record_id: record.id,
        summary: `${record.id}: update by ${session.id} conflicts with ${conflict.by_session}'s change at tick ${conflict.modified_tick}`,
        details: { command: "update_record", ...conflict, fields: changed },
      });
      const view = toRecord(record);
      return {
        record: view,
        applied: false,
        changed_fields: [],
        conflict: {
          message: `${record.id} was modified by session ${conflict.by_session} at tick ${conflict.modified_tick}, after your session loaded it (tick ${conflict.window_start_tick}). Nothing was written. Compare other_version with your change, then call update_record again with force: true to apply it.`,
          other_version: view,
          ...conflict,
        },
        session_id: session.id,
        project_tick: tickNow,
      };
    }
    const tick = advanceProjectTick(ctx, session, { target: record.id, summary: `record updated: ${changed.join(", ")}` });
    const row: RecordRow = {
      ...next,
      version: record.version + 1,
      modified_tick: tick,
      modified_by_session: session.id,
      modified_at_ms: ctx.nowMs,
    };
    saveRecord(ctx.db, record, row);
    storeVersion(ctx, row, session, tick, { type: "modified", summary: `changed ${changed.join(", ")}`, forced: conflict !== undefined });
    moveWindow(ctx.db, session.id, record.id, row.version, tick);
    logActivity(ctx, {
      at_tick: tick,
      type: "record_updated",
      session_id: session.id,
      record_id: record.id,
      summary: `${record.id} updated: ${changed.join(", ")}`,
      details: { fields: changed, version: row.version, ...(conflict ? { forced: true } : {}) },
    });
    if (conflict) {
      logActivity(ctx, {
        at_tick: tick,
        type: "conflict_resolved",
        session_id: session.id,
        record_id: record.id,
        summary: `${record.id}: ${session.id} forced its version over ${conflict.by_session}'s`,
        details: { command: "update_record", ...conflict, overridden_version: record.version, version: row.version },
      });
    }
    return {
      record: toRecord(row),
      applied: true,
      changed_fields: [...changed],
      ...(conflict ? { conflict_overridden: { by_session: conflict.by_session, overridden_version: record.version } } : {}),
      session_id: session.id,
      project_tick: tick,
    };
  },
});

/** Updates and transitions need the record active; with no open session at all, that is NOT_ACTIVATED too. */
function notActivatedNoSession(id: string): SessionRow {
  return fail(
    "NOT_ACTIVATED",
    `${id} is not active: you have no open session.`,
    `Call activate on ${id} first (it starts a session), then retry with that session_id.`,
    { record_id: id },
    [suggest("activate", { id }, `Load ${id} and start a session.`)],
  );
}

export const recordsTransition = defineCommand({
  name: "records.transition",
  tool: "transition",
  title: "Change a record's state",
  description:
    "Move an active record through its workflow: OPEN → LATER (reason), OPEN → RESOLVED (resolved_by: an existing record), OPEN → DISCARDED (reason), LATER → OPEN, LATER → DISCARDED (reason), RESOLVED → OPEN (reopening clears resolved_by), DISCARDED → OPEN. Anything else is INVALID_TRANSITION. Children are never changed: leaving OPEN with OPEN children returns cascade_warning. A record another session changed since you loaded it is CONFLICT unless force. Advances the project tick.",
  kind: "write",
  example: { id: "R002", to_state: "LATER", reason: "Blocked on the storage decision" },
  input: {
    id: recordIdSchema,
    to_state: stateSchema,
    reason: reasonSchema.optional().describe("Required for LATER and DISCARDED; kept in the history."),
    resolved_by: recordIdSchema.optional().describe("Required for RESOLVED: the record that resolved this one."),
    force: z.boolean().default(false).describe("Apply even though another session changed the record since you loaded it."),
    ...sessionIdField,
    ...projectIdField,
  },
  output: {
    record: recordSchema,
    from_state: stateSchema,
    cascade_warning: z.object({ open_children: z.array(recordRefSchema), open_children_count: z.number(), message: z.string() }).optional(),
    session_id: z.string(),
    project_tick: z.number(),
  },
  handler: (ctx, args) => {
    const record = requireRecord(ctx.db, args.id);
    const session = selectSession(ctx, args.session_id, () => notActivatedNoSession(record.id));
    const activation = requireActivation(ctx, session, record);
    const check = checkTransition(record.state, args.to_state, { reason: args.reason, resolved_by: args.resolved_by });
    if (!check.ok) refuseTransition(record.id, record.state, args.to_state, check);
    if (args.resolved_by !== undefined) {
      if (args.resolved_by === record.id) {
        fail("INVALID_TRANSITION", `${record.id} cannot resolve itself.`, "Name the record that holds the resolution (a conclusion).", {
          id: record.id,
          resolved_by: args.resolved_by,
        });
      }
      requireRecord(ctx.db, args.resolved_by, "resolved_by");
    }
    const conflict = conflictOf(record, session, activation);
    if (conflict && !args.force) {
      fail(
        "CONFLICT",
        `${record.id} was modified by session ${conflict.by_session} at tick ${conflict.modified_tick}, after your session loaded it (tick ${conflict.window_start_tick}); it is now ${record.state}.`,
        "Sync and resolve: activate the record again to load its current version, or pass force: true to apply the transition anyway.",
        { id: record.id, state: record.state, ...conflict },
        [suggest("activate", { id: record.id, session_id: session.id }, `Reload ${record.id}'s current version.`)],
      );
    }
    const tick = advanceProjectTick(ctx, session, { target: record.id, summary: `state ${record.state} → ${args.to_state}` });
    const row: RecordRow = {
      ...record,
      state: args.to_state,
      state_reason: check.ok ? check.state_reason : null,
      resolved_by: check.ok ? check.resolved_by : null,
      version: record.version + 1,
      modified_tick: tick,
      modified_by_session: session.id,
      modified_at_ms: ctx.nowMs,
    };
    saveRecord(ctx.db, record, row);
    storeVersion(ctx, row, session, tick, {
      type: "state_changed",
      summary: `${record.state} → ${args.to_state}`,
      reason: args.reason,
      forced: conflict !== undefined,
    });
    const wasOpen = record.state === "OPEN";
    const isOpen = args.to_state === "OPEN";
    if (record.parent_id !== null && wasOpen !== isOpen) adjustChildCounts(ctx.db, record.parent_id, 0, isOpen ? 1 : -1);
    moveWindow(ctx.db, session.id, record.id, row.version, tick);
    logActivity(ctx, {
      at_tick: tick,
      type: "state_transition",
      session_id: session.id,
      record_id: record.id,
      summary: `${record.id} ${record.state} → ${args.to_state}${args.reason ? `: ${quote(args.reason)}` : ""}`,
      details: {
        from: record.state,
        to: args.to_state,
        ...(args.reason ? { reason: args.reason } : {}),
        ...(row.resolved_by ? { resolved_by: row.resolved_by } : {}),
        ...(conflict ? { forced: true } : {}),
      },
    });
    if (conflict) {
      logActivity(ctx, {
        at_tick: tick,
        type: "conflict_resolved",
        session_id: session.id,
        record_id: record.id,
        summary: `${record.id}: ${session.id} forced a transition over ${conflict.by_session}'s change`,
        details: { command: "transition", ...conflict, overridden_version: record.version, version: row.version },
      });
    }
    const answer = { record: toRecord(row), from_state: record.state, session_id: session.id, project_tick: tick };
    if (isOpen || record.open_children_count === 0) return answer;
    const open = openChildRefs(ctx.db, record.id, MAX_CASCADE_REFS).map(toRef);
    return {
      ...answer,
      cascade_warning: {
        open_children: open,
        open_children_count: record.open_children_count,
        message: `${record.id} is now ${args.to_state} but has ${record.open_children_count} OPEN children; they were not changed. Transition them if they are settled too.`,
      },
    };
  },
});
