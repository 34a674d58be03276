/**
 * The journal: one row per operation that changed domain rows, numbered by `tick`. Replays, dry runs,
 * no-ops and rejected calls write none. `status.last_event` and later `tasks_delta` read it.
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

export function eventId(tick: number): string {
  return `evt_${String(tick).padStart(16, "0")}`;
}

export function appendJournal(
  db: Db,
  event: {
    ts_ms: number;
    agent_id: string;
    command: string;
    target: string;
    summary: string;
  },
): JournalEvent {
  const tick = advance(db, "tick");
  const row: JournalEvent = { tick, event_id: eventId(tick), ...event };
  db.run(
    "INSERT INTO journal (tick, event_id, ts_ms, agent_id, command, target, summary) VALUES (?, ?, ?, ?, ?, ?, ?)",
    row.tick,
    row.event_id,
    row.ts_ms,
    row.agent_id,
    row.command,
    row.target,
    row.summary,
  );
  return row;
}

export function lastJournalEvent(db: Db): JournalEvent | undefined {
  return db.one<JournalEvent & Record<string, string | number>>(
    "SELECT tick, event_id, ts_ms, agent_id, command, target, summary FROM journal ORDER BY tick DESC LIMIT 1",
  );
}
