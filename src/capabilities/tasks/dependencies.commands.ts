/**
 * `tasks_dependency_add` and `tasks_dependency_remove`: one task waits for others, or stops waiting
 * (dependencies.ts does the checks and the writes). `tasks_create` and `tasks_edit` take `blocked_by`
 * for the same thing at once.
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { targetFields } from "../../place/target.schema";
import { resolveTask } from "../../place/targets";
import { addBlockers, blockedByArg, blockerSchema, removeBlockers } from "./dependencies";
import { blockersOf, MAX_BLOCKERS } from "./readiness.store";
import { eventSchema } from "./tasks.schema";

const dependencyOutput = {
  task: z.string(),
  blocked_by: z.array(blockerSchema).describe("Everything the task waits for now, finished or not."),
  waiting: z.boolean().describe("True while one of them is unfinished."),
  events: z.array(eventSchema),
};

function answer(ctx: Parameters<typeof resolveTask>[0], task: string, events: z.infer<typeof eventSchema>[]) {
  const blocked = blockersOf(ctx.db, task);
  return { task, blocked_by: blocked, waiting: blocked.some((blocker) => !blocker.finished), events };
}

export const tasksDependencyAdd = defineCommand({
  name: "tasks.dependency.add",
  tool: "tasks_dependency_add",
  title: "Make a task wait for others",
  description: `The task (default: your focus) waits for each task of blocked_by until it is DONE or CANCELED; while it waits it is not ready (tasks_ready). A cycle is refused (INVALID_INPUT names it); at most ${MAX_BLOCKERS} per task.`,
  kind: "write",
  idempotent: true,
  example: { task: "TASK-003", blocked_by: ["TASK-001"] },
  input: { ...targetFields, blocked_by: blockedByArg.min(1) },
  output: dependencyOutput,
  handler: (ctx, args) => {
    const task = resolveTask(ctx, args, "tasks_dependency_add");
    return answer(ctx, task.id, addBlockers(ctx, task, args.blocked_by));
  },
});

export const tasksDependencyRemove = defineCommand({
  name: "tasks.dependency.remove",
  tool: "tasks_dependency_remove",
  title: "Stop a task waiting for others",
  description:
    "The task (default: your focus) no longer waits for the tasks of blocked_by. Naming one it does not wait for changes nothing.",
  kind: "write",
  idempotent: true,
  example: { task: "TASK-003", blocked_by: ["TASK-001"] },
  input: { ...targetFields, blocked_by: blockedByArg.min(1) },
  output: dependencyOutput,
  handler: (ctx, args) => {
    const task = resolveTask(ctx, args, "tasks_dependency_remove");
    return answer(ctx, task.id, removeBlockers(ctx, task, args.blocked_by));
  },
});
