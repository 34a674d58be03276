import type { CommandContext } from "../../commands/context";
import { fail } from "../../shared/errors";
import { utf8Bytes } from "../../shared/json";
import { logActivity, quote, storeVersion } from "./record-writes";
import { MAX_RECORD_DEPTH, MAX_RECORD_META_BYTES, type RecordState } from "./records.schema";
import { adjustChildCounts, childPath, insertRecord, missingIds, type RecordRow, recordIdOf, requireRecord } from "./records.store";
import { checkInitialState, type TransitionCheck } from "./transitions";

/** The related ids, deduplicated in the order given; each must name a record (and not the record itself). */
export function checkRelated(ctx: CommandContext, related: string[] | undefined, self: string | undefined): string[] | undefined {
  if (related === undefined) return undefined;
  const ids = [...new Set(related)];
  if (self !== undefined && ids.includes(self)) {
    fail("INVALID_INPUT", `${self} cannot be related to itself.`, "Remove the record's own id from related.", {
      id: self,
      field: "related",
    });
  }
  const missing = missingIds(ctx.db, ids);
  if (missing.length > 0) {
    fail(
      "RECORD_NOT_FOUND",
      `related names records that do not exist: ${missing.join(", ")}.`,
      "Relate only existing records; list_records or search_records show them.",
      { missing, field: "related" },
    );
  }
  return ids;
}

export function metadataJson(metadata: Record<string, unknown> | undefined): string | undefined {
  if (metadata === undefined) return undefined;
  const json = JSON.stringify(metadata);
  if (utf8Bytes(json) > MAX_RECORD_META_BYTES) {
    fail(
      "PAYLOAD_TOO_LARGE",
      `metadata is larger than ${MAX_RECORD_META_BYTES} bytes.`,
      "Keep metadata small; put long text in the body.",
      {
        max_bytes: MAX_RECORD_META_BYTES,
      },
    );
  }
  return json;
}

/** Turns a refused state change into INVALID_TRANSITION with the allowed moves. */
export function refuseTransition(id: string, from: string, to: string, check: Extract<TransitionCheck, { ok: false }>): never {
  const why = {
    not_allowed: `${id} cannot move from ${from} to ${to}.`,
    reason_required: `Moving ${id} to ${to} needs a reason (it is kept in the history).`,
    resolved_by_required: `Moving ${id} to RESOLVED needs resolved_by: the record that resolved it.`,
    resolved_by_not_allowed: `resolved_by is only for RESOLVED, not ${to}.`,
  }[check.problem];
  return fail(
    "INVALID_TRANSITION",
    why,
    check.problem === "not_allowed"
      ? `From ${from} the valid moves are: ${check.allowed.join(", ") || "none"}.`
      : check.problem === "resolved_by_not_allowed"
        ? "Drop resolved_by, or move to RESOLVED."
        : `Pass ${check.problem === "reason_required" ? "reason" : "resolved_by"}.`,
    { id, from, to, allowed: check.allowed, problem: check.problem },
  );
}

/** The fields of a new record, as create_record and workspace_import's record op take them. */
export interface NewRecordFields {
  type: string;
  title: string;
  summary: string;
  body: string;
  state: RecordState;
  reason?: string | undefined;
  resolved_by?: string | undefined;
  related?: string[] | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** A new record's fields as checked: its depth, related ids (deduplicated), metadata JSON and initial state. */
export interface CheckedNewRecord {
  depth: number;
  related: string[];
  metadata_json: string | null;
  state_reason: string | null;
  resolved_by: string | null;
}

/**
 * What a new record must satisfy apart from its session (create_record and workspace_import alike):
 * the depth limit, existing related ids, metadata size, an allowed initial state with its reason or
 * resolved_by, and an existing resolved_by. Fails with the typed error of the first problem.
 */
export function checkNewRecord(ctx: CommandContext, parent: RecordRow | null, fields: NewRecordFields): CheckedNewRecord {
  const depth = parent ? parent.depth + 1 : 1;
  if (depth > MAX_RECORD_DEPTH) {
    fail(
      "DEPTH_EXCEEDED",
      `A child of ${parent?.id} would be at depth ${depth}; the hierarchy is at most ${MAX_RECORD_DEPTH} deep.`,
      "Consider flattening: create it under a higher ancestor, or as a root related to this one.",
      { parent_id: parent?.id, depth, max_depth: MAX_RECORD_DEPTH },
    );
  }
  const related = checkRelated(ctx, fields.related, undefined) ?? [];
  const metadata = metadataJson(fields.metadata) ?? null;
  const initial = checkInitialState(fields.state, { reason: fields.reason, resolved_by: fields.resolved_by });
  if (!initial.ok) refuseTransition("The new record", "(new)", fields.state, initial);
  if (fields.resolved_by !== undefined) requireRecord(ctx.db, fields.resolved_by, "resolved_by");
  return { depth, related, metadata_json: metadata, state_reason: initial.state_reason, resolved_by: initial.resolved_by };
}

/**
 * Writes a checked new record numbered `at.num` at project tick `at.tick` (already taken) by session
 * `at.session_id`: its row (the full-text trigger indexes it), version 1, the parent's child counters
 * and the `record_created` activity entry. create_record and workspace_import both write through here.
 */
export function writeNewRecord(
  ctx: CommandContext,
  fields: NewRecordFields,
  checked: CheckedNewRecord,
  parent: RecordRow | null,
  at: { num: number; tick: number; session_id: string },
): RecordRow {
  const id = recordIdOf(at.num);
  const row: RecordRow = {
    num: at.num,
    id,
    type: fields.type,
    title: fields.title,
    summary: fields.summary,
    body: fields.body,
    state: fields.state,
    state_reason: checked.state_reason,
    parent_id: parent?.id ?? null,
    path: childPath(parent?.path ?? null, at.num),
    depth: checked.depth,
    resolved_by: checked.resolved_by,
    related_json: JSON.stringify(checked.related),
    metadata_json: checked.metadata_json,
    version: 1,
    children_count: 0,
    open_children_count: 0,
    created_tick: at.tick,
    modified_tick: at.tick,
    modified_by_session: at.session_id,
    created_by: ctx.principal.agent_id,
    created_at_ms: ctx.nowMs,
    modified_at_ms: ctx.nowMs,
  };
  insertRecord(ctx.db, row);
  storeVersion(ctx, row, { id: at.session_id }, at.tick, { type: "created", summary: `created ${fields.state}`, reason: fields.reason });
  if (parent) adjustChildCounts(ctx.db, parent.id, 1, fields.state === "OPEN" ? 1 : 0);
  logActivity(ctx, {
    at_tick: at.tick,
    type: "record_created",
    session_id: at.session_id,
    record_id: id,
    summary: `${id} created (${fields.type}): ${quote(fields.title)}`,
    details: { type: fields.type, state: fields.state, parent_id: row.parent_id },
  });
  return row;
}
