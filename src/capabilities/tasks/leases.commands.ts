/**
 * Step lease commands (DESIGN §6): claim, renew, release and get. The holder is always the
 * authenticated agent; expiry is `expires_tick` on the workspace tick clock (the lease's own event tick
 * plus its length). Claiming a step someone else holds fails STEP_LEASE_HELD unless `force`, which
 * takes it over and journals `step_lease_taken_over`. A holder re-claiming its live lease changes
 * nothing and writes no event.
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { defineCommand } from "../../commands/registry";
import { stepSelectorFields, targetFields } from "../../place/target.schema";
import { resolveStep, resolveTask } from "../../place/targets";
import type { EntityRow, StepRow } from "../../place/targets.store";
import { fail } from "../../shared/errors";
import { emitEvent } from "./ingest";
import {
  DEFAULT_LEASE_TICKS,
  deleteLease,
  type LeaseRow,
  leaseHeld,
  leaseOf,
  liveLease,
  MAX_LEASE_TICKS,
  nowTick,
  writeLease,
} from "./leases.store";
import { claimOf, taskTaken } from "./readiness.store";
import { eventSchema, ticksArg } from "./tasks.schema";
import { updateEntity } from "./tasks.store";

const leaseSchema = z.object({
  step_id: z.string(),
  path: z.string(),
  holder: z.string(),
  acquired_tick: z.number(),
  expires_tick: z.number(),
});

const leaseOutput = {
  task: z.string(),
  step_id: z.string(),
  now_tick: z.number(),
  lease: leaseSchema.nullable(),
  events: z.array(eventSchema),
};

const ticksInput = ticksArg("Lease");

function shown(lease: LeaseRow | undefined, step: StepRow) {
  if (lease === undefined) return null;
  return {
    step_id: lease.step_id,
    path: step.path,
    holder: lease.holder,
    acquired_tick: lease.acquired_tick,
    expires_tick: lease.expires_tick,
  };
}

interface LeaseCall {
  task: EntityRow;
  step: StepRow;
}

function leaseCall(
  ctx: CommandContext,
  args: Parameters<typeof resolveTask>[1] & Parameters<typeof resolveStep>[2],
  tool: string,
): LeaseCall {
  const task = resolveTask(ctx, args, tool);
  return { task, step: resolveStep(ctx.db, task, args) };
}

/** Emits a lease event and stores the lease with its expiry counted from the event's tick. */
function grant(ctx: CommandContext, call: LeaseCall, type: string, ticks: number, payload: Record<string, unknown>, acquiredTick?: number) {
  const task = updateEntity(ctx, call.task, {});
  const event = emitEvent(ctx, task, {
    type,
    path: call.step.path,
    payload: { step_id: call.step.id, ticks, ...payload },
    summary: `${type} by ${ctx.principal.agent_id}`,
  });
  const lease: LeaseRow = {
    step_id: call.step.id,
    task_id: task.id,
    holder: ctx.principal.agent_id,
    acquired_tick: acquiredTick ?? event.tick,
    expires_tick: event.tick + ticks,
  };
  writeLease(ctx.db, lease);
  return { task: task.id, step_id: call.step.id, now_tick: nowTick(ctx.db), lease: shown(lease, call.step), events: [event] };
}

function notHeld(ctx: CommandContext, step: StepRow, lease: LeaseRow | undefined): never {
  fail(
    "STEP_LEASE_NOT_HELD",
    lease === undefined
      ? `You hold no live lease on step ${step.path} (${step.id}).`
      : `Step ${step.path} is leased by ${lease.holder}, not you.`,
    "Claim the step first with tasks_step_lease_claim.",
    { step_id: step.id, holder: lease?.holder ?? null, agent: ctx.principal.agent_id },
  );
}

export const tasksStepLeaseClaim = defineCommand({
  name: "tasks.step.lease.claim",
  tool: "tasks_step_lease_claim",
  title: "Claim a step",
  description: `Lease a step to yourself so that other agents' mutations of it fail STEP_LEASE_HELD until you release it or it expires (ticks, default ${DEFAULT_LEASE_TICKS}, at most ${MAX_LEASE_TICKS}). Re-claiming your own live lease changes nothing; force: true takes over another agent's lease (journaled).`,
  kind: "write",
  example: { target: "TASK-001", step: "focus" },
  input: { ...targetFields, ...stepSelectorFields, ticks: ticksInput, force: z.boolean().default(false) },
  output: leaseOutput,
  handler: (ctx, args) => {
    const call = leaseCall(ctx, args, "tasks_step_lease_claim");
    // A task another agent has taken is theirs, step by step: force does not override a claim.
    const claim = claimOf(ctx.db, call.task.id);
    if (claim !== undefined && claim.holder !== ctx.principal.agent_id) taskTaken(claim, nowTick(ctx.db));
    const current = liveLease(ctx.db, call.step.id);
    if (current?.holder === ctx.principal.agent_id) {
      return { task: call.task.id, step_id: call.step.id, now_tick: nowTick(ctx.db), lease: shown(current, call.step), events: [] };
    }
    if (current && !args.force) leaseHeld(current, nowTick(ctx.db));
    if (current) return grant(ctx, call, "step_lease_taken_over", args.ticks, { previous_holder: current.holder });
    return grant(ctx, call, "step_lease_claimed", args.ticks, {});
  },
});

export const tasksStepLeaseRenew = defineCommand({
  name: "tasks.step.lease.renew",
  tool: "tasks_step_lease_renew",
  title: "Renew a step lease",
  description:
    "Extend your live lease on a step: it then expires `ticks` after the renewal. STEP_LEASE_NOT_HELD when you hold no live lease on it.",
  kind: "write",
  example: { target: "TASK-001", step: "focus" },
  input: { ...targetFields, ...stepSelectorFields, ticks: ticksInput },
  output: leaseOutput,
  handler: (ctx, args) => {
    const call = leaseCall(ctx, args, "tasks_step_lease_renew");
    const current = liveLease(ctx.db, call.step.id);
    if (current?.holder !== ctx.principal.agent_id) notHeld(ctx, call.step, current);
    return grant(ctx, call, "step_lease_renewed", args.ticks, {}, current.acquired_tick);
  },
});

export const tasksStepLeaseRelease = defineCommand({
  name: "tasks.step.lease.release",
  tool: "tasks_step_lease_release",
  title: "Release a step lease",
  description: "Give up your live lease on a step. STEP_LEASE_NOT_HELD when you hold none.",
  kind: "write",
  example: { target: "TASK-001", step: "focus" },
  input: { ...targetFields, ...stepSelectorFields },
  output: leaseOutput,
  handler: (ctx, args) => {
    const call = leaseCall(ctx, args, "tasks_step_lease_release");
    const current = liveLease(ctx.db, call.step.id);
    if (current?.holder !== ctx.principal.agent_id) notHeld(ctx, call.step, current);
    deleteLease(ctx.db, call.step.id);
    const task = updateEntity(ctx, call.task, {});
    const event = emitEvent(ctx, task, {
      type: "step_lease_released",
      path: call.step.path,
      payload: { step_id: call.step.id },
      summary: `released by ${ctx.principal.agent_id}`,
    });
    return { task: task.id, step_id: call.step.id, now_tick: nowTick(ctx.db), lease: null, events: [event] };
  },
});

export const tasksStepLeaseGet = defineCommand({
  name: "tasks.step.lease.get",
  tool: "tasks_step_lease_get",
  title: "Who holds a step",
  description: "A step's live lease (holder, acquired_tick, expires_tick) or null, and the workspace's current tick.",
  kind: "read",
  example: { target: "TASK-001", step: "focus" },
  input: { ...targetFields, ...stepSelectorFields },
  output: { task: z.string(), step_id: z.string(), now_tick: z.number(), lease: leaseSchema.nullable(), expired: leaseSchema.optional() },
  handler: (ctx, args) => {
    const call = leaseCall(ctx, args, "tasks_step_lease_get");
    const stored = leaseOf(ctx.db, call.step.id);
    const live = liveLease(ctx.db, call.step.id);
    const expired = stored !== undefined && live === undefined ? shown(stored, call.step) : null;
    return {
      task: call.task.id,
      step_id: call.step.id,
      now_tick: nowTick(ctx.db),
      lease: shown(live, call.step),
      ...(expired ? { expired } : {}),
    };
  },
});
