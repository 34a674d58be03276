/**
 * Changing what a task waits for (docs/tasks.md "Dependencies, taking a task and the ready queue"): the
 * checks every change runs (the blocker is a task of this workspace, no cycle, at most MAX_BLOCKERS)
 * and what it writes, as every task mutation does: the row, one event per dependency on the waiting
 * task (journal and trace), and the `blocks` edge in its plan's graph. A task's revision counts changes
 * of its own fields and steps, not of what it waits for. Shared by `tasks_create`,
 * `tasks_edit`, the add and remove commands, and `tasks_delete` (the tasks that waited on a deleted
 * task stop waiting on it).
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { taskIdSchema } from "../../place/target.schema";
import { type EntityRow, findEntity, requireEntity } from "../../place/targets.store";
import { fail } from "../../shared/errors";
import { suggest } from "../../shared/suggestion";
import { emitEvent, projectDependency } from "./ingest";
import { nowTick } from "./leases.store";
import { addDependency, blockersOf, cycleThrough, forgetTask, MAX_BLOCKERS, removeDependency } from "./readiness.store";
import type { TaskEvent } from "./tasks.schema";

/** `blocked_by` as tasks_create, tasks_edit and the dependency commands take it. */
export const blockedByArg = z
  .array(taskIdSchema)
  .max(MAX_BLOCKERS)
  .describe(`Tasks (of any plan of this workspace) this task waits for until each is DONE or CANCELED; at most ${MAX_BLOCKERS}.`);

/** A blocker as answers show it. */
export const blockerSchema = z.object({ id: z.string(), title: z.string(), status: z.string(), finished: z.boolean() });

/** The blocker named by `id`: a task of this workspace (a plan cannot be waited on). */
function requireBlocker(ctx: CommandContext, task: EntityRow, id: string): EntityRow {
  const blocker = requireEntity(ctx.db, id);
  if (blocker.kind !== "task") {
    fail("INVALID_INPUT", `${id} is a plan; a task waits on tasks.`, "Name the plan's tasks in blocked_by instead.", {
      field: "blocked_by",
      id,
    });
  }
  const cycle = cycleThrough(ctx.db, task.id, blocker.id);
  if (cycle !== undefined) {
    fail(
      "INVALID_INPUT",
      `${task.id} cannot wait for ${blocker.id}: ${cycle.join(" waits for ")} would be a cycle.`,
      `Drop ${blocker.id} from blocked_by, or remove a dependency of the cycle first.`,
      { field: "blocked_by", cycle },
      // The first link that exists already (cycle[0] → cycle[1] is the one asked for).
      cycle.length > 2
        ? [suggest("tasks.dependency.remove", { task: cycle[1], blocked_by: [cycle[2]] }, "Break the cycle at its first existing link.")]
        : [],
    );
  }
  return blocker;
}

function dependencyEvent(
  ctx: CommandContext,
  task: EntityRow,
  type: "dependency_added" | "dependency_removed",
  blocker: string,
  reason?: string,
) {
  return emitEvent(ctx, task, {
    type,
    payload: { blocker_id: blocker, ...(reason === undefined ? {} : { reason }) },
    summary: type === "dependency_added" ? `waits for ${blocker}` : `no longer waits for ${blocker}${reason ? ` (${reason})` : ""}`,
  });
}

/** Makes `task` wait for each of `ids` it does not wait for yet; answers the events (one per new dependency). */
export function addBlockers(ctx: CommandContext, task: EntityRow, ids: readonly string[]): TaskEvent[] {
  const wanted = [...new Set(ids)];
  const current = new Set(blockersOf(ctx.db, task.id).map((blocker) => blocker.id));
  const added = wanted.filter((id) => !current.has(id));
  if (current.size + added.length > MAX_BLOCKERS) {
    fail(
      "INVALID_INPUT",
      `${task.id} would wait for ${current.size + added.length} tasks; a task waits for at most ${MAX_BLOCKERS}.`,
      "Split the task, or wait on fewer tasks that gather the others.",
      { field: "blocked_by", max: MAX_BLOCKERS, current: current.size },
    );
  }
  const blockers = added.map((id) => requireBlocker(ctx, task, id));
  const events: TaskEvent[] = [];
  for (const blocker of blockers) {
    addDependency(ctx.db, task.id, blocker.id, nowTick(ctx.db));
    events.push(dependencyEvent(ctx, task, "dependency_added", blocker.id));
    projectDependency(ctx, task, blocker);
  }
  return events;
}

/** Stops `task` waiting for each of `ids`; answers the events (one per removed dependency). */
export function removeBlockers(ctx: CommandContext, task: EntityRow, ids: readonly string[], reason?: string): TaskEvent[] {
  const events: TaskEvent[] = [];
  for (const id of new Set(ids)) {
    if (!removeDependency(ctx.db, task.id, id)) continue;
    events.push(dependencyEvent(ctx, task, "dependency_removed", id, reason));
    const blocker = findEntity(ctx.db, id);
    if (blocker !== undefined) projectDependency(ctx, task, blocker, true);
  }
  return events;
}

/** Makes `task` wait for exactly `ids` (tasks_edit's `blocked_by`); answers the events. */
export function setBlockers(ctx: CommandContext, task: EntityRow, ids: readonly string[]): TaskEvent[] {
  const wanted = new Set(ids);
  const gone = blockersOf(ctx.db, task.id)
    .map((blocker) => blocker.id)
    .filter((id) => !wanted.has(id));
  return [...removeBlockers(ctx, task, gone), ...addBlockers(ctx, task, [...wanted])];
}

/**
 * Before `task` is deleted: it stops waiting, its claim ends, and the tasks that waited on it stop
 * waiting on it, each with a `dependency_removed` event (reason `deleted`) and its graph edge tombstoned.
 */
export function forgetDeletedTask(ctx: CommandContext, task: EntityRow, deleting: ReadonlySet<string>): TaskEvent[] {
  const events: TaskEvent[] = [];
  for (const id of forgetTask(ctx.db, task.id)) {
    if (deleting.has(id)) continue;
    const waiting = findEntity(ctx.db, id);
    if (waiting === undefined) continue;
    events.push(dependencyEvent(ctx, waiting, "dependency_removed", task.id, "deleted"));
    projectDependency(ctx, waiting, task, true);
  }
  return events;
}
