/**
 * Closing a step, and the step writes the step commands share: commit a changed step (revision bump,
 * events, projection), apply checkpoint confirmations, and the completion gates (checkpoints, proof,
 * strict mode). `closeStep` confirms and closes in one go; used by `tasks_close_step` (steps.commands.ts)
 * and `tasks_macro_close_step` (macros.commands.ts).
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import type { EntityRow, StepRow } from "../../place/targets.store";
import { fail } from "../../shared/errors";
import type { Warning } from "../../shared/result";
import { emitEvent, projectEntity } from "./ingest";
import { checkCloseGates, proofSummary } from "./proof";
import { toStep, writeStep } from "./steps.store";
import { type Override, strictGate } from "./strict";
import { CHECKPOINTS, type Checkpoint, type TaskEvent } from "./tasks.schema";
import { updateEntity } from "./tasks.store";

export interface StepCall {
  task: EntityRow;
  step: StepRow;
}

/** Saves the step, bumps the task's revision, emits the events, refreshes the projection. */
export function commitStep(
  ctx: CommandContext,
  call: StepCall,
  next: StepRow,
  events: { type: string; payload: Record<string, unknown>; summary: string }[],
) {
  writeStep(ctx.db, { ...next, updated_at_ms: ctx.nowMs });
  const task = updateEntity(ctx, call.task, {});
  const emitted: TaskEvent[] = events.map((event) => emitEvent(ctx, task, { ...event, path: next.path }));
  projectEntity(ctx, task, [next]);
  return { task: task.id, revision: task.revision, step: toStep(next), events: emitted };
}

export function applyCheckpoints(
  step: StepRow,
  checkpoints: Partial<Record<Checkpoint, { confirmed: boolean } | undefined>>,
): { next: StepRow; changed: string[] } {
  const next: StepRow = { ...step };
  const changed: string[] = [];
  for (const name of CHECKPOINTS) {
    const value = checkpoints[name];
    if (value === undefined) continue;
    next[`${name}_confirmed`] = value.confirmed ? 1 : 0;
    changed.push(`${name}=${value.confirmed}`);
  }
  return { next, changed };
}

export function completeStep(
  ctx: CommandContext,
  task: EntityRow,
  step: StepRow,
  override: Override,
): { next: StepRow; warnings: Warning[] } {
  if (step.completed === 1)
    fail("INVALID_INPUT", `Step ${step.path} is already completed.`, 'Pick the next open step (`step: "focus"`).', { step_id: step.id });
  const warnings = [...checkCloseGates(step, proofSummary(ctx.db, step)), ...strictGate(ctx, task, step, override)];
  return { next: { ...step, completed: 1, completed_at_ms: ctx.nowMs, blocked: 0, block_reason: null }, warnings };
}

/**
 * Which checkpoints a close confirms: "gate" (criteria + tests), "all", or an object naming some of them
 * (`{criteria: true}`): the ones left out stay as they are (an earlier tasks_verify is not undone).
 */
export const closeCheckpointsSchema = z.union([z.enum(["gate", "all"]), z.partialRecord(z.enum(CHECKPOINTS), z.boolean())], {
  error: `expected "gate", "all", or an object of checkpoints to confirm such as {criteria: true} (names: ${CHECKPOINTS.join(", ")})`,
});

/** Confirms the named checkpoints and closes the step atomically (step_verified, step_done). */
export function closeStep(ctx: CommandContext, call: StepCall, checkpoints: z.infer<typeof closeCheckpointsSchema>, override?: Override) {
  const names: Checkpoint[] =
    checkpoints === "gate"
      ? ["criteria", "tests"]
      : checkpoints === "all"
        ? [...CHECKPOINTS]
        : CHECKPOINTS.filter((name) => (checkpoints as Record<string, boolean>)[name] === true);
  const verified = applyCheckpoints(call.step, Object.fromEntries(names.map((name) => [name, { confirmed: true }])));
  const { next, warnings } = completeStep(ctx, call.task, verified.next, override);
  for (const warning of warnings) ctx.warn(warning);
  return commitStep(ctx, call, next, [
    { type: "step_verified", payload: { step_id: next.id, checkpoints: verified.changed }, summary: verified.changed.join(", ") },
    { type: "step_done", payload: { step_id: next.id }, summary: next.title },
  ]);
}
