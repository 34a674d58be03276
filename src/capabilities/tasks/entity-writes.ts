/**
 * The entity writes that more than one command performs: create a plan or task (with its steps, events
 * and projections) and finish one (DONE, PARKED or CANCELED, gated on open steps). Shared by the plan
 * and task commands (tasks.commands.ts) and the macros (macros.commands.ts).
 */
import type { CommandContext } from "../../commands/context";
import type { ProofMode } from "../../place/target.schema";
import { type EntityRow, orderedSteps, type StepRow } from "../../place/targets.store";
import { fail } from "../../shared/errors";
import { suggest } from "../../shared/suggestion";
import { endClaimOnFinish } from "./claims";
import { emitEvent, projectEntity, projectIntoPlan } from "./ingest";
import { insertSteps, writeStep } from "./steps.store";
import type { NewStep, ProofCheckpoint, TaskEvent } from "./tasks.schema";
import { insertEntity, type NewEntity, updateEntity } from "./tasks.store";

/**
 * Creates a plan or a task (with steps, each optionally with proof modes), emits its events and
 * projects it (into its plan's graph too). Shared by tasks_create and tasks_macro_start.
 */
export function createEntity(
  ctx: CommandContext,
  fields: NewEntity,
  plan: EntityRow | undefined,
  newSteps: (NewStep & { proof_modes?: Partial<Record<ProofCheckpoint, ProofMode>> | undefined })[],
): { entity: EntityRow; steps: StepRow[]; events: TaskEvent[] } {
  const entity = insertEntity(ctx, fields);
  const events: TaskEvent[] = [
    emitEvent(ctx, entity, {
      type: entity.kind === "plan" ? "plan_created" : "task_created",
      payload: { title: entity.title, ...(plan ? { plan_id: plan.id } : {}) },
      summary: entity.title,
    }),
  ];
  const steps = newSteps.length > 0 ? insertSteps(ctx, entity.id, undefined, newSteps) : [];
  steps.forEach((step, index) => {
    const modes = newSteps[index]?.proof_modes;
    if (modes === undefined) return;
    for (const [name, mode] of Object.entries(modes)) step[`proof_${name as ProofCheckpoint}_mode`] = mode;
    writeStep(ctx.db, step);
  });
  if (steps.length > 0) {
    events.push(
      emitEvent(ctx, entity, {
        type: "steps_added",
        payload: { steps: steps.map((step) => ({ id: step.id, path: step.path, title: step.title })) },
        summary: `${steps.length} step(s)`,
      }),
    );
  }
  projectEntity(ctx, entity, steps);
  if (plan) projectIntoPlan(ctx, plan, entity);
  return { entity, steps, events };
}

/**
 * Sets a final or parked status (DONE needs every step of a task completed), emits task_completed. A
 * finished task's claim ends, and `made_ready` names the tasks that waited on it and are ready now.
 */
export function finishEntity(ctx: CommandContext, entity: EntityRow, status: "DONE" | "PARKED" | "CANCELED", parkedUntil: number | null) {
  if (status === "DONE" && entity.kind === "task") {
    const open = orderedSteps(ctx.db, entity.id).filter((step) => step.completed === 0);
    if (open.length > 0) {
      fail(
        "INVALID_INPUT",
        `${entity.id} has ${open.length} open step(s) (first: ${open[0]?.path}); a task is DONE when all its steps are.`,
        "Close the open steps (`tasks_close_step` or `tasks_macro_close_step`), or park or cancel the task instead.",
        { task: entity.id, open: open.slice(0, 10).map((step) => ({ id: step.id, path: step.path })) },
        [suggest("tasks_macro_close_step", { task: entity.id }, "Close the next open step.")],
      );
    }
  }
  const next = updateEntity(ctx, entity, { status, parked_until_ms: status === "PARKED" ? parkedUntil : null });
  const event = emitEvent(ctx, next, {
    type: "task_completed",
    payload: { status: next.status, ...(next.parked_until_ms !== null ? { parked_until_ms: next.parked_until_ms } : {}) },
    summary: `status ${next.status}`,
  });
  projectEntity(ctx, next);
  return { next, event, made_ready: endClaimOnFinish(ctx, next) };
}
