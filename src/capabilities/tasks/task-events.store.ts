/**
 * Reads of task events in the journal (rows with a `type`, written by `ctx.event`): the events after a
 * tick (tasks_delta), the latest events of one plan or task (the resume timeline) and the plan or task
 * worked on most recently (the capsule of an agent without a focus), each through its partial index,
 * bounded.
 */
import type { Db } from "../../storage/db";
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

/** Task events read, newest first, to find the most recently active plan or task; past them, the newest id. */
const RECENT_EVENTS = 500;

/**
 * The ACTIVE or TODO plan or task whose last event is the newest (deterministic: ticks are unique), or
 * when none of the newest RECENT_EVENTS events is of one, the open one with the highest id; undefined
 * in a workspace with none.
 */
export function mostRecentlyActive(db: Db): string | undefined {
  const recent = db.one<{ task_id: string }>(
    `SELECT j.task_id FROM (SELECT task_id, tick FROM journal INDEXED BY journal_task_events
       WHERE type IS NOT NULL ORDER BY tick DESC LIMIT ${RECENT_EVENTS}) AS j
     JOIN tasks AS t ON t.id = j.task_id WHERE t.status IN ('ACTIVE', 'TODO') ORDER BY j.tick DESC LIMIT 1`,
  );
  if (recent) return recent.task_id;
  return db.one<{ id: string }>("SELECT id FROM tasks WHERE status IN ('ACTIVE', 'TODO') ORDER BY length(id) DESC, id DESC LIMIT 1")?.id;
}
