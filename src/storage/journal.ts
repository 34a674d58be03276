/**
 * The journal: one row per operation that changed domain rows, numbered by `tick`. Replays, dry runs,
 * no-ops and rejected calls write none. Task mutations write one row per task event (with its type,
 * task, step path and payload). The status view's last event and the task delta read it.
 */
import type { Db } from "./db";

export interface JournalEvent {
  tick: number;
  event_id: string;
  ts_ms: number;
  agent_id: string;
  command: string;
  target: string;
  summary: string;
}

/** What a task event adds to its journal row (seed 000's task events; the task delta reads them). */
export interface TaskEventFields {
  type: string;
  task_id: string;
  path: string | null;
  payload: Record<string, unknown>;
}

export type NewJournalEvent = Omit<JournalEvent, "tick" | "event_id"> & Partial<TaskEventFields>;

/** Event ids are `evt_` and the tick in 16 digits, so they sort as ticks do. */
const EVENT_ID_PREFIX = "evt_";
const EVENT_ID_DIGITS = 16;

/**
 * Appends a row at the next tick, in one statement: the INSERT takes the tick from `clocks`, and the
 * trigger of migration 0015 moves the clock (and the change count) with the row.
 */
export function appendJournal(db: Db, event: NewJournalEvent): JournalEvent {
  const stored = db.one<{ tick: number; event_id: string }>(
    `INSERT INTO journal (tick, event_id, ts_ms, agent_id, command, target, summary, type, task_id, path, payload_json)
     SELECT value + 1, printf('${EVENT_ID_PREFIX}%0${EVENT_ID_DIGITS}d', value + 1), ?, ?, ?, ?, ?, ?, ?, ?, ? FROM clocks WHERE name = 'tick'
     RETURNING tick, event_id`,
    event.ts_ms,
    event.agent_id,
    event.command,
    event.target,
    event.summary,
    event.type ?? null,
    event.task_id ?? null,
    event.path ?? null,
    event.payload === undefined ? null : JSON.stringify(event.payload),
  );
  if (stored === undefined) throw new Error("clock tick is missing");
  return {
    tick: stored.tick,
    event_id: stored.event_id,
    ts_ms: event.ts_ms,
    agent_id: event.agent_id,
    command: event.command,
    target: event.target,
    summary: event.summary,
  };
}

export function lastJournalEvent(db: Db): JournalEvent | undefined {
  return db.one<JournalEvent & Record<string, string | number>>(
    "SELECT tick, event_id, ts_ms, agent_id, command, target, summary FROM journal ORDER BY tick DESC LIMIT 1",
  );
}
