/**
 * The workspace clocks (DESIGN §4): `seq` orders document entries (and later graph versions) so a
 * branch cutoff cuts every document consistently; `tick` numbers the journal, one per operation that
 * changed domain rows. Both advance only inside the transaction of the write that uses them.
 */
import type { Db } from "./db";

/**
 * `record`, `record_session` and `project_tick` belong to Record-Sync (migration 0013): record and
 * session numbers, and seed 004's project tick, which counts only record writes (docs/records.md).
 */
export type ClockName =
  | "seq"
  | "tick"
  | "branch"
  | "plan"
  | "task"
  | "step"
  | "card"
  | "job"
  | "record"
  | "record_session"
  | "project_tick";

export function advance(db: Db, clock: ClockName): number {
  return advanceBy(db, clock, 1);
}

/** Takes the next `count` values of a clock in one statement; returns the last of them. */
export function advanceBy(db: Db, clock: ClockName, count: number): number {
  const row = db.one<{ value: number }>("UPDATE clocks SET value = value + ? WHERE name = ? RETURNING value", Math.trunc(count), clock);
  if (!row) throw new Error(`clock ${clock} is missing`);
  return row.value;
}

export function read(db: Db, clock: ClockName): number {
  return db.one<{ value: number }>("SELECT value FROM clocks WHERE name = ?", clock)?.value ?? 0;
}
