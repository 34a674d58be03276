/**
 * The journal: one row per operation that changed domain rows, numbered by `tick`. Replays, dry runs,
 * no-ops and rejected calls write none. Task mutations write one row per task event (with its type,
 * task, step path and payload). `status.last_event` and `tasks_delta` read it.
 */
import { advance } from "./clocks";
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

/** What a task event adds to its journal row (seed 000's task events; `tasks_delta` reads them). */
export interface TaskEventFields {
  type: string;
  task_id: string;
  path: string | null;
  payload: Record<string, unknown>;
}

export type NewJournalEvent = Omit<JournalEvent, "tick" | "event_id"> & Partial<TaskEventFields>;

export function eventId(tick: number): string {
  return `evt_${String(tick).padStart(16, "0")}`;
}

export function appendJournal(db: Db, event: NewJournalEvent): JournalEvent {
  const tick = advance(db, "tick");
  const row: JournalEvent = {
    tick,
    event_id: eventId(tick),
    ts_ms: event.ts_ms,
    agent_id: event.agent_id,
    command: event.command,
    target: event.target,
    summary: event.summary,
  };
  db.run(
    "INSERT INTO journal (tick, event_id, ts_ms, agent_id, command, target, summary, type, task_id, path, payload_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    row.tick,
    row.event_id,
    row.ts_ms,
    row.agent_id,
    row.command,
    row.target,
    row.summary,
    event.type ?? null,
    event.task_id ?? null,
    event.path ?? null,
    event.payload === undefined ? null : JSON.stringify(event.payload),
  );
  return row;
}

export function lastJournalEvent(db: Db): JournalEvent | undefined {
  return db.one<JournalEvent & Record<string, string | number>>(
    "SELECT tick, event_id, ts_ms, agent_id, command, target, summary FROM journal ORDER BY tick DESC LIMIT 1",
  );
}
