/**
 * `records.project.overview` (seed 004 "Orientation Commands", get_project_overview): the start of every
 * chat in a project. Its tick, open sessions (with their active records and tick gap), root, OPEN and
 * LATER records (refs, with totals), and the latest activity. A read of the project's own workspace, with
 * the Directory's name and description handed in (`needsProject`); no activation needed, no side effects.
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { defineCommand } from "../../commands/registry";
import { getMeta } from "../../storage/meta";
import { listActivity } from "../records/activity.store";
import {
  activityEntrySchema,
  DEFAULT_OVERVIEW_ITEMS,
  MAX_COUNTED_RECORDS,
  MAX_LISTED_SESSIONS,
  MAX_OVERVIEW_ITEMS,
  OVERVIEW_ACTIVITY,
  projectIdField,
  recordRefSchema,
} from "../records/records.schema";
import { countBy, refsBy, toRef } from "../records/records.store";
import { projectTick, sessionStatus } from "../records/session-select";
import { activeRecordIdsOf, countOpenSessions, openSessions } from "../records/sessions.store";

/**
 * The project this workspace is. The Directory (projects) owns names and descriptions, which the Worker
 * hands in (`needsProject`); without a Directory row the workspace knows only its own name, the id.
 */
function projectOf(ctx: CommandContext): { id: string; name: string; description: string } {
  if (ctx.project !== undefined) return { id: ctx.workspace, ...ctx.project };
  const name = getMeta(ctx.db, "name") ?? ctx.workspace;
  return { id: ctx.workspace, name, description: "" };
}

const overviewSessionSchema = z.object({
  id: z.string(),
  agent_id: z.string(),
  status: z.enum(["active", "stale"]),
  active_records: z.array(z.string()),
  last_sync_tick: z.number(),
  tick_gap: z.number(),
  parent_session: z.string().optional(),
});

/** Active records shown per session in the overview. */
const OVERVIEW_ACTIVE_PER_SESSION = 20;

export const recordsOverview = defineCommand({
  name: "records.project.overview",
  tool: "get_project_overview",
  needsProject: true,
  title: "Project overview",
  description: `Start of every chat: the project's tick, open sessions (with their active records and tick gap), root records, OPEN records and LATER records (refs, at most limit each, default ${DEFAULT_OVERVIEW_ITEMS}, with totals), and the ${OVERVIEW_ACTIVITY} latest activity entries. Then activate the record to continue, or create_record a new topic.`,
  kind: "read",
  input: {
    limit: z.number().int().min(1).max(MAX_OVERVIEW_ITEMS).default(DEFAULT_OVERVIEW_ITEMS).describe("Refs per list."),
    ...projectIdField,
  },
  output: {
    project: z.object({ id: z.string(), name: z.string(), description: z.string(), tick: z.number() }),
    open_sessions: z.array(overviewSessionSchema),
    open_sessions_total: z.number(),
    root_records: z.array(recordRefSchema),
    root_records_total: z.number(),
    open_records: z.array(recordRefSchema),
    open_records_total: z.number(),
    later_records: z.array(recordRefSchema),
    later_records_total: z.number(),
    recent_activity: z.array(activityEntrySchema),
    totals_capped: z.boolean().describe(`A total stopped at ${MAX_COUNTED_RECORDS}.`),
  },
  budget: {
    lists: ["recent_activity", "later_records", "root_records", "open_records", "open_sessions"],
    keep: ["id", "state", "type", "at_tick", "tick_gap"],
    trimFromEnd: true,
  },
  handler: (ctx, args) => {
    const tick = projectTick(ctx);
    const sessions = openSessions(ctx.db, MAX_LISTED_SESSIONS).slice(0, MAX_LISTED_SESSIONS);
    const active = activeRecordIdsOf(
      ctx.db,
      sessions.map((session) => session.id),
      OVERVIEW_ACTIVE_PER_SESSION,
    );
    const list = (which: Parameters<typeof refsBy>[1]) => refsBy(ctx.db, which, args.limit).slice(0, args.limit).map(toRef);
    const count = (which: Parameters<typeof countBy>[1]) => countBy(ctx.db, which, MAX_COUNTED_RECORDS);
    const totals = {
      open_sessions_total: countOpenSessions(ctx.db, MAX_COUNTED_RECORDS),
      root_records_total: count({ roots: true }),
      open_records_total: count({ state: "OPEN" }),
      later_records_total: count({ state: "LATER" }),
    };
    const capped = Object.values(totals).some((n) => n > MAX_COUNTED_RECORDS);
    return {
      project: { ...projectOf(ctx), tick },
      open_sessions: sessions.map((session) => ({
        id: session.id,
        agent_id: session.agent_id,
        status: sessionStatus(session, tick) === "stale" ? ("stale" as const) : ("active" as const),
        active_records: active.get(session.id) ?? [],
        last_sync_tick: session.last_sync_tick,
        tick_gap: tick - session.last_sync_tick,
        ...(session.parent_session ? { parent_session: session.parent_session } : {}),
      })),
      open_sessions_total: Math.min(totals.open_sessions_total, MAX_COUNTED_RECORDS),
      root_records: list({ roots: true }),
      root_records_total: Math.min(totals.root_records_total, MAX_COUNTED_RECORDS),
      open_records: list({ state: "OPEN" }),
      open_records_total: Math.min(totals.open_records_total, MAX_COUNTED_RECORDS),
      later_records: list({ state: "LATER" }),
      later_records_total: Math.min(totals.later_records_total, MAX_COUNTED_RECORDS),
      recent_activity: listActivity(ctx.db, {}, OVERVIEW_ACTIVITY).slice(0, OVERVIEW_ACTIVITY),
      totals_capped: capped,
    };
  },
});
