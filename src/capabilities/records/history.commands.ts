/**
 * History and activity reads (seed 004 "History and Conflict Commands", "Activity Log"):
 * `records.history` (get_record_history: a record's versions newest first, with unified diffs of
 * body changes), `records.diff` (get_record_diff: two versions named by version, tick, timestamp or
 * last_save, field by field), `records.sessions` (get_active_sessions: who has a record active) and
 * `records.activity` (get_recent_activity: the project's log, filtered, newest first, paged).
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { defineCommand } from "../../commands/registry";
import { fail } from "../../shared/errors";
import { topPageBudget } from "../../shared/top-page";
import { listActivity } from "./activity.store";
import { cutDiff, unifiedDiff } from "./diff";
import {
  ACTIVITY_TYPES,
  activityEntrySchema,
  DEFAULT_ACTIVITY,
  DEFAULT_HISTORY,
  iso,
  MAX_ACTIVITY,
  MAX_HISTORY,
  MAX_HISTORY_DIFF_CHARS,
  MAX_LISTED_SESSIONS,
  projectIdField,
  type RecordView,
  recordIdSchema,
  recordSchema,
  sessionIdField,
  stateSchema,
} from "./records.schema";
import { type RecordRow, requireRecord, toRecord, versionRecord } from "./records.store";
import { findVersion, type VersionRow, versionAsOf, versionBody, versionsOf } from "./records-versions.store";
import { noOpenSession, projectTick, selectSession, sessionStatus } from "./session-select";
import { countActive, openSessions, type SessionRow, sessionsWith } from "./sessions.store";
import { parseVersionSpec } from "./version-spec";

/** A wall-clock filter given as an ISO timestamp; anything else is INVALID_INPUT. */
function sinceMs(since: string | undefined): number | undefined {
  if (since === undefined) return undefined;
  const ms = Date.parse(since);
  if (!Number.isFinite(ms)) {
    fail("INVALID_INPUT", `since "${since}" is not an ISO timestamp.`, "Pass a timestamp like 2025-01-31T12:00:00Z.", { field: "since" });
  }
  return ms;
}

const historyEntrySchema = z.object({
  version: z.number(),
  at_tick: z.number(),
  timestamp: z.string(),
  session_id: z.string(),
  agent_id: z.string(),
  change_type: z.enum(["created", "modified", "state_changed"]),
  summary: z.string(),
  state: stateSchema,
  reason: z.string().optional(),
  forced: z.boolean().optional().describe("Applied with force over another session's change."),
  diff: z.string().optional().describe("Unified diff of the body against the previous version."),
  diff_truncated: z.boolean().optional(),
});

export const recordsHistory = defineCommand({
  name: "records.history",
  tool: "get_record_history",
  title: "Record history",
  description: `A record's versions, newest first: when (timestamp, at_tick), which session and agent, change_type (created, modified, state_changed), a summary, the transition reason, and a unified diff of the body for body changes (cut at ${MAX_HISTORY_DIFF_CHARS} characters; get_record_diff shows it whole). since: only versions at or after an ISO timestamp. Paged with cursor = next_cursor (a version).`,
  kind: "read",
  example: { id: "R001" },
  input: {
    id: recordIdSchema,
    since: z.string().max(64).optional().describe("ISO timestamp: only versions written at or after it."),
    limit: z.number().int().min(1).max(MAX_HISTORY).default(DEFAULT_HISTORY),
    cursor: z.number().int().positive().optional().describe("Show versions below this one (from next_cursor)."),
    ...projectIdField,
  },
  output: { id: z.string(), history: z.array(historyEntrySchema), has_more: z.boolean(), next_cursor: z.number().optional() },
  budget: topPageBudget("history", "version", ["at_tick", "change_type", "session_id"]),
  handler: (ctx, args) => {
    const record = requireRecord(ctx.db, args.id);
    const rows = versionsOf(ctx.db, record.id, { beforeVersion: args.cursor, sinceMs: sinceMs(args.since), limit: args.limit });
    const shown = rows.slice(0, args.limit);
    const hasMore = rows.length > args.limit;
    const bodies = new Map(rows.map((row) => [row.version, row.body]));
    const history = shown.map((row) => {
      const entry: z.input<typeof historyEntrySchema> = {
        version: row.version,
        at_tick: row.tick,
        timestamp: iso(row.ts_ms),
        session_id: row.session_id,
        agent_id: row.agent_id,
        change_type: row.change_type,
        summary: row.change_summary,
        state: row.state,
      };
      if (row.change_type !== "modified" && row.state_reason !== null) entry.reason = row.state_reason;
      if (row.forced === 1) entry.forced = true;
      if (row.change_type === "modified" && row.version > 1) {
        const before = bodies.get(row.version - 1) ?? versionBody(ctx.db, record.id, row.version - 1) ?? "";
        const diff = unifiedDiff(before, row.body, { from: `${record.id}@v${row.version - 1}`, to: `${record.id}@v${row.version}` });
        if (diff !== "") {
          const cut = cutDiff(diff, MAX_HISTORY_DIFF_CHARS);
          entry.diff = cut.text;
          if (cut.truncated) entry.diff_truncated = true;
        }
      }
      return entry;
    });
    return {
      id: record.id,
      history,
      has_more: hasMore,
      ...(hasMore ? { next_cursor: (shown[shown.length - 1] as VersionRow).version } : {}),
    };
  },
});

/** One side of a diff: the record as it was, and how it was named. */
function resolveSide(ctx: CommandContext, record: RecordRow, text: string, sessionId: string | undefined, field: string): RecordView {
  const spec = parseVersionSpec(text);
  if (!spec) {
    fail(
      "INVALID_INPUT",
      `${field} "${text}" names no version.`,
      "Use current, last_save, v<N> (a version), tick:<N> (as of a project tick) or an ISO timestamp.",
      { field, given: text },
    );
  }
  if (spec.kind === "current") return toRecord(record);
  let version: VersionRow | undefined;
  let what: string;
  if (spec.kind === "version") {
    version = findVersion(ctx.db, record.id, spec.version);
    what = `version ${spec.version} (it has versions 1 to ${record.version})`;
  } else if (spec.kind === "tick") {
    version = versionAsOf(ctx.db, record.id, { tick: spec.tick });
    what = `tick ${spec.tick} (it was created at tick ${record.created_tick})`;
  } else if (spec.kind === "time") {
    version = versionAsOf(ctx.db, record.id, { ts_ms: spec.ts_ms });
    what = `${iso(spec.ts_ms)} (it was created at ${iso(record.created_at_ms)})`;
  } else {
    const session: SessionRow = selectSession(ctx, sessionId, () => noOpenSession(ctx));
    const tick = session.last_save_tick ?? session.created_tick;
    version = versionAsOf(ctx.db, record.id, { tick });
    what = `the last save of ${session.id} (tick ${tick}; the record was created at tick ${record.created_tick})`;
  }
  if (!version) {
    fail("INVALID_INPUT", `${record.id} has no version at ${what}.`, "Pick a later point, or v1 for the first version.", {
      field,
      given: text,
    });
  }
  return versionRecord(record, version);
}

/**
 * Shares of the room the small fields leave in the read budget: each body of from/to, and the body
 * diff. The bodies are cut after the small fields are measured, so the answer fits its budget whenever
 * the small fields do (the budget ladder never has to drop it to the minimal answer).
 */
const BODY_SHARE = 0.25;
const DIFF_SHARE = 0.5;
/** Characters kept for what the budget adds around the answer (`truncated` flags, a warning). */
const DIFF_ANSWER_SLACK = 400;
/** JSON escaping can grow a text: a cut body is measured at this many characters per character. */
const ESCAPE_FACTOR = 1.25;

export const recordsDiff = defineCommand({
  name: "records.diff",
  tool: "get_record_diff",
  title: "Compare record versions",
  description:
    'Compare two versions of a record: from (required) and to (default current), each "current", "last_save" (your session\'s last save_session), "v<N>" (a version), "tick:<N>" (as of a project tick) or an ISO timestamp. Returns both versions and the diff: title, summary, type, state, resolved_by, related, metadata as {old, new}, and body as a unified diff.',
  kind: "read",
  example: { id: "R001", from: "v1" },
  input: {
    id: recordIdSchema,
    from: z.string().min(1).max(64),
    to: z.string().min(1).max(64).default("current"),
    ...sessionIdField,
    ...projectIdField,
  },
  output: {
    id: z.string(),
    from_version: recordSchema,
    to_version: recordSchema,
    changed: z.boolean(),
    diff: z.object({
      title: z.object({ old: z.string(), new: z.string() }).optional(),
      summary: z.object({ old: z.string(), new: z.string() }).optional(),
      type: z.object({ old: z.string(), new: z.string() }).optional(),
      state: z.object({ old: stateSchema, new: stateSchema }).optional(),
      resolved_by: z.object({ old: z.string().nullable(), new: z.string().nullable() }).optional(),
      related: z.object({ old: z.array(z.string()), new: z.array(z.string()) }).optional(),
      metadata: z.object({ old: z.unknown(), new: z.unknown() }).optional(),
      body: z.string().optional(),
    }),
    truncated: z
      .object({ from_body: z.boolean(), to_body: z.boolean(), diff: z.boolean() })
      .optional()
      .describe("Bodies and the body diff are cut to fit the read budget."),
  },
  handler: (ctx, args) => {
    const record = requireRecord(ctx.db, args.id);
    const from = resolveSide(ctx, record, args.from, args.session_id, "from");
    const to = resolveSide(ctx, record, args.to, args.session_id, "to");
    const diff: Record<string, unknown> = {};
    for (const field of ["title", "summary", "type", "state"] as const) {
      if (from[field] !== to[field]) diff[field] = { old: from[field], new: to[field] };
    }
    if ((from.resolved_by ?? null) !== (to.resolved_by ?? null))
      diff.resolved_by = { old: from.resolved_by ?? null, new: to.resolved_by ?? null };
    if (JSON.stringify(from.related) !== JSON.stringify(to.related)) diff.related = { old: from.related, new: to.related };
    if (JSON.stringify(from.metadata ?? null) !== JSON.stringify(to.metadata ?? null)) {
      diff.metadata = { old: from.metadata ?? null, new: to.metadata ?? null };
    }
    const budget = ctx.readLimitChars ?? 20_000;
    const body = unifiedDiff(from.body, to.body, { from: `${record.id}@v${from.version}`, to: `${record.id}@v${to.version}` });
    const small = {
      id: record.id,
      from_version: { ...from, body: "" },
      to_version: { ...to, body: "" },
      changed: Object.keys(diff).length > 0 || body !== "",
      diff,
    };
    const room = Math.max(0, budget - JSON.stringify(small).length - DIFF_ANSWER_SLACK) / ESCAPE_FACTOR;
    const cutBody = cutDiff(body, Math.floor(room * DIFF_SHARE));
    if (body !== "") diff.body = cutBody.text;
    const bodyCap = Math.floor(room * BODY_SHARE);
    const truncated = { from_body: from.body.length > bodyCap, to_body: to.body.length > bodyCap, diff: cutBody.truncated };
    return {
      ...small,
      from_version: { ...from, body: from.body.slice(0, bodyCap) },
      to_version: { ...to, body: to.body.slice(0, bodyCap) },
      changed: Object.keys(diff).length > 0,
      diff,
      ...(truncated.from_body || truncated.to_body || truncated.diff ? { truncated } : {}),
    };
  },
});

const activeSessionSchema = z.object({
  session_id: z.string(),
  agent_id: z.string(),
  status: z.enum(["active", "stale"]),
  last_activity: z.string(),
  last_sync_tick: z.number(),
  tick_gap: z.number(),
  active_records_count: z.number(),
  is_current: z.boolean().describe("Yours: the session you named, or any of yours when you named none."),
});

export const recordsSessions = defineCommand({
  name: "records.sessions",
  tool: "get_active_sessions",
  title: "Active sessions",
  description: `The open sessions that have a record active (record_id), or every open session of the project (no record_id): agent, last activity, last sync tick, tick gap, stale or active, and is_current for yours. At most ${MAX_LISTED_SESSIONS}.`,
  kind: "read",
  input: {
    record_id: recordIdSchema.optional(),
    ...sessionIdField,
    ...projectIdField,
  },
  output: { record_id: z.string().optional(), sessions: z.array(activeSessionSchema), has_more: z.boolean() },
  budget: { lists: ["sessions"], keep: ["session_id", "agent_id", "is_current"], trimFromEnd: true },
  handler: (ctx, args) => {
    const tick = projectTick(ctx);
    const rows =
      args.record_id === undefined
        ? openSessions(ctx.db, MAX_LISTED_SESSIONS)
        : sessionsWith(ctx.db, requireRecord(ctx.db, args.record_id).id, null, MAX_LISTED_SESSIONS);
    const shown = rows.slice(0, MAX_LISTED_SESSIONS);
    return {
      ...(args.record_id === undefined ? {} : { record_id: args.record_id }),
      sessions: shown.map((row) => ({
        session_id: row.id,
        agent_id: row.agent_id,
        status: sessionStatus(row, tick) === "stale" ? ("stale" as const) : ("active" as const),
        last_activity: iso(row.last_activity_at_ms),
        last_sync_tick: row.last_sync_tick,
        tick_gap: tick - row.last_sync_tick,
        active_records_count: countActive(ctx.db, row.id),
        is_current: row.agent_id === ctx.principal.agent_id && (args.session_id === undefined || args.session_id === row.id),
      })),
      has_more: rows.length > MAX_LISTED_SESSIONS,
    };
  },
});

export const recordsActivity = defineCommand({
  name: "records.activity",
  tool: "get_recent_activity",
  title: "Recent activity",
  description: `The project's activity log, newest first: record_created, record_updated, state_transition, session_started, session_saved, session_closed, session_branched, session_synced, activation, conflict_detected, conflict_resolved — each with timestamp, at_tick, session, agent, record and summary. Filters: types, record_id, since (ISO timestamp) or since_tick. At most limit (default ${DEFAULT_ACTIVITY}); older with cursor = next_cursor.`,
  kind: "read",
  input: {
    limit: z.number().int().min(1).max(MAX_ACTIVITY).default(DEFAULT_ACTIVITY),
    since: z.string().max(64).optional().describe("ISO timestamp: only entries at or after it."),
    since_tick: z.number().int().min(0).optional().describe("Only entries after this project tick."),
    types: z.array(z.enum(ACTIVITY_TYPES)).max(ACTIVITY_TYPES.length).optional(),
    record_id: recordIdSchema.optional(),
    cursor: z.number().int().positive().optional().describe("Show entries older than this id (from next_cursor)."),
    ...projectIdField,
  },
  output: { activity: z.array(activityEntrySchema), has_more: z.boolean(), next_cursor: z.number().optional() },
  budget: topPageBudget("activity", "id", ["type", "at_tick", "record_id"]),
  handler: (ctx, args) => {
    const rows = listActivity(
      ctx.db,
      { types: args.types, record_id: args.record_id, since_ms: sinceMs(args.since), since_tick: args.since_tick, before_id: args.cursor },
      args.limit,
    );
    const shown = rows.slice(0, args.limit);
    const hasMore = rows.length > args.limit;
    return { activity: shown, has_more: hasMore, ...(hasMore ? { next_cursor: shown[shown.length - 1]?.id as number } : {}) };
  },
});
