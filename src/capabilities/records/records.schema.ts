/**
 * Zod shapes and bounds of the Record-Sync API (seed 004, docs/records.md): record and session ids,
 * workflow states, the fields agents write, and the shapes commands return (Record, RecordRef, the
 * context bundle, sessions, activity entries). Every bound carries its reason.
 */
import { z } from "zod";
import { MAX_META_BYTES, MAX_TITLE_CHARS } from "../../shared/limits";

export const RECORD_STATES = ["OPEN", "LATER", "RESOLVED", "DISCARDED"] as const;
export type RecordState = (typeof RECORD_STATES)[number];

/** Seed 004's activity types, plus `session_synced` (the issue logs sync_session in the activity). */
export const ACTIVITY_TYPES = [
  "record_created",
  "record_updated",
  "state_transition",
  "session_started",
  "session_saved",
  "session_closed",
  "session_branched",
  "session_synced",
  "activation",
  "conflict_detected",
  "conflict_resolved",
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

// ---- bounds -------------------------------------------------------------------------------------

/** A record type is a word chosen by the agent ("question", "conclusion", "note"): short. */
export const MAX_RECORD_TYPE_CHARS = 64;
/** Seed 004: "1-2 sentence summary for listings" — generous for two sentences, small in every ref. */
export const MAX_RECORD_SUMMARY_CHARS = 2_000;
/**
 * A body stands alone (seed 004) but a bundle carries the target and the parent in full: 32k
 * characters each leave room for children inside the largest bundle budget (80k), and keep a
 * record's every version (a whole snapshot per version) far below the 2 MB row cap.
 */
export const MAX_RECORD_BODY_CHARS = 32_768;
/** Related ids per record: a handful of cross-links, not a second hierarchy. */
export const MAX_RELATED = 50;
/** A transition reason or a session summary: a few sentences kept in the history. */
export const MAX_REASON_CHARS = 2_000;
/** Record metadata: the same bound as entry meta elsewhere. */
export const MAX_RECORD_META_BYTES = MAX_META_BYTES;
/**
 * Deepest level of the hierarchy (a root is level 1). Seed 004's DEPTH_EXCEEDED says "consider
 * flattening": 16 levels is far past any useful reasoning tree, and keeps the materialized path of a
 * record (9 characters per level) short and subtree ranges cheap.
 */
export const MAX_RECORD_DEPTH = 16;
/**
 * A session is stale when the project tick is more than this many writes past its last sync (seed 004
 * measures staleness in ticks). 20 record writes is a working session's worth of someone else's
 * changes: enough to have missed something, not so few that every save of a colleague trips it.
 * Configurable per session (`stale_after_ticks` when the session starts).
 */
export const DEFAULT_STALE_AFTER_TICKS = 20;
export const MAX_STALE_AFTER_TICKS = 100_000;
/**
 * Records one session may have active at once: every bundle and close reads them in one bounded
 * statement; a session past this should close and start fresh with what it still needs.
 */
export const MAX_ACTIVE_RECORDS = 200;
/** Context bundle budget in characters of its JSON: the default read profile (20k), at most the audit one. */
export const DEFAULT_BUNDLE_CHARS = 20_000;
export const MIN_BUNDLE_CHARS = 1_000;
export const MAX_BUNDLE_CHARS = 80_000;
/** Children and grandchildren a bundle looks at, at most; the rest are counted, not loaded (list_records pages them). */
export const MAX_BUNDLE_CHILDREN = 100;
export const MAX_BUNDLE_GRANDCHILDREN = 200;
/** Sessions named in a SESSION_REQUIRED error, a conflict, the overview or get_active_sessions. */
export const MAX_LISTED_SESSIONS = 20;
/** Open children a cascade warning names (the count says how many there are). */
export const MAX_CASCADE_REFS = 20;
/** Records save_session and close_session name (changed since the last save). */
export const MAX_SAVED_RECORDS = 200;
/** Page sizes. */
export const DEFAULT_LIST_RECORDS = 50;
export const MAX_LIST_RECORDS = 200;
export const DEFAULT_SYNC_CHANGES = 50;
export const MAX_SYNC_CHANGES = 200;
export const DEFAULT_ACTIVITY = 50;
export const MAX_ACTIVITY = 200;
export const DEFAULT_HISTORY = 20;
export const MAX_HISTORY = 100;
export const DEFAULT_SEARCH_LIMIT = 20;
/**
 * A search ranks at most this many matches (by relevance, then bm25): all of them, or the most recently
 * created ones when more match; and counts matches up to MAX_COUNTED_MATCHES (total_capped past it). Ranking and counting
 * are what a common word costs: in a Durable Object, about 1 µs per ranked match and 0.08 µs per counted
 * one, besides bm25's own pass over every match (a word held by 5,063 of 50,000 records took 5.8-8.5 ms to
 * rank and count whole). Bounded, no word makes a search slow.
 */
export const MAX_RANKED_MATCHES = 500;
export const MAX_COUNTED_MATCHES = 1_000;
export const MAX_SEARCH_LIMIT = 100;
export const DEFAULT_OVERVIEW_ITEMS = 20;
export const MAX_OVERVIEW_ITEMS = 100;
export const OVERVIEW_ACTIVITY = 10;
/** Counts (search totals, summaries) stop here: a count is a hint, not a scan of a huge project. */
export const MAX_COUNTED_RECORDS = 10_000;
/** A search query: a line of words; longer input is refused, not silently cut. */
export const MAX_SEARCH_QUERY_CHARS = 500;
/** Terms of a search query kept (FTS5 cost grows with terms; more than this are dropped with a warning). */
export const MAX_SEARCH_TERMS = 16;
/** A unified diff in a history entry is cut at this many characters (get_record_diff shows it whole, within the read budget). */
export const MAX_HISTORY_DIFF_CHARS = 4_000;

// ---- ids and inputs -----------------------------------------------------------------------------

/** Record ids are R001… (3 digits at least); any other string is simply not found. */
export const recordIdSchema = z.string().min(1).max(32).describe("A record id: R001, R002, …");
export const sessionIdSchema = z.string().min(1).max(32).describe("A session id: S001, S002, … (returned by activate).");
export const projectIdField = {
  project_id: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .describe("The project (workspace) to act on; default: your default project. Resolved by the server before the call runs."),
};
export const sessionIdField = {
  session_id: sessionIdSchema
    .optional()
    .describe("Your session (from activate). Omitted: your only open session in this project; several → SESSION_REQUIRED."),
};
export const staleAfterField = {
  stale_after_ticks: z
    .number()
    .int()
    .min(1)
    .max(MAX_STALE_AFTER_TICKS)
    .optional()
    .describe(
      `When this call starts a session: it becomes stale once the project tick is more than this many writes past its last sync (default ${DEFAULT_STALE_AFTER_TICKS}).`,
    ),
};
export const stateSchema = z.enum(RECORD_STATES);
export const recordTypeSchema = z.string().trim().min(1).max(MAX_RECORD_TYPE_CHARS);
export const recordTitleSchema = z.string().trim().min(1).max(MAX_TITLE_CHARS);
export const recordSummarySchema = z.string().max(MAX_RECORD_SUMMARY_CHARS);
export const recordBodySchema = z.string().max(MAX_RECORD_BODY_CHARS);
export const relatedSchema = z.array(recordIdSchema).max(MAX_RELATED);
export const metadataSchema = z.record(z.string(), z.unknown());
export const reasonSchema = z.string().trim().min(1).max(MAX_REASON_CHARS);

// ---- outputs ------------------------------------------------------------------------------------

export const recordRefSchema = z.object({
  id: z.string(),
  type: z.string(),
  title: z.string(),
  summary: z.string(),
  state: stateSchema,
  parent_id: z.string().nullable(),
  children_count: z.number(),
  open_children_count: z.number(),
});
export type RecordRef = z.input<typeof recordRefSchema>;

export const recordSchema = z.object({
  id: z.string(),
  type: z.string(),
  title: z.string(),
  summary: z.string(),
  body: z.string(),
  state: stateSchema,
  state_reason: z.string().optional().describe("The reason given for LATER, DISCARDED (or RESOLVED)."),
  parent_id: z.string().nullable(),
  depth: z.number().describe("1 for a root."),
  resolved_by: z.string().optional(),
  related: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()).optional(),
  version: z.number().describe("1 at creation, +1 per update or transition."),
  children_count: z.number(),
  open_children_count: z.number(),
  created: z.string(),
  modified: z.string(),
  created_tick: z.number(),
  modified_tick: z.number(),
  modified_by_session: z.string(),
});
export type RecordView = z.input<typeof recordSchema>;

export const bundleWarningSchema = z.object({
  type: z.enum(["conflict", "stale", "orphan", "budget"]),
  message: z.string(),
  details: z.record(z.string(), z.unknown()),
});
export type BundleWarning = z.input<typeof bundleWarningSchema>;

export const contextBundleSchema = z.object({
  target: recordSchema,
  parent: recordSchema.nullable(),
  children: z.object({
    open: z.array(recordSchema),
    open_refs: z.array(recordRefSchema).describe("OPEN children shown as refs because the bundle budget was reached."),
    other: z.array(recordRefSchema),
  }),
  grandchildren: z.array(recordRefSchema),
  counts: z.object({
    open_children: z.number(),
    other_children: z.number(),
    grandchildren: z.number(),
    omitted: z.number().describe("Children and grandchildren counted but not listed (bounds or budget)."),
  }),
  warnings: z.array(bundleWarningSchema).optional(),
});
export type ContextBundle = z.input<typeof contextBundleSchema>;

export const sessionStatusSchema = z.enum(["active", "stale", "closed"]);
export const sessionSchema = z.object({
  id: z.string(),
  agent_id: z.string(),
  status: sessionStatusSchema,
  parent_session: z.string().optional(),
  created: z.string(),
  last_activity: z.string(),
  last_sync_tick: z.number(),
  tick_gap: z.number(),
  stale_after_ticks: z.number(),
  active_records: z.array(z.string()),
  last_save: z.string().optional(),
});
export type SessionView = z.input<typeof sessionSchema>;

export const activityEntrySchema = z.object({
  id: z.number(),
  timestamp: z.string(),
  at_tick: z.number(),
  type: z.enum(ACTIVITY_TYPES),
  session_id: z.string(),
  agent_id: z.string(),
  record_id: z.string().optional(),
  summary: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ActivityEntry = z.input<typeof activityEntrySchema>;

/** ISO timestamps are rendered from stored milliseconds: the same store answers the same bytes. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
