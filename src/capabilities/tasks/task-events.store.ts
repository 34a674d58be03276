/**
 * Reads of task events in the journal (rows with a `type`, written by `ctx.event`): the events after a
 * tick (tasks_delta) and the latest events of one plan or task (the resume timeline), each through its
 * partial index, bounded by the caller's limit.
 */
import type { Db } from "../../workspace/db";
import type { TaskEvent } from "./tasks.schema";

interface EventRow {
  tick: number;
  event_id: string;
  ts_ms: number;
  type: string;
  task_id: string;
  path: string | null;
  payload_json: string | null;
}

const COLUMNS = "tick, event_id, ts_ms, type, task_id, path, payload_json";

function toEvent(row: EventRow): TaskEvent {
  return {
    event_id: row.event_id,
    tick: row.tick,
    ts_ms: row.ts_ms,
    type: row.type,
    task: row.task_id,
    ...(row.path !== null ? { path: row.path } : {}),
    payload: row.payload_json === null ? {} : (JSON.parse(row.payload_json) as Record<string, unknown>),
  };
}

/** Task events with a tick above `since`, oldest first, at most `limit` (of one target when given). */
export function eventsAfter(db: Db, since: number, limit: number, target: string | undefined): TaskEvent[] {
  const rows = db.all<EventRow & Record<string, string | number | null>>(
    `SELECT ${COLUMNS} FROM journal INDEXED BY ${target ? "journal_by_task" : "journal_task_events"}
     WHERE tick > ? AND type IS NOT NULL${target ? " AND task_id = ?" : ""} ORDER BY tick LIMIT ${Math.trunc(limit)}`,
    since,
    ...(target ? [target] : []),
  );
  return rows.map(toEvent);
}

/** The latest `limit` events of one plan or task, oldest first. */
export function latestEvents(db: Db, id: string, limit: number): TaskEvent[] {
  if (limit === 0) return [];
  const rows = db.all<EventRow & Record<string, string | number | null>>(
    `SELECT ${COLUMNS} FROM journal INDEXED BY journal_by_task WHERE task_id = ? ORDER BY tick DESC LIMIT ${Math.trunc(limit)}`,
    id,
  );
  return rows.reverse().map(toEvent);
}
