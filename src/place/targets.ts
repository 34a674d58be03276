/**
 * Which plan or task a call acts on, and where its reasoning lives.
 *
 * - Target resolution: an explicit `target` (id or `{id, kind}`) or its aliases `task` / `plan` win;
 *   else the caller's focus; else a typed error with one suggested call.
 * - Reasoning refs are derived from the id, never stored: branch `task/TASK-001` (`plan/PLAN-001`),
 *   docs `notes`, `TASK-001-trace`, `TASK-001-graph`. Reads derive them without writing; the first
 *   task mutation creates the branch (a root branch: no base).
 * - Step selectors: `step_id`, `path`, or `"focus"` (the first open step in tree order).
 */
import type { CommandContext } from "../commands/context";
import { fail } from "../shared/errors";
import { suggest } from "../shared/suggestion";
import type { Db } from "../storage/db";
import { type Branch, createRootBranch, findBranch, KNOWLEDGE_BRANCH_PREFIX } from "./branches.store";
import { DEFAULT_DOCS } from "./documents";
import { focusOf } from "./focus.store";
import type { ReasoningRef, TargetArg } from "./target.schema";
import { type EntityRow, findEntity, findStep, orderedSteps, requireEntity, type StepRow } from "./targets.store";

export interface TargetArgs {
  target?: TargetArg | undefined;
  task?: string | undefined;
  plan?: string | undefined;
}

export interface StepArgs {
  step?: string | undefined;
  step_id?: string | undefined;
  path?: string | undefined;
}

/** The explicit target of a call, if it names one (`target` or the `task`/`plan` aliases). */
export function explicitTarget(args: TargetArgs): string | undefined {
  const given = [args.target, args.task, args.plan].filter((value) => value !== undefined);
  if (given.length > 1) {
    fail("INVALID_INPUT", "Give one of target, task or plan, not several.", "Keep `target` and drop the others.", {
      fields: ["target", "task", "plan"],
    });
  }
  const target = given[0];
  if (target === undefined) return undefined;
  if (typeof target === "string") return target;
  const kind = target.id.startsWith("PLAN-") ? "plan" : "task";
  if (target.kind !== undefined && target.kind !== kind) {
    fail("INVALID_INPUT", `target ${target.id} is a ${kind}, not a ${target.kind}.`, `Use kind "${kind}" or omit kind.`, {
      id: target.id,
      kind: target.kind,
    });
  }
  return target.id;
}

/** The entity a call acts on: explicit target, else the caller's focus, else INVALID_INPUT with a suggestion. */
export function resolveTarget(ctx: CommandContext, args: TargetArgs, tool: string): EntityRow {
  const id = explicitTarget(args) ?? focusOf(ctx.db, ctx.principal.agent_id);
  if (id === undefined) {
    fail(
      "INVALID_INPUT",
      `${tool} needs a target: pass target (e.g. "TASK-001"), or set your focus first.`,
      "List plans and tasks with `tasks_context`, then pass target or call `tasks_focus_set`.",
      { field: "target" },
      [suggest("tasks_context", {}, "See which plans and tasks exist.")],
    );
  }
  return requireEntity(ctx.db, id);
}

/** The task (not a plan) a step command acts on. */
export function resolveTask(ctx: CommandContext, args: TargetArgs, tool: string): EntityRow {
  const entity = resolveTarget(ctx, args, tool);
  if (entity.kind !== "task") {
    fail("INVALID_INPUT", `${tool} works on a task; ${entity.id} is a plan.`, "Pass a TASK-### target.", { id: entity.id });
  }
  return entity;
}

export function reasoningRef(id: string): ReasoningRef {
  const kind = id.startsWith("PLAN-") ? "plan" : "task";
  return { branch: `${kind}/${id}`, notes_doc: DEFAULT_DOCS.notes, trace_doc: `${id}-trace`, graph_doc: `${id}-graph` };
}

/**
 * The canonical branch of an entity, created on first use as a root branch (no base): a task's notes,
 * trace and graph hold what was written for that task, not a snapshot of `main`.
 */
export function canonicalBranch(ctx: CommandContext, id: string): Branch {
  const name = reasoningRef(id).branch;
  return findBranch(ctx.db, name) ?? createRootBranch(ctx, name);
}

/** A step of `task` by selector; INVALID_INPUT when none is given, UNKNOWN_ID when it does not exist. */
export function resolveStep(db: Db, task: EntityRow, args: StepArgs): StepRow {
  const given = [args.step, args.step_id, args.path].filter((value) => value !== undefined);
  if (given.length !== 1) {
    fail(
      "INVALID_INPUT",
      given.length === 0 ? 'Name a step: step_id, path, or step: "focus".' : "Give one step selector, not several.",
      'Pass step_id (e.g. "STEP-0000000A"), path (e.g. "s:0") or step: "focus".',
      { fields: ["step", "step_id", "path"] },
    );
  }
  if (args.step === "focus") {
    const open = firstOpenStep(db, task.id);
    if (!open) {
      fail("INVALID_INPUT", `${task.id} has no open step.`, "Add steps with `tasks_decompose`, or finish the task with `tasks_complete`.", {
        task: task.id,
      });
    }
    return open;
  }
  const selector = args.path !== undefined ? { path: args.path } : { id: args.step_id ?? args.step };
  const step = findStep(db, task.id, selector);
  if (!step) {
    fail("UNKNOWN_ID", `${task.id} has no step ${args.path ?? args.step_id ?? args.step}.`, "Call `tasks_radar` to see the task's steps.", {
      task: task.id,
      ...selector,
    });
  }
  return step;
}

/**
 * Refuses to delete a knowledge branch, or the reasoning branch of an existing plan or task (its trace,
 * notes and graph live there).
 */
export function protectReasoningBranch(db: Db, name: string): void {
  if (name.startsWith(KNOWLEDGE_BRANCH_PREFIX)) {
    fail(
      "INVALID_INPUT",
      `Branch "${name}" holds the workspace's knowledge cards.`,
      "Keep it; retire cards with knowledge_upsert instead.",
      {
        branch: name,
      },
    );
  }
  const match = /^(?:task|plan)\/((?:TASK|PLAN)-[0-9]{3,})$/.exec(name);
  const id = match?.[1];
  if (id === undefined || reasoningRef(id).branch !== name || findEntity(db, id) === undefined) return;
  fail(
    "INVALID_INPUT",
    `Branch "${name}" is the reasoning branch of ${id}: its trace, notes and graph live there.`,
    `Delete ${id} first (tasks_delete), or keep the branch.`,
    {
      branch: name,
      id,
    },
  );
}

/** The first step in tree order that is not completed. */
export function firstOpenStep(db: Db, taskId: string): StepRow | undefined {
  return orderedSteps(db, taskId).find((step) => step.completed === 0);
}

/** The tag cards written under a task carry for its step focus (`step:step-00000003`): one spelling everywhere. */
export function stepTagOf(stepId: string): string {
  return `step:${stepId.toLowerCase()}`;
}

/** The step-focus tag of a plan or task: its first open step's, for a task that has one; else undefined. */
export function stepFocusTagOf(db: Db, target: string | undefined): string | undefined {
  const entity = target === undefined ? undefined : findEntity(db, target);
  const step = entity?.kind === "task" ? firstOpenStep(db, entity.id) : undefined;
  return step ? stepTagOf(step.id) : undefined;
}
