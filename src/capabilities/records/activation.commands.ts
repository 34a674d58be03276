/**
 * Sync-down (seed 004 "Activation Commands"): `records.activate` (activate: load a record's context
 * bundle into a session — new, named, resumed or branched — with conflict, stale and orphan warnings;
 * `records.sync` is in sync.commands.ts). Session bookkeeping only: it is logged in the activity and
 * never advances the project tick, and a read-role token may call it.
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
  iso,
  MAX_ACTIVE_RECORDS,
  MAX_BUNDLE_CHARS,
  MAX_BUNDLE_CHILDREN,
  MAX_BUNDLE_GRANDCHILDREN,
  MAX_LISTED_SESSIONS,
  MIN_BUNDLE_CHARS,
  projectIdField,
  recordIdSchema,
  sessionIdField,
  sessionIdSchema,
  sessionStatusSchema,
  staleAfterField,
} from "./records.schema";
import { type BundleRows, bundleRowsOf, type RecordRow, requireRecord, toRecord, toRef } from "./records.store";
import { namedSession, projectTick, sessionStatus, startSession } from "./session-select";
import { activeRecordIds, findActivation, findSession, markReopened, type SessionRow, sessionsWith, touchSession } from "./sessions.store";

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
