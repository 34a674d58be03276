/**
 * Plan and task commands: create (with optional steps), edit, complete, delete, and the per-agent
 * focus. Every mutation emits its events through `ingest.ts` (journal + trace + graph projection) in
 * the call's transaction.
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { clearFocus, focusOf, setFocus } from "../../place/focus.store";
import { planIdSchema, reasoningRefSchema, stepSelectorFields, targetFields, targetSchema } from "../../place/target.schema";
import { explicitTarget, reasoningRef, resolveStep, resolveTarget } from "../../place/targets";
import { requireEntity, stepsOf } from "../../place/targets.store";
import { fail } from "../../shared/errors";
import { normalizeTags } from "../graph/graph.schema";
import { addBlockers, blockedByArg, blockerSchema, forgetDeletedTask, setBlockers } from "./dependencies";
import { createEntity, finishEntity } from "./entity-writes";
import { emitEvent, projectEntity, tombstoneEntity, tombstoneSteps } from "./ingest";
import { requireLeaseFree } from "./leases.store";
import { blockersOf } from "./readiness.store";
import { deleteStepTree, deleteTask, subtreeOf, toStep } from "./steps.store";
import {
  entitySchema,
  eventSchema,
  expectedRevision,
  longText,
  MAX_NEW_STEPS,
  madeReady,
  madeReadySchema,
  newStepSchema,
  PRIORITIES,
  stepSchema,
  type TaskEvent,
  tagsSchema,
  titleSchema,
} from "./tasks.schema";
import { checkRevision, type EntityChanges, requireChanges, tasksOfPlan, toEntity, updateEntity } from "./tasks.store";

const eventsOutput = z.array(eventSchema);

export const tasksCreate = defineCommand({
  name: "tasks.create",
  tool: "tasks_create",
  aliases: ["tasks.plan.create"],
  title: "Create a plan or task",
  description:
    "Create a plan (no parent) or a task in a plan (parent: PLAN-###), optionally with steps. Returns the id, revision 0, its reasoning_ref (branch task/<ID>, docs notes, <ID>-trace, <ID>-graph) and the events written.",
  kind: "write",
  input: {
    kind: z.enum(["plan", "task"]).optional().describe("Default: task when parent is given, else plan."),
    parent: planIdSchema.optional().describe("The plan a task belongs to."),
    title: titleSchema,
    description: longText.optional(),
    context: longText.optional(),
    contract: longText.optional().describe("Plans: what done means for the whole plan."),
    priority: z.enum(PRIORITIES).optional(),
    tags: tagsSchema.optional(),
    reasoning_mode: z
      .enum(["normal", "strict"])
      .optional()
      .describe("strict: steps close only with a tested hypothesis and a counter-argument (or an override)."),
    steps: z.array(newStepSchema).max(MAX_NEW_STEPS).optional().describe("Tasks only."),
    blocked_by: blockedByArg.optional(),
  },
  output: {
    id: z.string(),
    qualified_id: z.string(),
    revision: z.number(),
    entity: entitySchema,
    steps: z.array(stepSchema),
    blocked_by: z.array(blockerSchema).optional().describe("What the task waits for (when blocked_by was given)."),
    reasoning_ref: reasoningRefSchema,
    events: eventsOutput,
  },
  handler: (ctx, args) => {
    const kind = args.kind ?? (args.parent === undefined ? "plan" : "task");
    if (kind === "task" && args.parent === undefined) {
      fail(
        "INVALID_INPUT",
        "A task belongs to a plan: pass parent (PLAN-###).",
        "Create a plan first (`tasks_create` without parent), then the task.",
        {
          field: "parent",
        },
      );
    }
    if (kind === "plan" && (args.parent !== undefined || args.steps !== undefined || args.blocked_by !== undefined)) {
      fail(
        "INVALID_INPUT",
        "A plan has no parent, no steps and waits for nothing.",
        "Drop parent, steps and blocked_by, or create a task (kind: task, parent: PLAN-###).",
        {
          fields: ["parent", "steps", "blocked_by"],
        },
      );
    }
    const plan = args.parent === undefined ? undefined : requireEntity(ctx.db, args.parent);
    if (plan && plan.kind !== "plan")
      fail("INVALID_INPUT", `${plan.id} is a task; a task's parent is a plan.`, "Pass a PLAN-### parent.", { parent: plan.id });
    const { entity, steps, events } = createEntity(ctx, { ...args, kind, plan_id: plan?.id ?? null }, plan, args.steps ?? []);
    const waits = args.blocked_by === undefined ? [] : addBlockers(ctx, entity, args.blocked_by);
    return {
      id: entity.id,
      qualified_id: `${ctx.workspace}:${entity.id}`,
      revision: entity.revision,
      entity: toEntity(entity),
      steps: steps.map(toStep),
      ...(args.blocked_by === undefined ? {} : { blocked_by: blockersOf(ctx.db, entity.id) }),
      reasoning_ref: reasoningRef(entity.id),
      events: [...events, ...waits],
    };
  },
});

export const tasksEdit = defineCommand({
  name: "tasks.edit",
  tool: "tasks_edit",
  title: "Edit a plan or task",
  description:
    "Change a plan's or task's title, description, context, contract, priority, tags, reasoning_mode (normal | strict; it takes effect on tasks), or status TODO/ACTIVE (use tasks_complete for DONE, PARKED, CANCELED). expected_revision refuses stale writes (REVISION_MISMATCH). Target defaults to your focus.",
  kind: "write",
  example: { target: "TASK-001", title: "Ship the importer" },
  input: {
    ...targetFields,
    expected_revision: expectedRevision,
    title: titleSchema.optional(),
    description: longText.optional(),
    context: longText.optional(),
    contract: longText.optional(),
    priority: z.enum(PRIORITIES).optional(),
    tags: tagsSchema.optional(),
    status: z.enum(["TODO", "ACTIVE"]).optional(),
    reasoning_mode: z.enum(["normal", "strict"]).optional(),
    blocked_by: blockedByArg.optional().describe("Tasks only: exactly what the task waits for from now on ([] waits for nothing)."),
  },
  output: {
    id: z.string(),
    revision: z.number(),
    entity: entitySchema,
    blocked_by: z.array(blockerSchema).optional().describe("What the task waits for (when blocked_by was given)."),
    events: eventsOutput,
  },
  handler: (ctx, args) => {
    const entity = resolveTarget(ctx, args, "tasks_edit");
    checkRevision(entity, args.expected_revision);
    const changes: EntityChanges = {};
    if (args.title !== undefined) changes.title = args.title;
    if (args.description !== undefined) changes.description = args.description;
    if (args.context !== undefined) changes.context = args.context;
    if (args.contract !== undefined) changes.contract = args.contract;
    if (args.priority !== undefined) changes.priority = args.priority;
    if (args.tags !== undefined) changes.tags_json = JSON.stringify(normalizeTags(args.tags));
    if (args.status !== undefined) {
      changes.status = args.status;
      changes.parked_until_ms = null;
    }
    if (args.reasoning_mode !== undefined) changes.reasoning_mode = args.reasoning_mode;
    // Reported by argument name (tags, not the column tags_json).
    const editable = ["title", "description", "context", "contract", "priority", "tags", "status", "reasoning_mode", "blocked_by"] as const;
    const fields = editable.filter((name) => args[name] !== undefined);
    requireChanges(fields, [...editable]);
    if (args.blocked_by !== undefined && entity.kind !== "task")
      fail("INVALID_INPUT", `${entity.id} is a plan; only tasks wait for tasks.`, "Drop blocked_by, or edit a task.", {
        field: "blocked_by",
      });
    const next = updateEntity(ctx, entity, changes);
    const event = emitEvent(ctx, next, {
      type: next.kind === "plan" ? "plan_updated" : "task_edited",
      payload: { fields, revision: next.revision },
      summary: `changed ${fields.join(", ")}`,
    });
    projectEntity(ctx, next);
    const waits = args.blocked_by === undefined ? [] : setBlockers(ctx, next, args.blocked_by);
    return {
      id: next.id,
      revision: next.revision,
      entity: toEntity(next),
      ...(args.blocked_by === undefined ? {} : { blocked_by: blockersOf(ctx.db, next.id) }),
      events: [event, ...waits],
    };
  },
});

const PARK_MAX_SECONDS = 365 * 24 * 3600;
/** Tasks one plan deletion removes at most (each task's steps, leases and projection in one transaction). */
const MAX_TASKS_PER_DELETE = 50;

export const tasksComplete = defineCommand({
  name: "tasks.complete",
  tool: "tasks_complete",
  title: "Finish, park or cancel a task",
  description:
    "Set a task's (or plan's) status to DONE (default; a task needs every step completed), PARKED (optionally until a time: parked_for_s or parked_until_ms), or CANCELED. Target defaults to your focus.",
  kind: "write",
  input: {
    ...targetFields,
    expected_revision: expectedRevision,
    status: z.enum(["DONE", "PARKED", "CANCELED"]).default("DONE"),
    parked_for_s: z.number().int().positive().max(PARK_MAX_SECONDS).optional(),
    parked_until_ms: z.number().int().positive().optional(),
  },
  output: { id: z.string(), revision: z.number(), entity: entitySchema, events: eventsOutput, made_ready: madeReadySchema },
  handler: (ctx, args) => {
    const entity = resolveTarget(ctx, args, "tasks_complete");
    checkRevision(entity, args.expected_revision);
    const parking = [args.parked_for_s, args.parked_until_ms].filter((value) => value !== undefined);
    if (parking.length > 0 && args.status !== "PARKED") {
      fail(
        "INVALID_INPUT",
        "parked_for_s and parked_until_ms go with status PARKED only.",
        'Pass status: "PARKED" or drop the parking field.',
        {
          fields: ["parked_for_s", "parked_until_ms"],
        },
      );
    }
    if (parking.length > 1)
      fail("INVALID_INPUT", "Give parked_for_s or parked_until_ms, not both.", "Keep one of them.", {
        fields: ["parked_for_s", "parked_until_ms"],
      });
    const parkedUntil = args.parked_for_s !== undefined ? ctx.nowMs + args.parked_for_s * 1000 : (args.parked_until_ms ?? null);
    const { next, event, made_ready } = finishEntity(ctx, entity, args.status, parkedUntil);
    return { id: next.id, revision: next.revision, entity: toEntity(next), events: [event], ...madeReady(made_ready) };
  },
});

export const tasksDelete = defineCommand({
  name: "tasks.delete",
  tool: "tasks_delete",
  title: "Delete a plan, task or step",
  description:
    "Delete a task with its steps, a plan with its tasks, or (with step_id or path) one step and its sub-steps. The journal, the traces and the graph tombstones keep the history. Needs an explicit target (never the focus).",
  kind: "write",
  destructive: true,
  input: {
    target: targetSchema,
    step_id: stepSelectorFields.step_id,
    path: stepSelectorFields.path,
    expected_revision: expectedRevision,
  },
  output: { deleted: z.array(z.string()), revision: z.number().optional(), events: eventsOutput },
  handler: (ctx, args) => {
    const entity = requireEntity(ctx.db, explicitTarget({ target: args.target }) as string);
    checkRevision(entity, args.expected_revision);
    if (args.step_id !== undefined || args.path !== undefined) {
      if (entity.kind !== "task")
        fail("INVALID_INPUT", `${entity.id} is a plan; steps belong to tasks.`, "Pass a TASK-### target.", { id: entity.id });
      const step = resolveStep(ctx.db, entity, { step_id: args.step_id, path: args.path });
      for (const row of subtreeOf(ctx.db, step)) requireLeaseFree(ctx, row);
      const removed = deleteStepTree(ctx.db, step);
      const next = updateEntity(ctx, entity, {});
      const event = emitEvent(ctx, next, {
        type: "step_deleted",
        path: step.path,
        payload: { step_id: step.id, steps: removed.map((row) => row.id) },
        summary: `${removed.length} step(s) deleted`,
      });
      tombstoneSteps(ctx, next, removed);
      return { deleted: removed.map((row) => row.id), revision: next.revision, events: [event] };
    }
    const doomed = entity.kind === "plan" ? [...tasksOfPlan(ctx.db, entity.id), entity] : [entity];
    if (doomed.length > MAX_TASKS_PER_DELETE + 1) {
      fail(
        "INVALID_INPUT",
        `${entity.id} has ${doomed.length - 1} tasks; one call deletes a plan with at most ${MAX_TASKS_PER_DELETE}.`,
        "Delete some of its tasks first (tasks_delete each), then the plan.",
        { plan: entity.id, tasks: doomed.length - 1, max_tasks: MAX_TASKS_PER_DELETE },
      );
    }
    const events: TaskEvent[] = [];
    for (const row of doomed) for (const step of stepsOf(ctx.db, row.id)) requireLeaseFree(ctx, step);
    const deleting = new Set(doomed.map((row) => row.id));
    for (const row of doomed) {
      if (row.kind === "task") events.push(...forgetDeletedTask(ctx, row, deleting));
      const steps = deleteTask(ctx.db, row.id);
      events.push(
        emitEvent(ctx, row, {
          type: "task_deleted",
          payload: { kind: row.kind, title: row.title, steps: steps.length },
          summary: `${row.kind} deleted`,
        }),
      );
      tombstoneEntity(ctx, row, steps);
    }
    return { deleted: doomed.map((row) => row.id), events };
  },
});

export const tasksFocusSet = defineCommand({
  name: "tasks.focus.set",
  tool: "tasks_focus_set",
  title: "Set your focus",
  description: "Make a plan or task your focus: task tools called without a target act on it. Focus is per agent.",
  kind: "write",
  input: { target: targetSchema },
  output: { workspace: z.string(), previous: z.string().nullable(), focus: z.string() },
  handler: (ctx, args) => {
    const entity = requireEntity(ctx.db, explicitTarget({ target: args.target }) as string);
    const previous = focusOf(ctx.db, ctx.principal.agent_id) ?? null;
    setFocus(ctx, entity.id);
    ctx.journal({ target: entity.id, summary: `focus of ${ctx.principal.agent_id}` });
    return { workspace: ctx.workspace, previous, focus: entity.id };
  },
});

export const tasksFocusGet = defineCommand({
  name: "tasks.focus.get",
  tool: "tasks_focus_get",
  title: "Show your focus",
  description: "Your current focus (a plan or task id), or null.",
  kind: "read",
  input: {},
  output: { workspace: z.string(), focus: z.string().nullable(), entity: entitySchema.optional() },
  handler: (ctx) => {
    const focus = focusOf(ctx.db, ctx.principal.agent_id);
    if (focus === undefined) return { workspace: ctx.workspace, focus: null };
    return { workspace: ctx.workspace, focus, entity: toEntity(requireEntity(ctx.db, focus)) };
  },
});

export const tasksFocusClear = defineCommand({
  name: "tasks.focus.clear",
  tool: "tasks_focus_clear",
  title: "Clear your focus",
  description: "Forget your focus; target-less task tools then ask for a target.",
  kind: "write",
  input: {},
  output: { workspace: z.string(), previous: z.string().nullable(), cleared: z.boolean() },
  handler: (ctx) => {
    const previous = focusOf(ctx.db, ctx.principal.agent_id) ?? null;
    if (previous !== null) {
      clearFocus(ctx);
      ctx.journal({ target: previous, summary: `focus of ${ctx.principal.agent_id} cleared` });
    }
    return { workspace: ctx.workspace, previous, cleared: previous !== null };
  },
});
