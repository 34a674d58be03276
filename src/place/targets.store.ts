/**
 * The rows a target names: a plan or task (`tasks`, migration 0004) and a task's steps, looked up by
 * id or path. Target resolution, reasoning refs and every capability that is aimed at a plan, task or
 * step read them here; the tasks capability writes them (its stores use these columns).
 */
import { fail } from "../shared/errors";
import { suggest } from "../shared/suggestion";
import type { Db } from "../storage/db";
import type { ProofMode, TaskStatus } from "./target.schema";

export interface EntityRow {
  id: string;
  kind: "plan" | "task";
  plan_id: string | null;
  title: string;
  description: string | null;
  context: string | null;
  contract: string | null;
  status: TaskStatus;
  priority: "LOW" | "MEDIUM" | "HIGH";
  tags_json: string;
  parked_until_ms: number | null;
  reasoning_mode: "normal" | "strict";
  revision: number;
  created_at_ms: number;
  updated_at_ms: number;
  created_by: string;
}

export const ENTITY_COLUMNS =
  "id, kind, plan_id, title, description, context, contract, status, priority, tags_json, parked_until_ms, reasoning_mode, revision, created_at_ms, updated_at_ms, created_by";

export function findEntity(db: Db, id: string): EntityRow | undefined {
  return db.one<EntityRow & Record<string, string | number | null>>(`SELECT ${ENTITY_COLUMNS} FROM tasks WHERE id = ?`, id);
}

export function requireEntity(db: Db, id: string): EntityRow {
  const row = findEntity(db, id);
  if (!row) {
    fail(
      "UNKNOWN_ID",
      `No plan or task ${id} in this workspace.`,
      "List the plans and tasks (tasks.context) and use one of their ids.",
      { id },
      [suggest("tasks.context", {}, "List the plans and tasks of this workspace")],
    );
  }
  return row;
}

/** Steps of one task at most (a task is a unit of work, not a backlog). */
export const MAX_STEPS_PER_TASK = 1_000;

export interface StepRow {
  id: string;
  task_id: string;
  parent_step_id: string | null;
  ordinal: number;
  path: string;
  title: string;
  next_action: string | null;
  stop_criteria: string | null;
  success_criteria_json: string;
  tests_json: string;
  blockers_json: string;
  completed: number;
  completed_at_ms: number | null;
  blocked: number;
  block_reason: string | null;
  criteria_confirmed: number;
  tests_confirmed: number;
  security_confirmed: number;
  perf_confirmed: number;
  docs_confirmed: number;
  proof_tests_mode: ProofMode;
  proof_security_mode: ProofMode;
  proof_perf_mode: ProofMode;
  proof_docs_mode: ProofMode;
  created_at_ms: number;
  updated_at_ms: number;
}

export const STEP_COLUMNS =
  "id, task_id, parent_step_id, ordinal, path, title, next_action, stop_criteria, success_criteria_json, tests_json, blockers_json, completed, completed_at_ms, blocked, block_reason, criteria_confirmed, tests_confirmed, security_confirmed, perf_confirmed, docs_confirmed, proof_tests_mode, proof_security_mode, proof_perf_mode, proof_docs_mode, created_at_ms, updated_at_ms";

export function stepsOf(db: Db, taskId: string): StepRow[] {
  return db.all<StepRow & Record<string, string | number | null>>(
    `SELECT ${STEP_COLUMNS} FROM steps WHERE task_id = ? ORDER BY path LIMIT ${MAX_STEPS_PER_TASK}`,
    taskId,
  );
}

/** Steps in tree order: a parent before its children, siblings by ordinal. */
export function orderedSteps(db: Db, taskId: string): StepRow[] {
  const rows = stepsOf(db, taskId);
  const key = (path: string) => path.split(".").map((part) => Number(part.slice(2)));
  return rows.sort((a, b) => {
    const ka = key(a.path);
    const kb = key(b.path);
    for (let i = 0; i < Math.min(ka.length, kb.length); i++) if (ka[i] !== kb[i]) return (ka[i] ?? 0) - (kb[i] ?? 0);
    return ka.length - kb.length;
  });
}

export function findStep(db: Db, taskId: string, selector: { id?: string | undefined; path?: string | undefined }): StepRow | undefined {
  if (selector.id !== undefined) {
    return db.one<StepRow & Record<string, string | number | null>>(
      `SELECT ${STEP_COLUMNS} FROM steps WHERE id = ? AND task_id = ?`,
      selector.id,
      taskId,
    );
  }
  if (selector.path !== undefined) {
    return db.one<StepRow & Record<string, string | number | null>>(
      `SELECT ${STEP_COLUMNS} FROM steps WHERE task_id = ? AND path = ?`,
      taskId,
      selector.path,
    );
  }
  return undefined;
}
