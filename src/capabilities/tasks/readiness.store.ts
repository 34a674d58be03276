/**
 * Dependencies between tasks, tasks someone has taken, and the ready queue (migration 0021; docs/tasks.md
 * "Dependencies, taking a task and the ready queue"). The rows are `task_dependencies` and `task_claims`;
 * `task_readiness` is derived from them, `tasks` and `steps` by triggers, so every page of the ready
 * queue and every "what waits" answer is one index range, whatever the number of tasks, dependencies or
 * claims. A claim row that exists is live: the tick trigger removes it in the write that expires it.
 */
import { fail } from "../../shared/errors";
import { suggest } from "../../shared/suggestion";
import type { Db } from "../../storage/db";

/** Blockers one task may wait on: a task is a unit of work, its prerequisites a short list. */
export const MAX_BLOCKERS = 50;
/** Statuses in which a task no longer holds up the tasks waiting on it. */
export const FINISHED = ["DONE", "CANCELED"] as const;

export interface Blocker {
  id: string;
  title: string;
  status: string;
  finished: boolean;
}

export interface ClaimRow {
  task_id: string;
  holder: string;
  acquired_tick: number;
  expires_tick: number;
}

/** A ready task as the queue orders it: priority rank (0 HIGH, 1 MEDIUM, 2 LOW), then id. */
export interface ReadyRow {
  task_id: string;
  plan_id: string;
  rank: number;
  id_len: number;
  holder: string | null;
}

const FINISHED_SQL = "('DONE', 'CANCELED')";

/**
 * The tasks `taskId` waits on, finished or not, in id order: all of them, since no write lets a task
 * wait on more than MAX_BLOCKERS (dependencies.ts refuses the one past it).
 */
export function blockersOf(db: Db, taskId: string): Blocker[] {
  return db
    .all<{ id: string; title: string; status: string; finished: number }>(
      `SELECT b.id, b.title, b.status, b.status IN ${FINISHED_SQL} AS finished
       FROM task_dependencies d JOIN tasks b ON b.id = d.blocker_id
       WHERE d.task_id = ? ORDER BY length(b.id), b.id LIMIT ${MAX_BLOCKERS}`,
      taskId,
    )
    .map((row) => ({ id: row.id, title: row.title, status: row.status, finished: row.finished === 1 }));
}

/** Up to `limit` tasks waiting on `blockerId`, in id order. */
export function dependentsOf(db: Db, blockerId: string, limit: number): string[] {
  return db
    .all<{ task_id: string }>(
      "SELECT task_id FROM task_dependencies WHERE blocker_id = ? ORDER BY length(task_id), task_id LIMIT ?",
      blockerId,
      limit,
    )
    .map((row) => row.task_id);
}

/**
 * Plans other than `exceptPlan` whose tasks wait on `blockerId`: their graphs hold a copy of its node,
 * and every copy follows it. One seek of the blocker index, then each waiting task's plan (a task is
 * waited on by at most the workspace's tasks, so this is bounded by them; in practice a handful).
 */
export function plansWaitingOn(db: Db, blockerId: string, exceptPlan: string): string[] {
  return db
    .all<{ plan_id: string }>(
      `SELECT DISTINCT t.plan_id FROM task_dependencies d JOIN tasks t ON t.id = d.task_id
       WHERE d.blocker_id = ? AND t.plan_id <> ? ORDER BY t.plan_id`,
      blockerId,
      exceptPlan,
    )
    .map((row) => row.plan_id);
}

export function addDependency(db: Db, taskId: string, blockerId: string, tick: number): boolean {
  const row = db.one<{ task_id: string }>(
    "INSERT INTO task_dependencies (task_id, blocker_id, added_tick) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING task_id",
    taskId,
    blockerId,
    tick,
  );
  return row !== undefined;
}

export function removeDependency(db: Db, taskId: string, blockerId: string): boolean {
  return (
    db.one<{ task_id: string }>(
      "DELETE FROM task_dependencies WHERE task_id = ? AND blocker_id = ? RETURNING task_id",
      taskId,
      blockerId,
    ) !== undefined
  );
}

/** Removes every dependency of and on a task being deleted; answers the tasks that waited on it. */
export function forgetTask(db: Db, taskId: string): string[] {
  db.run("DELETE FROM task_dependencies WHERE task_id = ?", taskId);
  db.run("DELETE FROM task_claims WHERE task_id = ?", taskId);
  return db
    .all<{ task_id: string }>("DELETE FROM task_dependencies WHERE blocker_id = ? RETURNING task_id", taskId)
    .map((row) => row.task_id);
}

/**
 * The cycle "taskId waits for blockerId" would close, as `[taskId, blockerId, …, taskId]` (each waits
 * for the next); undefined when it closes none. A
 * breadth-first search over blockers that visits each task once, so it is bounded by the workspace's
 * task count.
 */
export function cycleThrough(db: Db, taskId: string, blockerId: string): string[] | undefined {
  if (taskId === blockerId) return [taskId, taskId];
  const cameFrom = new Map<string, string | null>([[blockerId, null]]);
  let frontier = [blockerId];
  while (frontier.length > 0) {
    const rows = db.all<{ task_id: string; blocker_id: string }>(
      "SELECT task_id, blocker_id FROM task_dependencies WHERE task_id IN (SELECT value FROM json_each(?))",
      JSON.stringify(frontier),
    );
    const next: string[] = [];
    for (const row of rows) {
      if (cameFrom.has(row.blocker_id)) continue;
      cameFrom.set(row.blocker_id, row.task_id);
      if (row.blocker_id === taskId) {
        // taskId, then blockerId and the tasks by which it waits, back to taskId.
        const chain = [taskId];
        for (let at = cameFrom.get(taskId); at !== null && at !== undefined; at = cameFrom.get(at)) chain.unshift(at);
        return [taskId, ...chain];
      }
      next.push(row.blocker_id);
    }
    frontier = next;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Claims

export function claimOf(db: Db, taskId: string): ClaimRow | undefined {
  return db.one<ClaimRow & Record<string, string | number>>(
    "SELECT task_id, holder, acquired_tick, expires_tick FROM task_claims WHERE task_id = ?",
    taskId,
  );
}

export function writeClaim(db: Db, claim: ClaimRow): void {
  db.run(
    "REPLACE INTO task_claims (task_id, holder, acquired_tick, expires_tick) VALUES (?, ?, ?, ?)",
    claim.task_id,
    claim.holder,
    claim.acquired_tick,
    claim.expires_tick,
  );
}

export function deleteClaim(db: Db, taskId: string): void {
  db.run("DELETE FROM task_claims WHERE task_id = ?", taskId);
}

/** The refusal a write to a step of a task another agent has taken gets (as STEP_LEASE_HELD for a leased step). */
export function taskTaken(claim: ClaimRow, now: number): never {
  fail(
    "TASK_TAKEN",
    `${claim.task_id} is taken by ${claim.holder} until tick ${claim.expires_tick} (now ${now}).`,
    "Work on another task (tasks_ready lists those nobody holds), or wait for the holder to finish or release it, or for the claim to expire.",
    { task: claim.task_id, holder: claim.holder, expires_tick: claim.expires_tick, now_tick: now },
    [suggest("tasks.ready", {}, "See which tasks are ready and free.")],
  );
}

// ---------------------------------------------------------------------------------------------
// The ready queue

export interface ReadyCursor {
  rank: number;
  id_len: number;
  task_id: string;
}

const READY = "workable = 1 AND open_blockers = 0 AND blocked_steps = 0";
const AFTER = "(rank, id_len, task_id) > (?, ?, ?)";

/**
 * Up to `limit` ready tasks for `caller` after `cursor`, in queue order: the free ones (one range of the
 * free index, by plan when `planId` is given) merged with the caller's own held ones (one range of the
 * held index). Tasks other agents hold are in neither range, so no page reads past them.
 */
export function readyPage(db: Db, caller: string, planId: string | undefined, cursor: ReadyCursor | undefined, limit: number): ReadyRow[] {
  const after = cursor === undefined ? [-1, 0, ""] : [cursor.rank, cursor.id_len, cursor.task_id];
  const columns = "task_id, plan_id, rank, id_len, holder";
  const free =
    planId === undefined
      ? db.all<ReadyRow & Record<string, string | number | null>>(
          `SELECT ${columns} FROM task_readiness INDEXED BY task_readiness_free
           WHERE ${READY} AND holder IS NULL AND ${AFTER} ORDER BY rank, id_len, task_id LIMIT ?`,
          ...after,
          limit,
        )
      : db.all<ReadyRow & Record<string, string | number | null>>(
          `SELECT ${columns} FROM task_readiness INDEXED BY task_readiness_free_by_plan
           WHERE plan_id = ? AND ${READY} AND holder IS NULL AND ${AFTER} ORDER BY rank, id_len, task_id LIMIT ?`,
          planId,
          ...after,
          limit,
        );
  const own = db.all<ReadyRow & Record<string, string | number | null>>(
    `SELECT ${columns} FROM task_readiness INDEXED BY task_readiness_held
     WHERE holder = ? AND ${READY} AND holder IS NOT NULL AND ${AFTER} ${planId === undefined ? "" : "AND plan_id = ?"}
     ORDER BY rank, id_len, task_id LIMIT ?`,
    caller,
    ...after,
    ...(planId === undefined ? [] : [planId]),
    limit,
  );
  return [...free, ...own]
    .sort((a, b) => a.rank - b.rank || a.id_len - b.id_len || (a.task_id < b.task_id ? -1 : a.task_id > b.task_id ? 1 : 0))
    .slice(0, limit);
}

/** Where a task sits in queue order (its priority rank and id), ready or not; undefined for no such task. */
export function queuePlace(db: Db, taskId: string): ReadyCursor | undefined {
  return db.one<ReadyCursor & Record<string, string | number>>(
    "SELECT rank, id_len, task_id FROM task_readiness WHERE task_id = ?",
    taskId,
  );
}

/** Whether `taskId` is ready for `caller`: workable, waiting on nothing, no blocked step, held by nobody else. */
export function isReadyFor(db: Db, taskId: string, caller: string): boolean {
  const row = db.one<{ holder: string | null }>(`SELECT holder FROM task_readiness WHERE task_id = ? AND ${READY}`, taskId);
  return row !== undefined && (row.holder === null || row.holder === caller);
}

/** The first `limit` workable tasks (of `planId`, when given) that wait on an unfinished blocker, in queue order. */
export function firstWaiting(db: Db, limit: number, planId?: string): string[] {
  const rows =
    planId === undefined
      ? db.all<{ task_id: string }>(
          `SELECT task_id FROM task_readiness INDEXED BY task_readiness_waiting
           WHERE workable = 1 AND open_blockers > 0 ORDER BY rank, id_len, task_id LIMIT ?`,
          limit,
        )
      : db.all<{ task_id: string }>(
          `SELECT task_id FROM task_readiness INDEXED BY task_readiness_waiting_by_plan
           WHERE plan_id = ? AND workable = 1 AND open_blockers > 0 ORDER BY rank, id_len, task_id LIMIT ?`,
          planId,
          limit,
        );
  return rows.map((row) => row.task_id);
}

/** Of `taskIds`, those now ready for nobody in particular (free or held): what finishing a blocker released. */
export function nowReady(db: Db, taskIds: readonly string[]): string[] {
  if (taskIds.length === 0) return [];
  return db
    .all<{ task_id: string }>(
      `SELECT task_id FROM task_readiness WHERE task_id IN (SELECT value FROM json_each(?)) AND ${READY} ORDER BY rank, id_len, task_id`,
      JSON.stringify(taskIds),
    )
    .map((row) => row.task_id);
}
