/**
 * What `visualize {what: "session"}` answers besides the common fields: the Record-Sync session shown
 * (the one asked for, else the caller's newest open session, else none), its active records, its
 * staleness on the project's tick clock and how many records other sessions changed since its last
 * sync, in facts and in words (what a host without apps shows), and the reads the app's session view
 * makes. Read-only: it never syncs (`sync_session` is a write).
 */
import type { CommandContext } from "../../commands/context";
import { fail } from "../../shared/errors";
import { suggest } from "../../shared/suggestion";
import { clip } from "../../shared/text";
import { MAX_ACTIVE_RECORDS } from "../records/records.schema";
import { findRef } from "../records/records.store";
import { countRecordsChangedAfter } from "../records/records-versions.store";
import { projectTick, sessionStatus } from "../records/session-select";
import { activeRecordIds, countActive, findSession, latestOpenSessionOf, type SessionRow } from "../records/sessions.store";

/** Active records named with their titles: the rest are in `active_record_ids`, which the app's tree marks. */
const LISTED_ACTIVE = 20;
/** Versions by others looked at to count the records they changed: past this, "or more". */
const COUNTED_CHANGES = 1_000;
/** Activity entries the view shows first: older ones page on. */
const ACTIVITY_PAGE = 50;
/** Titles are cut to this in the summary: the app shows them whole. */
const MAX_TITLE_CHARS = 60;

const SESSION_READS = {
  "records.list": "The project's records in tree order; add limit and cursor.",
  "records.activity": "What changed since the session's last sync, newest first; add cursor for older entries.",
  "records.sessions": "The project's open sessions with their staleness.",
} as const;

function sessionShown(ctx: CommandContext, asked: string | undefined): SessionRow | undefined {
  if (asked === undefined) return latestOpenSessionOf(ctx.db, ctx.principal.agent_id);
  const row = findSession(ctx.db, asked);
  if (row === undefined) {
    fail(
      "SESSION_NOT_FOUND",
      `No session ${asked} in this project.`,
      "Call visualize without session_id to see your newest open session.",
      {
        session_id: asked,
      },
    );
  }
  return row;
}

function staleness(gap: number, status: string, lastSync: number, tick: number): string {
  const behind = gap === 0 ? "up to date" : `${gap} tick${gap === 1 ? "" : "s"} behind`;
  return `last synced at tick ${lastSync}, the project is at tick ${tick}: ${behind}${status === "stale" ? ", stale (the agent should sync)" : ""}`;
}

export function sessionFacts(ctx: CommandContext, asked: string | undefined, budgetProfile: string) {
  const tick = projectTick(ctx);
  const row = sessionShown(ctx, asked);
  const since = row === undefined ? {} : { since_tick: row.last_sync_tick };
  const reads = {
    "records.list": suggest("records.list", { budget_profile: budgetProfile }, SESSION_READS["records.list"]),
    "records.activity": suggest(
      "records.activity",
      { ...since, limit: ACTIVITY_PAGE, budget_profile: budgetProfile },
      SESSION_READS["records.activity"],
    ),
    "records.sessions": suggest("records.sessions", { budget_profile: budgetProfile }, SESSION_READS["records.sessions"]),
  };
  if (row === undefined) {
    return {
      session: null,
      summary: `${ctx.principal.agent_id} has no open session in ${ctx.workspace} (project tick ${tick}): the view shows the project's record tree and its recent activity.`,
      reads,
    };
  }
  const activeIds = activeRecordIds(ctx.db, row.id, MAX_ACTIVE_RECORDS);
  const active = activeIds.slice(0, LISTED_ACTIVE).flatMap((id) => {
    const ref = findRef(ctx.db, id);
    return ref === undefined ? [] : [{ id: ref.id, type: ref.type, title: ref.title, state: ref.state }];
  });
  const total = countActive(ctx.db, row.id);
  const { records: changedRecords, capped } = countRecordsChangedAfter(ctx.db, row.last_sync_tick, row.id, COUNTED_CHANGES);
  const status = sessionStatus(row, tick);
  const gap = tick - row.last_sync_tick;
  const activeWords =
    total === 0
      ? "no record active"
      : `${total} record${total === 1 ? "" : "s"} active (${active
          .slice(0, 3)
          .map((ref) => `${ref.id} "${clip(ref.title, MAX_TITLE_CHARS)}"`)
          .join(", ")}${total > 3 ? ", …" : ""})`;
  const changedWords =
    changedRecords === 0
      ? "No record changed by others since then."
      : `${changedRecords}${capped ? " or more" : ""} record${changedRecords === 1 ? "" : "s"} changed by others since then.`;
  return {
    session: {
      session_id: row.id,
      agent_id: row.agent_id,
      status,
      last_sync_tick: row.last_sync_tick,
      tick_gap: gap,
      project_tick: tick,
      active_records: active,
      active_record_ids: activeIds,
      active_records_total: total,
      changed_by_others: changedRecords,
      changed_by_others_capped: capped,
    },
    summary: `Session ${row.id} of ${row.agent_id}: ${status}, ${activeWords}; ${staleness(gap, status, row.last_sync_tick, tick)}. ${changedWords}`,
    reads,
  };
}
