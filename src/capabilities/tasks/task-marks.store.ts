/**
 * What a page of tasks shows of their dependencies and claims (`tasks_context`): for a list of task
 * ids, the unfinished tasks each waits for and who has taken it, each in one statement whatever the
 * page's size (a seek per task of the primary keys of `task_dependencies` and `task_claims`, migration
 * 0021). Bounded by the page: at most its tasks' claims, and MAX_BLOCKERS blockers per task.
 */
import type { Db } from "../../storage/db";

/** Of `taskIds`, each one's unfinished blockers (not DONE or CANCELED), in id order; tasks that wait for nothing are absent. */
export function openBlockersOfTasks(db: Db, taskIds: readonly string[]): Map<string, string[]> {
  const waiting = new Map<string, string[]>();
  if (taskIds.length === 0) return waiting;
  const rows = db.all<{ task_id: string; blocker_id: string }>(
    `SELECT d.task_id, d.blocker_id FROM task_dependencies d JOIN tasks b ON b.id = d.blocker_id
     WHERE d.task_id IN (SELECT value FROM json_each(?)) AND b.status NOT IN ('DONE', 'CANCELED')
     ORDER BY d.task_id, length(d.blocker_id), d.blocker_id`,
    JSON.stringify(taskIds),
  );
  for (const row of rows) {
    const list = waiting.get(row.task_id);
    if (list === undefined) waiting.set(row.task_id, [row.blocker_id]);
    else list.push(row.blocker_id);
  }
  return waiting;
}

/** Of `taskIds`, the holder of each one someone has taken (a claim row that exists is live). */
export function holdersOfTasks(db: Db, taskIds: readonly string[]): Map<string, string> {
  if (taskIds.length === 0) return new Map();
  const rows = db.all<{ task_id: string; holder: string }>(
    "SELECT task_id, holder FROM task_claims WHERE task_id IN (SELECT value FROM json_each(?))",
    JSON.stringify(taskIds),
  );
  return new Map(rows.map((row) => [row.task_id, row.holder]));
}
