/**
 * Step commands: decompose (add steps), define (edit fields and proof modes), note (mirrored into the
 * notes doc), verify (confirm checkpoints), done and close_step (gated by checkpoints and proof),
 * progress (complete or reopen) and block. Each bumps its task's revision and emits its events.
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { defineCommand } from "../../commands/registry";
import { PROOF_MODES, stepSelectorFields, targetFields } from "../../place/target.schema";
import { canonicalBranch, reasoningRef, resolveStep, resolveTask, type StepArgs, type TargetArgs } from "../../place/targets";
import type { StepRow } from "../../place/targets.store";
import { fail } from "../../shared/errors";
import { writeNote } from "../vcs/note-write";
import { emitEvent, projectEntity } from "./ingest";
import { requireLeaseFree } from "./leases.store";
import { applyCheckpoints, closeCheckpointsSchema, closeStep, commitStep, completeStep, type StepCall } from "./step-close";
import { insertSteps, toStep } from "./steps.store";
import { overrideSchema } from "./strict";
import {
  CHECKPOINTS,
  type Checkpoint,
  eventSchema,
  expectedRevision,
  itemList,
  MAX_NEW_STEPS,
  MAX_STEP_ITEM_CHARS,
  newStepSchema,
  stepSchema,
  titleSchema,
} from "./tasks.schema";
import { checkRevision, requireChanges, updateEntity } from "./tasks.store";

const stepOutput = { task: z.string(), revision: z.number(), step: stepSchema, events: z.array(eventSchema) };

/** The task and step a step command acts on, after the revision check. */
function stepCall(ctx: CommandContext, args: TargetArgs & StepArgs & { expected_revision?: number | undefined }, tool: string): StepCall {
  const task = resolveTask(ctx, args, tool);
  checkRevision(task, args.expected_revision);
  const step = resolveStep(ctx.db, task, args);
  requireLeaseFree(ctx, step);
  return { task, step };
}

export const tasksDecompose = defineCommand({
  name: "tasks.decompose",
  tool: "tasks_decompose",
  aliases: ["tasks.plan.decompose"],
  title: "Add steps to a task",
  description:
    "Add steps to a task, at the top level or under a parent step (parent_path / parent_step_id). New steps get ids STEP-XXXXXXXX and paths s:N (s:N.s:M under a parent). Target defaults to your focus.",
  kind: "write",
  input: {
    ...targetFields,
    expected_revision: expectedRevision,
    steps: z.array(newStepSchema).min(1).max(MAX_NEW_STEPS),
    parent_path: stepSelectorFields.path,
    parent_step_id: stepSelectorFields.step_id,
  },
  output: { task: z.string(), revision: z.number(), steps: z.array(stepSchema), events: z.array(eventSchema) },
  handler: (ctx, args) => {
    const task = resolveTask(ctx, args, "tasks_decompose");
    checkRevision(task, args.expected_revision);
    const parent =
      args.parent_path === undefined && args.parent_step_id === undefined
        ? undefined
        : resolveStep(ctx.db, task, { path: args.parent_path, step_id: args.parent_step_id });
    if (parent) requireLeaseFree(ctx, parent);
    const steps = insertSteps(ctx, task.id, parent, args.steps);
    const next = updateEntity(ctx, task, {});
    const event = emitEvent(ctx, next, {
      type: "steps_added",
      ...(parent ? { path: parent.path } : {}),
      payload: { steps: steps.map((step) => ({ id: step.id, path: step.path, title: step.title })) },
      summary: `${steps.length} step(s)`,
    });
    projectEntity(ctx, next, steps);
    return { task: next.id, revision: next.revision, steps: steps.map(toStep), events: [event] };
  },
});

export const tasksDefine = defineCommand({
  name: "tasks.define",
  tool: "tasks_define",
  title: "Edit a step",
  description:
    'Change a step\'s title, success_criteria, tests, blockers (["None"] clears), next_action, stop_criteria, or proof modes (off | warn | require per checkpoint tests/security/perf/docs). Step: step_id, path, or "focus".',
  kind: "write",
  example: { target: "TASK-001", step: "focus", title: "Write the failing test" },
  input: {
    ...targetFields,
    ...stepSelectorFields,
    expected_revision: expectedRevision,
    title: titleSchema.optional(),
    success_criteria: itemList.optional(),
    tests: itemList.optional(),
    blockers: itemList.optional(),
    next_action: z.string().max(MAX_STEP_ITEM_CHARS).optional(),
    stop_criteria: z.string().max(MAX_STEP_ITEM_CHARS).optional(),
    proof_modes: z
      .strictObject({
        tests: z.enum(PROOF_MODES).optional(),
        security: z.enum(PROOF_MODES).optional(),
        perf: z.enum(PROOF_MODES).optional(),
        docs: z.enum(PROOF_MODES).optional(),
      })
      .optional(),
  },
  output: stepOutput,
  handler: (ctx, args) => {
    const call = stepCall(ctx, args, "tasks_define");
    const next: StepRow = { ...call.step };
    const fields: string[] = [];
    const set = <K extends keyof StepRow>(key: K, value: StepRow[K], field: string) => {
      next[key] = value;
      fields.push(field);
    };
    if (args.title !== undefined) set("title", args.title, "title");
    if (args.success_criteria !== undefined) set("success_criteria_json", JSON.stringify(args.success_criteria), "success_criteria");
    if (args.tests !== undefined) set("tests_json", JSON.stringify(args.tests), "tests");
    if (args.blockers !== undefined) {
      const none = args.blockers.length === 1 && args.blockers[0]?.trim().toLowerCase() === "none";
      set("blockers_json", JSON.stringify(none ? [] : args.blockers), "blockers");
    }
    if (args.next_action !== undefined) set("next_action", args.next_action, "next_action");
    if (args.stop_criteria !== undefined) set("stop_criteria", args.stop_criteria, "stop_criteria");
    for (const [name, mode] of Object.entries(args.proof_modes ?? {})) {
      if (mode !== undefined) set(`proof_${name}_mode` as "proof_tests_mode", mode, `proof_${name}_mode`);
    }
    requireChanges(fields, ["title", "success_criteria", "tests", "blockers", "next_action", "stop_criteria", "proof_modes"]);
    return commitStep(ctx, call, next, [
      { type: "step_defined", payload: { step_id: next.id, fields }, summary: `defined ${fields.join(", ")}` },
    ]);
  },
});

export const tasksNote = defineCommand({
  name: "tasks.note",
  tool: "tasks_note",
  title: "Note on a step",
  description:
    "Record a note on a task's step: a step_noted event in the task's trace, mirrored as a note into the task's notes doc (meta source tasks_note). Step defaults to none (a task-level note) unless step_id, path or \"focus\" is given.",
  kind: "write",
  input: {
    ...targetFields,
    ...stepSelectorFields,
    note: z
      .string()
      .min(1)
      .max(MAX_STEP_ITEM_CHARS * 16),
  },
  output: { task: z.string(), revision: z.number(), note_seq: z.number(), events: z.array(eventSchema) },
  handler: (ctx, args) => {
    const task = resolveTask(ctx, args, "tasks_note");
    const named = args.step !== undefined || args.step_id !== undefined || args.path !== undefined;
    const step = named ? resolveStep(ctx.db, task, args) : undefined;
    if (step) requireLeaseFree(ctx, step);
    const next = updateEntity(ctx, task, {});
    const event = emitEvent(ctx, next, {
      type: "step_noted",
      ...(step ? { path: step.path } : {}),
      payload: { ...(step ? { step_id: step.id } : {}), note: args.note },
      summary: args.note.length > 120 ? `${args.note.slice(0, 117)}...` : args.note,
    });
    const mirrored = writeNote(ctx, canonicalBranch(ctx, task.id), {
      doc: reasoningRef(task.id).notes_doc,
      content: args.note,
      meta: { source: "tasks_note", task_id: task.id, ...(step ? { step_id: step.id, path: step.path } : {}), event_id: event.event_id },
    });
    return { task: next.id, revision: next.revision, note_seq: mirrored.seq, events: [event] };
  },
});

const checkpointsInput = z
  .strictObject(
    Object.fromEntries(CHECKPOINTS.map((name) => [name, z.strictObject({ confirmed: z.boolean() }).optional()])) as Record<
      Checkpoint,
      z.ZodOptional<z.ZodObject<{ confirmed: z.ZodBoolean }>>
    >,
  )
  .describe("e.g. {criteria: {confirmed: true}, tests: {confirmed: true}}");

export const tasksVerify = defineCommand({
  name: "tasks.verify",
  tool: "tasks_verify",
  title: "Confirm checkpoints",
  description: "Confirm (or unconfirm) a step's checkpoints: criteria, tests, security, perf, docs. Does not close the step.",
  kind: "write",
  example: { target: "TASK-001", step: "focus", checkpoints: { criteria: { confirmed: true } } },
  input: { ...targetFields, ...stepSelectorFields, expected_revision: expectedRevision, checkpoints: checkpointsInput },
  output: stepOutput,
  handler: (ctx, args) => {
    const call = stepCall(ctx, args, "tasks_verify");
    const { next, changed } = applyCheckpoints(call.step, args.checkpoints);
    if (changed.length === 0)
      fail("INVALID_INPUT", "Name at least one checkpoint.", "Pass e.g. checkpoints: {criteria: {confirmed: true}}.", {
        field: "checkpoints",
      });
    return commitStep(ctx, call, next, [
      { type: "step_verified", payload: { step_id: next.id, checkpoints: changed }, summary: changed.join(", ") },
    ]);
  },
});

export const tasksDone = defineCommand({
  name: "tasks.done",
  tool: "tasks_done",
  title: "Close a step",
  description:
    "Mark a step completed. Gated: criteria and tests confirmed (plus security/perf/docs once they carry proof or require it) else CHECKPOINTS_NOT_CONFIRMED; a checkpoint in require mode needs a CMD:/LINK: receipt else PROOF_REQUIRED.",
  kind: "write",
  example: { target: "TASK-001", step: "focus" },
  input: { ...targetFields, ...stepSelectorFields, expected_revision: expectedRevision, override: overrideSchema },
  output: stepOutput,
  handler: (ctx, args) => {
    const call = stepCall(ctx, args, "tasks_done");
    const { next, warnings } = completeStep(ctx, call.task, call.step, args.override);
    for (const warning of warnings) ctx.warn(warning);
    return commitStep(ctx, call, next, [{ type: "step_done", payload: { step_id: next.id }, summary: next.title }]);
  },
});

export const tasksCloseStep = defineCommand({
  name: "tasks.close_step",
  tool: "tasks_close_step",
  aliases: ["tasks.step.close"],
  title: "Verify and close a step",
  description:
    'Confirm checkpoints and close the step in one atomic call (events step_verified, step_done). checkpoints: "gate" (criteria + tests, default), "all", or an object like {criteria: true}. The proof gates of tasks_done apply.',
  kind: "write",
  example: { target: "TASK-001", step: "focus" },
  input: {
    ...targetFields,
    ...stepSelectorFields,
    expected_revision: expectedRevision,
    checkpoints: closeCheckpointsSchema.default("gate"),
    override: overrideSchema,
  },
  output: stepOutput,
  handler: (ctx, args) => closeStep(ctx, stepCall(ctx, args, "tasks_close_step"), args.checkpoints, args.override),
});

export const tasksProgress = defineCommand({
  name: "tasks.progress",
  tool: "tasks_progress",
  title: "Complete or reopen a step",
  description:
    "completed: true marks a step done through the same gates as tasks_done unless force: true (recorded in the event); completed: false reopens it.",
  kind: "write",
  example: { target: "TASK-001", step: "focus", completed: true },
  input: {
    ...targetFields,
    ...stepSelectorFields,
    expected_revision: expectedRevision,
    completed: z.boolean(),
    force: z.boolean().default(false),
    override: overrideSchema,
  },
  output: stepOutput,
  handler: (ctx, args) => {
    const call = stepCall(ctx, args, "tasks_progress");
    if (!args.completed) {
      if (call.step.completed === 0)
        fail("INVALID_INPUT", `Step ${call.step.path} is not completed.`, "Nothing to reopen.", { step_id: call.step.id });
      const next = { ...call.step, completed: 0, completed_at_ms: null };
      return commitStep(ctx, call, next, [{ type: "step_reopened", payload: { step_id: next.id }, summary: next.title }]);
    }
    if (args.force) {
      if (call.step.completed === 1)
        fail("INVALID_INPUT", `Step ${call.step.path} is already completed.`, "Nothing to do.", { step_id: call.step.id });
      const next = { ...call.step, completed: 1, completed_at_ms: ctx.nowMs, blocked: 0, block_reason: null };
      return commitStep(ctx, call, next, [
        { type: "step_done", payload: { step_id: next.id, forced: true }, summary: `${next.title} (forced)` },
      ]);
    }
    const { next, warnings } = completeStep(ctx, call.task, call.step, args.override);
    for (const warning of warnings) ctx.warn(warning);
    return commitStep(ctx, call, next, [{ type: "step_done", payload: { step_id: next.id }, summary: next.title }]);
  },
});

export const tasksBlock = defineCommand({
  name: "tasks.block",
  tool: "tasks_block",
  title: "Block or unblock a step",
  description: "Mark a step blocked (with a reason) or unblocked (blocked: false).",
  kind: "write",
  example: { target: "TASK-001", step: "focus", reason: "Waiting for review" },
  input: {
    ...targetFields,
    ...stepSelectorFields,
    expected_revision: expectedRevision,
    blocked: z.boolean().default(true),
    reason: z.string().max(MAX_STEP_ITEM_CHARS).optional(),
  },
  output: stepOutput,
  handler: (ctx, args) => {
    const call = stepCall(ctx, args, "tasks_block");
    const next = { ...call.step, blocked: args.blocked ? 1 : 0, block_reason: args.blocked ? (args.reason ?? null) : null };
    const type = args.blocked ? "step_blocked" : "step_unblocked";
    return commitStep(ctx, call, next, [
      { type, payload: { step_id: next.id, ...(args.reason ? { reason: args.reason } : {}) }, summary: args.reason ?? type },
    ]);
  },
});
