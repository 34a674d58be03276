/**
 * Storage of a task's steps (migration 0004): ids from the `step` clock, step paths made of
 * never-reused ordinals (`s:0.s:1`), inserts and updates of whole rows, subtree deletes, and rows to
 * the domain's step shape (finding a step and tree order are the place module's:
 * src/place/targets.store.ts). Every function runs inside the caller's transaction; nothing
 * here journals or ingests.
 */
import type { CommandContext } from "../../commands/context";
import { MAX_STEPS_PER_TASK, STEP_COLUMNS, type StepRow, stepsOf } from "../../place/targets.store";
import { fail } from "../../shared/errors";
import { advance } from "../../storage/clocks";
import type { Db } from "../../storage/db";
import { CHECKPOINTS, type NewStep, PROOF_CHECKPOINTS, type Step } from "./tasks.schema";

function stepId(n: number): string {
  return `STEP-${n.toString(16).toUpperCase().padStart(8, "0")}`;
}

/** `["None"]` (the original's "no blockers") is stored as an empty list. */
function blockerList(blockers: string[] | undefined): string[] {
  const list = blockers ?? [];
  return list.length === 1 && list[0]?.trim().toLowerCase() === "none" ? [] : list;
}

/** Adds steps under `parent` (or at the top), after the existing siblings. */
export function insertSteps(ctx: CommandContext, taskId: string, parent: StepRow | undefined, steps: NewStep[]): StepRow[] {
  const existing = ctx.db.one<{ n: number }>("SELECT COUNT(*) AS n FROM steps WHERE task_id = ?", taskId)?.n ?? 0;
  if (existing + steps.length > MAX_STEPS_PER_TASK) {
    fail(
      "INVALID_INPUT",
      `${taskId} would have ${existing + steps.length} steps; a task holds at most ${MAX_STEPS_PER_TASK}.`,
      "Split the work into several tasks of the plan.",
      { task: taskId, steps: existing, adding: steps.length, max_steps: MAX_STEPS_PER_TASK },
    );
  }
  const parentKey = parent?.id ?? "";
  let ordinal =
    ctx.db.one<{ next_ordinal: number }>(
      "SELECT next_ordinal FROM step_ordinals WHERE task_id = ? AND parent_step_id = ?",
      taskId,
      parentKey,
    )?.next_ordinal ?? 0;
  ctx.db.run(
    `INSERT INTO step_ordinals (task_id, parent_step_id, next_ordinal) VALUES (?, ?, ?)
     ON CONFLICT (task_id, parent_step_id) DO UPDATE SET next_ordinal = excluded.next_ordinal`,
    taskId,
    parentKey,
    ordinal + steps.length,
  );
  return steps.map((step) => {
    const row: StepRow = {
      id: stepId(advance(ctx.db, "step")),
      task_id: taskId,
      parent_step_id: parent?.id ?? null,
      ordinal,
      path: parent ? `${parent.path}.s:${ordinal}` : `s:${ordinal}`,
      title: step.title,
      next_action: step.next_action ?? null,
      stop_criteria: null,
      success_criteria_json: JSON.stringify(step.success_criteria ?? []),
      tests_json: JSON.stringify(step.tests ?? []),
      blockers_json: JSON.stringify(blockerList(step.blockers)),
      completed: 0,
      completed_at_ms: null,
      blocked: 0,
      block_reason: null,
      criteria_confirmed: 0,
      tests_confirmed: 0,
      security_confirmed: 0,
      perf_confirmed: 0,
      docs_confirmed: 0,
      proof_tests_mode: "off",
      proof_security_mode: "off",
      proof_perf_mode: "off",
      proof_docs_mode: "off",
      created_at_ms: ctx.nowMs,
      updated_at_ms: ctx.nowMs,
    };
    ordinal++;
    writeStep(ctx.db, row, true);
    return row;
  });
}

/** Inserts a new step row or rewrites an existing one. */
export function writeStep(db: Db, row: StepRow, isNew = false): void {
  const values = [
    row.id,
    row.task_id,
    row.parent_step_id,
    row.ordinal,
    row.path,
    row.title,
    row.next_action,
    row.stop_criteria,
    row.success_criteria_json,
    row.tests_json,
    row.blockers_json,
    row.completed,
    row.completed_at_ms,
    row.blocked,
    row.block_reason,
    row.criteria_confirmed,
    row.tests_confirmed,
    row.security_confirmed,
    row.perf_confirmed,
    row.docs_confirmed,
    row.proof_tests_mode,
    row.proof_security_mode,
    row.proof_perf_mode,
    row.proof_docs_mode,
    row.created_at_ms,
    row.updated_at_ms,
  ];
  const placeholders = values.map(() => "?").join(", ");
  db.run(`${isNew ? "INSERT" : "REPLACE"} INTO steps (${STEP_COLUMNS}) VALUES (${placeholders})`, ...values);
}

/** A step and its descendants. */
export function subtreeOf(db: Db, step: StepRow): StepRow[] {
  return stepsOf(db, step.task_id).filter((row) => row.path === step.path || row.path.startsWith(`${step.path}.`));
}

/** Deletes a step and its descendants (and their proofs and leases); returns the deleted rows. */
export function deleteStepTree(db: Db, step: StepRow): StepRow[] {
  const doomed = subtreeOf(db, step);
  const ids = JSON.stringify(doomed.map((row) => row.id));
  db.run("DELETE FROM task_proofs WHERE step_id IN (SELECT value FROM json_each(?))", ids);
  db.run("DELETE FROM step_leases WHERE step_id IN (SELECT value FROM json_each(?))", ids);
  db.run("DELETE FROM step_ordinals WHERE task_id = ? AND parent_step_id IN (SELECT value FROM json_each(?))", step.task_id, ids);
  // Children first: a parent's row is referenced by its children.
  for (const row of [...doomed].sort((a, b) => b.path.length - a.path.length)) db.run("DELETE FROM steps WHERE id = ?", row.id);
  return doomed;
}

/** Deletes a task with its steps, proofs and focus rows. */
export function deleteTask(db: Db, taskId: string): StepRow[] {
  const steps = stepsOf(db, taskId);
  db.run("DELETE FROM task_proofs WHERE task_id = ?", taskId);
  db.run("DELETE FROM step_leases WHERE task_id = ?", taskId);
  db.run("DELETE FROM step_ordinals WHERE task_id = ?", taskId);
  for (const row of [...steps].sort((a, b) => b.path.length - a.path.length)) db.run("DELETE FROM steps WHERE id = ?", row.id);
  db.run("DELETE FROM focus WHERE target_id = ?", taskId);
  db.run("DELETE FROM tasks WHERE id = ?", taskId);
  return steps;
}

export function toStep(row: StepRow): Step {
  const step: Step = {
    id: row.id,
    path: row.path,
    title: row.title,
    success_criteria: JSON.parse(row.success_criteria_json) as string[],
    tests: JSON.parse(row.tests_json) as string[],
    blockers: JSON.parse(row.blockers_json) as string[],
    completed: row.completed === 1,
    blocked: row.blocked === 1,
    checkpoints: Object.fromEntries(CHECKPOINTS.map((name) => [name, row[`${name}_confirmed`] === 1])),
    proof_modes: Object.fromEntries(PROOF_CHECKPOINTS.map((name) => [name, row[`proof_${name}_mode`]])),
  };
  if (row.parent_step_id !== null) step.parent_step_id = row.parent_step_id;
  if (row.next_action !== null) step.next_action = row.next_action;
  if (row.stop_criteria !== null) step.stop_criteria = row.stop_criteria;
  if (row.completed_at_ms !== null) step.completed_at_ms = row.completed_at_ms;
  if (row.block_reason !== null) step.block_reason = row.block_reason;
  return step;
}
