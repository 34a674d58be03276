/**
 * Storage of plans and tasks (migration 0004): ids from the `plan`/`task` clocks, rows to domain
 * shapes, revisions and the proof rows (steps: steps.store.ts). Looking a plan or task up by id, and
 * each agent's focus, are the place module's (src/place/targets.store.ts, focus.store.ts).
 * Every function runs inside the caller's transaction; nothing here journals or ingests.
 */
import type { CommandContext } from "../../commands/context";
import type { StepRow } from "../../place/targets.store";
import { ENTITY_COLUMNS, type EntityRow, findEntity } from "../../place/targets.store";
import { fail } from "../../shared/errors";
import { advance } from "../../storage/clocks";
import type { Db } from "../../storage/db";
import { normalizeTags } from "../graph/graph.schema";
import type { Entity } from "./tasks.schema";

/** Tasks of one plan at most: a plan's views and deletion read them all. */
export const MAX_TASKS_PER_PLAN = 1_000;

function entityId(kind: "plan" | "task", n: number): string {
  return `${kind === "plan" ? "PLAN" : "TASK"}-${String(n).padStart(3, "0")}`;
}

export interface NewEntity {
  kind: "plan" | "task";
  plan_id: string | null;
  title: string;
  description?: string | undefined;
  context?: string | undefined;
  contract?: string | undefined;
  priority?: "LOW" | "MEDIUM" | "HIGH" | undefined;
  tags?: string[] | undefined;
  reasoning_mode?: "normal" | "strict" | undefined;
}

export function insertEntity(ctx: CommandContext, entity: NewEntity): EntityRow {
  if (entity.plan_id !== null) {
    const count = ctx.db.one<{ n: number }>("SELECT COUNT(*) AS n FROM tasks WHERE plan_id = ?", entity.plan_id)?.n ?? 0;
    if (count >= MAX_TASKS_PER_PLAN) {
      fail(
        "INVALID_INPUT",
        `${entity.plan_id} already has ${count} tasks; a plan holds at most ${MAX_TASKS_PER_PLAN}.`,
        "Start another plan.",
        {
          plan: entity.plan_id,
          max_tasks: MAX_TASKS_PER_PLAN,
        },
      );
    }
  }
  const row: EntityRow = {
    id: entityId(entity.kind, advance(ctx.db, entity.kind)),
    kind: entity.kind,
    plan_id: entity.plan_id,
    title: entity.title,
    description: entity.description ?? null,
    context: entity.context ?? null,
    contract: entity.contract ?? null,
    status: "TODO",
    priority: entity.priority ?? "MEDIUM",
    tags_json: JSON.stringify(normalizeTags(entity.tags ?? [])),
    parked_until_ms: null,
    reasoning_mode: entity.reasoning_mode ?? "normal",
    revision: 0,
    created_at_ms: ctx.nowMs,
    updated_at_ms: ctx.nowMs,
    created_by: ctx.principal.agent_id,
  };
  ctx.db.run(
    `INSERT INTO tasks (${ENTITY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    row.id,
    row.kind,
    row.plan_id,
    row.title,
    row.description,
    row.context,
    row.contract,
    row.status,
    row.priority,
    row.tags_json,
    row.parked_until_ms,
    row.reasoning_mode,
    row.revision,
    row.created_at_ms,
    row.updated_at_ms,
    row.created_by,
  );
  return row;
}

export type EntityChanges = Partial<
  Pick<
    EntityRow,
    "title" | "description" | "context" | "contract" | "status" | "priority" | "tags_json" | "parked_until_ms" | "reasoning_mode"
  >
>;

/** Applies changes (if any) and bumps the revision by one; returns the new row. */
export function updateEntity(ctx: CommandContext, row: EntityRow, changes: EntityChanges): EntityRow {
  const next: EntityRow = { ...row, ...changes, revision: row.revision + 1, updated_at_ms: ctx.nowMs };
  ctx.db.run(
    `UPDATE tasks SET title = ?, description = ?, context = ?, contract = ?, status = ?, priority = ?, tags_json = ?,
       parked_until_ms = ?, reasoning_mode = ?, revision = ?, updated_at_ms = ? WHERE id = ?`,
    next.title,
    next.description,
    next.context,
    next.contract,
    next.status,
    next.priority,
    next.tags_json,
    next.parked_until_ms,
    next.reasoning_mode,
    next.revision,
    next.updated_at_ms,
    row.id,
  );
  return next;
}

export function checkRevision(row: EntityRow, expected: number | undefined): void {
  if (expected !== undefined && expected !== row.revision) {
    fail(
      "REVISION_MISMATCH",
      `${row.id} is at revision ${row.revision}, not ${expected}: someone changed it since you read it.`,
      "Read it again (`tasks_radar` or `tasks_context`), then retry with the current revision.",
      { id: row.id, expected, actual: row.revision },
    );
  }
}

/** An edit that names no field is refused, listing the fields it may name. */
export function requireChanges(changed: string[], allowed: string[]): void {
  if (changed.length > 0) return;
  fail("INVALID_INPUT", "Nothing to change: pass at least one field.", `Pass one or more of: ${allowed.join(", ")}.`, { fields: allowed });
}

export function toEntity(row: EntityRow): Entity {
  const entity: Entity = {
    id: row.id,
    kind: row.kind,
    title: row.title,
    status: row.status,
    priority: row.priority,
    tags: JSON.parse(row.tags_json) as string[],
    reasoning_mode: row.reasoning_mode,
    revision: row.revision,
    created_at_ms: row.created_at_ms,
    updated_at_ms: row.updated_at_ms,
  };
  if (row.plan_id !== null) entity.plan_id = row.plan_id;
  if (row.description !== null) entity.description = row.description;
  if (row.context !== null) entity.context = row.context;
  if (row.contract !== null) entity.contract = row.contract;
  if (row.parked_until_ms !== null) entity.parked_until_ms = row.parked_until_ms;
  return entity;
}

/** Plans or tasks by id, after `after` (exclusive), optionally of one plan and some statuses. */
export function listEntities(
  db: Db,
  filter: { kind: "plan" | "task"; planId?: string | undefined; statuses?: string[] | undefined; after?: string | undefined },
  limit: number,
): EntityRow[] {
  const parts = ["kind = ?"];
  const params: (string | number)[] = [filter.kind];
  if (filter.planId !== undefined) {
    parts.push("plan_id = ?");
    params.push(filter.planId);
  }
  if (filter.statuses !== undefined) {
    parts.push("status IN (SELECT value FROM json_each(?))");
    params.push(JSON.stringify(filter.statuses));
  }
  if (filter.after !== undefined) {
    // Numeric id order (TASK-999 before TASK-1000), as the index has it.
    parts.push("(length(id), id) > (?, ?)");
    params.push(filter.after.length, filter.after);
  }
  return db.all<EntityRow & Record<string, string | number | null>>(
    `SELECT ${ENTITY_COLUMNS} FROM tasks WHERE ${parts.join(" AND ")} ORDER BY length(id), id LIMIT ${Math.trunc(limit) + 1}`,
    ...params,
  );
}

/** Plans and tasks counted at most per kind (a count is a hint, not a scan of a large workspace). */
export const MAX_COUNTED = 10_000;

/** Plans and tasks, each counted up to MAX_COUNTED (`capped` says a count stopped there). */
export function countEntities(db: Db): { plans: number; tasks: number; capped: boolean } {
  const count = (kind: string) =>
    db.one<{ n: number }>(`SELECT COUNT(*) AS n FROM (SELECT 1 FROM tasks WHERE kind = ? LIMIT ${MAX_COUNTED + 1})`, kind)?.n ?? 0;
  const plans = count("plan");
  const tasks = count("task");
  return { plans: Math.min(plans, MAX_COUNTED), tasks: Math.min(tasks, MAX_COUNTED), capped: plans > MAX_COUNTED || tasks > MAX_COUNTED };
}

export function tasksOfPlan(db: Db, planId: string): EntityRow[] {
  return db.all<EntityRow & Record<string, string | number | null>>(
    `SELECT ${ENTITY_COLUMNS} FROM tasks WHERE plan_id = ? ORDER BY length(id), id LIMIT ${MAX_TASKS_PER_PLAN}`,
    planId,
  );
}

// ---------------------------------------------------------------------------------------------
// Proofs

export interface ProofRow {
  checkpoint: string;
  kind: "check" | "artifact";
  receipt: "CMD" | "LINK" | null;
  body: unknown;
}

/** Proof rows of one evidence capture (one per checkpoint and item). */
export function insertProofs(ctx: CommandContext, taskId: string, stepId: string | null, eventId: string, rows: ProofRow[]): void {
  for (const row of rows) {
    ctx.db.run(
      "INSERT INTO task_proofs (task_id, step_id, checkpoint, kind, receipt, body_json, event_id, created_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      taskId,
      stepId,
      row.checkpoint,
      row.kind,
      row.receipt,
      JSON.stringify(row.body),
      eventId,
      ctx.nowMs,
    );
  }
}

/** Proof rows of a step per checkpoint and receipt. */
export function proofCounts(db: Db, step: StepRow): { checkpoint: string; receipt: "CMD" | "LINK" | null; n: number }[] {
  return db.all<{ checkpoint: string; receipt: "CMD" | "LINK" | null; n: number }>(
    "SELECT checkpoint, receipt, COUNT(*) AS n FROM task_proofs WHERE task_id = ? AND step_id = ? GROUP BY checkpoint, receipt",
    step.task_id,
    step.id,
  );
}

/** Proof rows of every step of a task per step, checkpoint and receipt: one statement for a task's steps. */
export function proofCountsOfTask(
  db: Db,
  taskId: string,
): { step_id: string; checkpoint: string; receipt: "CMD" | "LINK" | null; n: number }[] {
  return db.all<{ step_id: string; checkpoint: string; receipt: "CMD" | "LINK" | null; n: number }>(
    "SELECT step_id, checkpoint, receipt, COUNT(*) AS n FROM task_proofs WHERE task_id = ? GROUP BY step_id, checkpoint, receipt",
    taskId,
  );
}

/** The first plan (in id order) with exactly this title. */
export function findPlanByTitle(db: Db, title: string): EntityRow | undefined {
  const row = db.one<{ id: string }>("SELECT id FROM tasks WHERE kind = 'plan' AND title = ? ORDER BY length(id), id LIMIT 1", title);
  return row === undefined ? undefined : findEntity(db, row.id);
}
