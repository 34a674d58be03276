/**
 * Which session a call acts in (docs/records.md "Sessions"): a named session must exist, belong to
 * the caller and be open; without a name, the caller's only open session in the project, several →
 * SESSION_REQUIRED listing them. Also starting a session (new or branched, logged in the activity)
 * and the session as commands show it (status active / stale / closed, derived from the tick gap).
 */
import type { CommandContext } from "../../commands/context";
import { fail } from "../../shared/errors";
import { suggest } from "../../shared/suggestion";
import { read } from "../../storage/clocks";
import { insertActivity } from "./activity.store";
import { iso, MAX_ACTIVE_RECORDS, MAX_LISTED_SESSIONS, type SessionView } from "./records.schema";
import { activeRecordIds, findSession, insertSession, nextSessionId, openSessionsOf, type SessionRow } from "./sessions.store";

export function projectTick(ctx: CommandContext): number {
  return read(ctx.db, "project_tick");
}

export function sessionStatus(row: SessionRow, tick: number): "active" | "stale" | "closed" {
  if (row.status === "closed") return "closed";
  return tick - row.last_sync_tick > row.stale_after_ticks ? "stale" : "active";
}

export function toSessionView(ctx: CommandContext, row: SessionRow, tick: number, active?: string[]): SessionView {
  const view: SessionView = {
    id: row.id,
    agent_id: row.agent_id,
    status: sessionStatus(row, tick),
    created: iso(row.created_at_ms),
    last_activity: iso(row.last_activity_at_ms),
    last_sync_tick: row.last_sync_tick,
    tick_gap: tick - row.last_sync_tick,
    stale_after_ticks: row.stale_after_ticks,
    active_records: active ?? activeRecordIds(ctx.db, row.id, MAX_ACTIVE_RECORDS),
  };
  if (row.parent_session !== null) view.parent_session = row.parent_session;
  if (row.last_save_at_ms !== null) view.last_save = iso(row.last_save_at_ms);
  return view;
}

/** A named session: it exists, it is the caller's; `open` also requires it not to be closed. */
export function namedSession(ctx: CommandContext, id: string, open: boolean): SessionRow {
  const row = findSession(ctx.db, id);
  if (!row) {
    fail("SESSION_NOT_FOUND", `No session ${id} in this project.`, "Start a new session: call activate without session_id.", {
      session_id: id,
    });
  }
  if (row.agent_id !== ctx.principal.agent_id) {
    fail(
      "FORBIDDEN",
      `Session ${id} belongs to agent ${row.agent_id}, not to you (${ctx.principal.agent_id}).`,
      "Use one of your own sessions, or call activate without session_id to start one.",
      { session_id: id, owner: row.agent_id },
    );
  }
  if (open && row.status === "closed") {
    fail(
      "SESSION_NOT_FOUND",
      `Session ${id} is closed.`,
      "Call activate with this session_id to resume it (it starts fresh), or without session_id to start a new one.",
      { session_id: id, status: "closed" },
    );
  }
  return row;
}

/**
 * The session a call acts in: the named one (open), else the caller's only open session. `onNone`
 * says what having no open session means for this command (a new session, or a typed error).
 */
export function selectSession(ctx: CommandContext, id: string | undefined, onNone: () => SessionRow): SessionRow {
  if (id !== undefined) return namedSession(ctx, id, true);
  const open = openSessionsOf(ctx.db, ctx.principal.agent_id, MAX_LISTED_SESSIONS);
  if (open.length === 0) return onNone();
  if (open.length === 1) return open[0] as SessionRow;
  const tick = projectTick(ctx);
  const listed = open.slice(0, MAX_LISTED_SESSIONS).map((row) => {
    const view = toSessionView(ctx, row, tick);
    return {
      session_id: view.id,
      active_records: view.active_records.slice(0, 10),
      last_sync_tick: view.last_sync_tick,
      last_activity: view.last_activity,
    };
  });
  return fail(
    "SESSION_REQUIRED",
    `You have ${open.length > MAX_LISTED_SESSIONS ? `more than ${MAX_LISTED_SESSIONS}` : open.length} open sessions in this project; name one with session_id.`,
    "Pass session_id (the id activate returned in this chat); close sessions you no longer use with close_session.",
    { sessions: listed, has_more: open.length > MAX_LISTED_SESSIONS },
    listed
      .slice(0, 2)
      .map((session) =>
        suggest(
          "sync_session",
          { session_id: session.session_id },
          `Continue in ${session.session_id} (active: ${session.active_records.join(", ") || "nothing"}).`,
        ),
      ),
  );
}

/** The typed error for "no open session" when a session is required and none may be started. */
export function noOpenSession(ctx: CommandContext): never {
  return fail(
    "SESSION_NOT_FOUND",
    `You (${ctx.principal.agent_id}) have no open session in this project.`,
    "Start one: call activate on a record.",
    {
      agent_id: ctx.principal.agent_id,
    },
  );
}

export interface StartOptions {
  parent?: SessionRow | undefined;
  stale_after_ticks: number;
  /** The record whose activation or creation starts the session (logged with the start). */
  record_id?: string | undefined;
  /** The project tick, when the caller has read it already (it is read otherwise). */
  tick?: number | undefined;
}

/** Starts a session for the caller, in sync with the project now; logs session_started or session_branched. */
export function startSession(ctx: CommandContext, options: StartOptions): SessionRow {
  const tick = options.tick ?? projectTick(ctx);
  const { num, id } = nextSessionId(ctx.db);
  const row: SessionRow = {
    num,
    id,
    agent_id: ctx.principal.agent_id,
    status: "open",
    parent_session: options.parent?.id ?? null,
    stale_after_ticks: options.stale_after_ticks,
    created_tick: tick,
    last_sync_tick: tick,
    last_save_tick: null,
    last_save_at_ms: null,
    closed_tick: null,
    created_at_ms: ctx.nowMs,
    last_activity_at_ms: ctx.nowMs,
    closed_at_ms: null,
  };
  insertSession(ctx.db, row);
  const branched = options.parent !== undefined;
  insertActivity(ctx.db, {
    at_tick: tick,
    ts_ms: ctx.nowMs,
    type: branched ? "session_branched" : "session_started",
    session_id: id,
    agent_id: ctx.principal.agent_id,
    record_id: options.record_id,
    summary: branched ? `${id} branched from ${options.parent?.id}` : `${id} started`,
    details: {
      stale_after_ticks: options.stale_after_ticks,
      ...(branched ? { parent_session: options.parent?.id } : {}),
    },
  });
  return row;
}
