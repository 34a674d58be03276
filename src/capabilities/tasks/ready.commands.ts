/**
 * The ready queue and taking a task for a team of agents (docs/tasks.md "Dependencies, taking a task
 * and the ready queue"): `tasks_ready` lists the tasks one could start now (workable, waiting on nothing
 * unfinished, no step marked blocked, held by nobody else) by priority then id; `tasks_take` takes the
 * first of them, or a named one, in one transaction (claim, focus, lease on the first open step);
 * `tasks_claim_renew` and `tasks_claim_release` keep or end the claim, like step leases.
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { defineCommand } from "../../commands/registry";
import { focusOf } from "../../place/focus.store";
import { planIdSchema, taskIdSchema } from "../../place/target.schema";
import { type EntityRow, findEntity, requireEntity } from "../../place/targets.store";
import { fail } from "../../shared/errors";
import { keyedPageBudget, keyedPaginationSchema } from "../../shared/keyed-page";
import { suggest } from "../../shared/suggestion";
import { take, whyNotReady } from "./claims";
import { emitEvent } from "./ingest";
import { DEFAULT_LEASE_TICKS, nowTick } from "./leases.store";
import { claimOf, deleteClaim, isReadyFor, queuePlace, type ReadyCursor, readyPage } from "./readiness.store";
import { firstTakeable, waitingTasks } from "./ready-work";
import { eventSchema, ticksArg } from "./tasks.schema";

const DEFAULT_READY_LIMIT = 20;
const MAX_READY_LIMIT = 100;
/** Waiting tasks an empty queue describes at most. */
const WAITING_SHOWN = 3;

const ticksInput = ticksArg("Claim");

const readyItemSchema = z.object({
  id: z.string(),
  title: z.string(),
  plan_id: z.string(),
  status: z.string(),
  priority: z.string(),
  held_by_you: z.boolean().describe("You have taken it (still ready for you)."),
});
const waitingSchema = z.object({ id: z.string(), title: z.string(), waits_for: z.array(z.string()) });
const claimSchema = z.object({ task: z.string(), holder: z.string(), acquired_tick: z.number(), expires_tick: z.number() });

function item(ctx: CommandContext, entity: EntityRow, holder: string | null) {
  return {
    id: entity.id,
    title: entity.title,
    plan_id: entity.plan_id ?? "",
    status: entity.status,
    priority: entity.priority,
    held_by_you: holder === ctx.principal.agent_id,
  };
}

/** A page resumes after the task its cursor names, at that task's place in the queue now. */
function cursorOf(ctx: CommandContext, taskId: string | undefined): ReadyCursor | undefined {
  if (taskId === undefined) return undefined;
  const place = queuePlace(ctx.db, taskId);
  if (place === undefined) {
    fail("INVALID_CURSOR", `No task ${taskId} to resume after (deleted?).`, "Start again without cursor.", {
      field: "cursor",
      cursor: taskId,
    });
  }
  return place;
}

export const tasksReady = defineCommand({
  name: "tasks.ready",
  tool: "tasks_ready",
  title: "Tasks ready to start",
  description:
    "Tasks you could start now: TODO or ACTIVE, waiting on no unfinished task, no step marked blocked, not taken by another agent. By priority (HIGH first), then id; optional plan filter; paged. When none is, `waiting` says what the first waiting tasks wait for. Take one with tasks_take.",
  kind: "read",
  budget: keyedPageBudget("items", "id"),
  input: {
    plan: planIdSchema.optional().describe("Only this plan's tasks."),
    limit: z.number().int().min(1).max(MAX_READY_LIMIT).default(DEFAULT_READY_LIMIT),
    cursor: taskIdSchema.optional().describe("pagination.next_cursor of the previous page: the last task it showed."),
  },
  output: {
    items: z.array(readyItemSchema),
    pagination: keyedPaginationSchema,
    waiting: z.array(waitingSchema).optional().describe("When nothing is ready: the first waiting tasks and what each waits for."),
    now_tick: z.number(),
  },
  handler: (ctx, args) => {
    const rows = readyPage(ctx.db, ctx.principal.agent_id, args.plan, cursorOf(ctx, args.cursor), args.limit + 1);
    const page = rows.slice(0, args.limit);
    const last = page.at(-1);
    const items = page.flatMap((row) => {
      const entity = findEntity(ctx.db, row.task_id);
      return entity === undefined ? [] : [item(ctx, entity, row.holder)];
    });
    const hasMore = rows.length > args.limit && last !== undefined;
    const empty = items.length === 0 && args.cursor === undefined;
    return {
      items,
      pagination: {
        cursor: args.cursor ?? null,
        limit: args.limit,
        count: items.length,
        has_more: hasMore,
        ...(hasMore ? { next_cursor: last.task_id } : {}),
      },
      ...(empty ? { waiting: waitingTasks(ctx, WAITING_SHOWN, args.plan) } : {}),
      now_tick: nowTick(ctx.db),
    };
  },
});

function notReady(ctx: CommandContext, message: string, id: string | undefined, plan: string | undefined): never {
  const next = firstTakeable(ctx, plan);
  fail(
    "TASK_NOT_READY",
    message,
    next === undefined
      ? "No task is ready now: tasks_ready says what the waiting tasks wait for."
      : `Take the next ready task, ${next.id}, or list them with tasks_ready.`,
    { ...(id === undefined ? {} : { task: id }), next_ready: next?.id ?? null },
    [
      next === undefined
        ? suggest("tasks.ready", plan === undefined ? {} : { plan }, "See what is waiting, and on what.")
        : suggest("tasks.take", { task: next.id }, `Take ${next.id}, the next ready task.`),
    ],
  );
}

export const tasksTake = defineCommand({
  name: "tasks.take",
  tool: "tasks_take",
  title: "Take a ready task",
  description: `Take the first ready task (or the one named, or the first of a plan) in one step: a claim on the whole task for ticks (default ${DEFAULT_LEASE_TICKS}) that refuses other agents' step writes, your focus on it, and a lease on its first open step. TASK_NOT_READY when it is no longer ready, with the next ready task as its action.`,
  kind: "write",
  input: {
    task: taskIdSchema.optional().describe("The task to take; default: the first ready one."),
    plan: planIdSchema.optional().describe("Take the first ready task of this plan."),
    ticks: ticksInput,
  },
  output: {
    task: z.object({ id: z.string(), title: z.string(), plan_id: z.string(), status: z.string() }),
    claim: claimSchema,
    focus: z.string(),
    lease: z.object({ step_id: z.string(), path: z.string(), expires_tick: z.number() }).nullable(),
    events: z.array(eventSchema),
  },
  handler: (ctx, args) => {
    let task: EntityRow | undefined;
    if (args.task !== undefined) {
      task = requireEntity(ctx.db, args.task);
      const why = isReadyFor(ctx.db, task.id, ctx.principal.agent_id) ? undefined : (whyNotReady(ctx, task) ?? `${task.id} is not ready`);
      if (why !== undefined) notReady(ctx, `${why}: it cannot be taken now.`, task.id, args.plan);
    } else {
      task = firstTakeable(ctx, args.plan);
      if (task === undefined) notReady(ctx, `No task is ready${args.plan === undefined ? "" : ` in ${args.plan}`}.`, undefined, args.plan);
    }
    const taken = take(ctx, task, args.ticks);
    const now = taken.task;
    return {
      task: { id: now.id, title: now.title, plan_id: now.plan_id ?? "", status: now.status },
      claim: {
        task: task.id,
        holder: taken.claim.holder,
        acquired_tick: taken.claim.acquired_tick,
        expires_tick: taken.claim.expires_tick,
      },
      focus: task.id,
      lease: taken.lease === null ? null : { step_id: taken.lease.step_id, path: taken.lease.path, expires_tick: taken.lease.expires_tick },
      events: taken.events,
    };
  },
});

/** The task a claim command acts on: the one named, else the caller's focus. */
function claimedTask(ctx: CommandContext, task: string | undefined, tool: string) {
  const id = task ?? focusOf(ctx.db, ctx.principal.agent_id);
  if (id === undefined)
    fail("INVALID_INPUT", `${tool} needs a task: pass task, or take one first.`, "Pass task (TASK-###).", { field: "task" });
  const entity = requireEntity(ctx.db, id);
  const claim = claimOf(ctx.db, entity.id);
  if (claim?.holder !== ctx.principal.agent_id) {
    fail(
      "TASK_CLAIM_NOT_HELD",
      claim === undefined
        ? `You have not taken ${entity.id} (or your claim expired).`
        : `${entity.id} is taken by ${claim.holder}, not you.`,
      "Take it with tasks_take when it is ready.",
      { task: entity.id, holder: claim?.holder ?? null },
      [suggest("tasks.ready", {}, "See which tasks are ready.")],
    );
  }
  return { entity, claim };
}

export const tasksClaimRenew = defineCommand({
  name: "tasks.claim.renew",
  tool: "tasks_claim_renew",
  title: "Renew a task claim",
  description:
    "Extend your claim on a task you have taken (default: your focus), and the lease on its first open step: both then expire `ticks` after the renewal.",
  kind: "write",
  input: { task: taskIdSchema.optional(), ticks: ticksInput },
  output: { claim: claimSchema, events: z.array(eventSchema) },
  handler: (ctx, args) => {
    const { entity } = claimedTask(ctx, args.task, "tasks_claim_renew");
    const taken = take(ctx, entity, args.ticks);
    const { claim } = taken;
    return {
      claim: { task: entity.id, holder: claim.holder, acquired_tick: claim.acquired_tick, expires_tick: claim.expires_tick },
      events: taken.events,
    };
  },
});

export const tasksClaimRelease = defineCommand({
  name: "tasks.claim.release",
  tool: "tasks_claim_release",
  title: "Release a task claim",
  description:
    "Give up a task you have taken (default: your focus): others may take it and write to its steps. Your step leases stay until you release them or they expire.",
  kind: "write",
  input: { task: taskIdSchema.optional() },
  output: { task: z.string(), released: z.boolean(), events: z.array(eventSchema) },
  handler: (ctx, args) => {
    const { entity } = claimedTask(ctx, args.task, "tasks_claim_release");
    deleteClaim(ctx.db, entity.id);
    const event = emitEvent(ctx, entity, {
      type: "task_released",
      payload: { holder: ctx.principal.agent_id },
      summary: `released by ${ctx.principal.agent_id}`,
    });
    return { task: entity.id, released: true, events: [event] };
  },
});
