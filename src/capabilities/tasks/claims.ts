/**
 * Taking a task (docs/tasks.md "Dependencies, taking a task and the ready queue"): why a task is not
 * ready, in words, and what a take
 * writes in one transaction: the claim on the tick clock, the caller's focus, and a lease on the task's
 * first open step. The claim ends when the task is finished (`endClaimOnFinish`), released or expired.
 */
import type { CommandContext } from "../../commands/context";
import { setFocus } from "../../place/focus.store";
import { firstOpenStep } from "../../place/targets";
import { type EntityRow, orderedSteps, type StepRow } from "../../place/targets.store";
import { waitsForLine } from "./dependency-view";
import { emitEvent, projectEntity } from "./ingest";
import { type LeaseRow, leaseHeld, liveLease, nowTick, writeLease } from "./leases.store";
import { blockersOf, type ClaimRow, claimOf, deleteClaim, dependentsOf, FINISHED, nowReady, writeClaim } from "./readiness.store";
import type { TaskEvent } from "./tasks.schema";
import { updateEntity } from "./tasks.store";

/** Tasks waiting on a finished one that its answer names at most (`made_ready`). */
const MAX_MADE_READY = 20;

/** Why `task` is not ready for `caller`, in words, or undefined when it is. */
export function whyNotReady(ctx: CommandContext, task: EntityRow): string | undefined {
  if (task.kind !== "task") return `${task.id} is a plan; take one of its tasks`;
  if (task.status !== "TODO" && task.status !== "ACTIVE") return `${task.id} is ${task.status}`;
  const waits = waitsForLine(blockersOf(ctx.db, task.id));
  if (waits !== undefined) return `${task.id} ${waits}`;
  const blocked = orderedSteps(ctx.db, task.id).find((step) => step.blocked === 1 && step.completed === 0);
  if (blocked !== undefined)
    return `${task.id} has a blocked step, ${blocked.path}${blocked.block_reason ? ` (${blocked.block_reason})` : ""}`;
  const claim = claimOf(ctx.db, task.id);
  if (claim !== undefined && claim.holder !== ctx.principal.agent_id)
    return `${task.id} is taken by ${claim.holder} until tick ${claim.expires_tick}`;
  return undefined;
}

export interface Taken {
  /** The task as it is after the take (a TODO task is ACTIVE now). */
  task: EntityRow;
  claim: ClaimRow;
  lease: (LeaseRow & { path: string }) | null;
  events: TaskEvent[];
}

/**
 * Claims `task` for the caller for `ticks` (a TODO task becomes ACTIVE), sets the caller's focus on it
 * and leases its first open step.
 */
export function take(ctx: CommandContext, taken: EntityRow, ticks: number): Taken {
  let task = taken;
  const step: StepRow | undefined = firstOpenStep(ctx.db, task.id);
  const held = step === undefined ? undefined : liveLease(ctx.db, step.id);
  if (held !== undefined && held.holder !== ctx.principal.agent_id) leaseHeld(held, nowTick(ctx.db));
  const previous = claimOf(ctx.db, task.id);
  // Taken work is under way: a TODO task becomes ACTIVE (in its row and its graph nodes).
  if (task.status === "TODO") {
    task = updateEntity(ctx, task, { status: "ACTIVE" });
    projectEntity(ctx, task);
  }
  const event = emitEvent(ctx, task, {
    type: previous?.holder === ctx.principal.agent_id ? "task_claim_renewed" : "task_taken",
    payload: { holder: ctx.principal.agent_id, ticks, ...(step === undefined ? {} : { step_id: step.id }) },
    summary: `taken by ${ctx.principal.agent_id}`,
  });
  const claim: ClaimRow = {
    task_id: task.id,
    holder: ctx.principal.agent_id,
    acquired_tick: previous?.holder === ctx.principal.agent_id ? previous.acquired_tick : event.tick,
    expires_tick: event.tick + ticks,
  };
  writeClaim(ctx.db, claim);
  setFocus(ctx, task.id);
  if (step === undefined) return { task, claim, lease: null, events: [event] };
  const lease: LeaseRow = {
    step_id: step.id,
    task_id: task.id,
    holder: ctx.principal.agent_id,
    acquired_tick: held?.acquired_tick ?? event.tick,
    expires_tick: event.tick + ticks,
  };
  writeLease(ctx.db, lease);
  return { task, claim, lease: { ...lease, path: step.path }, events: [event] };
}

/**
 * What finishing `task` releases: its claim ends, and the tasks that waited on it and are ready now are
 * named (at most MAX_MADE_READY). Called by every command that finishes a task.
 */
export function endClaimOnFinish(ctx: CommandContext, task: EntityRow): string[] {
  if (!(FINISHED as readonly string[]).includes(task.status)) return [];
  deleteClaim(ctx.db, task.id);
  return nowReady(ctx.db, dependentsOf(ctx.db, task.id, MAX_MADE_READY));
}
