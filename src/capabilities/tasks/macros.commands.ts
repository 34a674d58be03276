/**
 * Macros: the daily loop in three calls. `tasks_macro_start` creates a task from a template in the
 * right plan and focuses it; `tasks_macro_close_step` closes the first open step of the focus (or
 * finishes the task when none is left); `tasks_macro_finish` marks the task DONE once, with an
 * optional final note. Each is one transaction over the same rules as the single commands.
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { defineCommand } from "../../commands/registry";
import { focusOf, setFocus } from "../../place/focus.store";
import { reasoningRefSchema, targetFields } from "../../place/target.schema";
import { canonicalBranch, firstOpenStep, reasoningRef, resolveTask } from "../../place/targets";
import { type EntityRow, findEntity, orderedSteps, requireEntity } from "../../place/targets.store";
import { fail } from "../../shared/errors";
import { writeNote } from "../vcs/note-write";
import { createEntity, finishEntity } from "./entity-writes";
import { requireLeaseFree } from "./leases.store";
import { closeCheckpointsSchema, closeStep } from "./step-close";
import { toStep } from "./steps.store";
import { overrideSchema } from "./strict";
import {
  entitySchema,
  eventSchema,
  longText,
  madeReady,
  madeReadySchema,
  PRIORITIES,
  stepSchema,
  type TaskEvent,
  tagsSchema,
  titleSchema,
} from "./tasks.schema";
import { findPlanByTitle, toEntity } from "./tasks.store";
import { checklistContract, findTemplate, type PlanTemplate, type TaskTemplate, TEMPLATES } from "./templates";

/** The plan macro_start files a task under when nothing else says which. */
const INBOX_TITLE = "Inbox";

const templateNames = TEMPLATES.map((template) => template.id);

function taskTemplate(id: string): TaskTemplate {
  const template = findTemplate(id);
  if (template?.kind !== "task") {
    fail("INVALID_INPUT", `No task template "${id}".`, "Call `tasks_templates_list` for the templates.", {
      template: id,
      templates: templateNames,
    });
  }
  return template;
}

/** explicit plan (an id, or a title: found or created) → focused plan → focused task's plan → "Inbox". */
function planFor(
  ctx: CommandContext,
  args: { plan?: string | undefined; plan_title?: string | undefined; plan_template?: string | undefined },
) {
  if (args.plan !== undefined && /^PLAN-[0-9]{3,}$/.test(args.plan)) {
    const plan = requireEntity(ctx.db, args.plan);
    if (plan.kind !== "plan") fail("INVALID_INPUT", `${plan.id} is not a plan.`, "Pass a PLAN-### id or a plan title.", { plan: plan.id });
    if (args.plan_title !== undefined && args.plan_title !== plan.title) {
      fail(
        "INVALID_INPUT",
        `${plan.id} is titled "${plan.title}", not "${args.plan_title}".`,
        "Drop plan_title, or pass the plan that has that title.",
        {
          plan: plan.id,
          title: plan.title,
          plan_title: args.plan_title,
        },
      );
    }
    return { plan, created: [] as TaskEvent[] };
  }
  if (args.plan_template !== undefined && findTemplate(args.plan_template)?.kind !== "plan") {
    fail("INVALID_INPUT", `No plan template "${args.plan_template}".`, "Call `tasks_templates_list` for the templates.", {
      template: args.plan_template,
      templates: templateNames,
    });
  }
  // A plan named by title (plan or plan_title) is explicit and wins over the focus.
  const named = args.plan !== undefined || args.plan_title !== undefined;
  const focus = named ? undefined : focusOf(ctx.db, ctx.principal.agent_id);
  const focused = focus === undefined ? undefined : findEntity(ctx.db, focus);
  const fromFocus = focused?.kind === "plan" ? focused : focused?.plan_id ? findEntity(ctx.db, focused.plan_id) : undefined;
  if (fromFocus) return { plan: fromFocus, created: [] as TaskEvent[] };
  const title = args.plan ?? args.plan_title ?? INBOX_TITLE;
  const existing = findPlanByTitle(ctx.db, title);
  if (existing) return { plan: existing, created: [] as TaskEvent[] };
  const template = args.plan_template === undefined ? undefined : findTemplate(args.plan_template);
  const contract = template === undefined ? undefined : checklistContract(template as PlanTemplate);
  const made = createEntity(ctx, { kind: "plan", plan_id: null, title, contract }, undefined, []);
  return { plan: made.entity, created: made.events };
}

export const tasksMacroStart = defineCommand({
  name: "tasks.macro.start",
  tool: "tasks_macro_start",
  title: "Start a task from a template",
  description: `Create a task from a template (${templateNames.filter((id) => id.endsWith("-task")).join(", ")}; default basic-task) and make it your focus. Plan: plan (a PLAN-### id, or a title found or created) > your focused plan > your focused task's plan > "${INBOX_TITLE}" (created if missing; plan_template applies to a plan created here).`,
  kind: "write",
  input: {
    title: titleSchema,
    template: z.string().min(1).max(64).default("basic-task"),
    plan: z.string().min(1).max(512).optional().describe("PLAN-### or a plan title."),
    plan_title: z.string().min(1).max(512).optional().describe("With a PLAN-### plan: must match its title."),
    plan_template: z.string().min(1).max(64).optional(),
    description: longText.optional(),
    priority: z.enum(PRIORITIES).optional(),
    tags: tagsSchema.optional(),
  },
  output: {
    task_id: z.string(),
    plan_id: z.string(),
    template: z.string(),
    task: entitySchema,
    steps: z.array(stepSchema),
    reasoning_ref: reasoningRefSchema,
    focus: z.string(),
    next: z.string(),
    events: z.array(eventSchema),
  },
  handler: (ctx, args) => {
    const template = taskTemplate(args.template);
    const { plan, created } = planFor(ctx, args);
    const made = createEntity(
      ctx,
      { kind: "task", plan_id: plan.id, title: args.title, description: args.description, priority: args.priority, tags: args.tags },
      plan,
      template.steps,
    );
    setFocus(ctx, made.entity.id);
    const first = made.steps[0];
    return {
      task_id: made.entity.id,
      plan_id: plan.id,
      template: template.id,
      task: toEntity(made.entity),
      steps: made.steps.map(toStep),
      reasoning_ref: reasoningRef(made.entity.id),
      focus: made.entity.id,
      next: first ? `Work on ${first.path}: ${first.title}; close it with tasks_macro_close_step.` : "Add steps with tasks_decompose.",
      events: [...created, ...made.events],
    };
  },
});

const progressOutput = {
  task: z.string(),
  status: z.string(),
  closed: stepSchema.nullable(),
  next_step: stepSchema.nullable(),
  remaining: z.number(),
  events: z.array(eventSchema),
  made_ready: madeReadySchema,
};

export const tasksMacroCloseStep = defineCommand({
  name: "tasks.macro.close_step",
  tool: "tasks_macro_close_step",
  title: "Close the next step",
  description:
    'Verify and close the first open step of your focused task (or target), checkpoints "gate" by default; when no step is open, mark the task DONE (once: a DONE task is left as is). Same gates as tasks_close_step.',
  kind: "write",
  input: { ...targetFields, checkpoints: closeCheckpointsSchema.default("gate"), override: overrideSchema },
  output: progressOutput,
  handler: (ctx, args) => {
    const task = resolveTask(ctx, args, "tasks_macro_close_step");
    const step = firstOpenStep(ctx.db, task.id);
    if (step === undefined) {
      if (task.status === "DONE") {
        ctx.warn({ code: "ALREADY_DONE", message: `${task.id} is already DONE.`, recovery: "Start the next task with tasks_macro_start." });
        return { task: task.id, status: task.status, closed: null, next_step: null, remaining: 0, events: [] };
      }
      const { next, event, made_ready } = finishEntity(ctx, task, "DONE", null);
      return { task: next.id, status: next.status, closed: null, next_step: null, remaining: 0, events: [event], ...madeReady(made_ready) };
    }
    requireLeaseFree(ctx, step);
    const closed = closeStep(ctx, { task, step }, args.checkpoints, args.override);
    const open = orderedSteps(ctx.db, task.id).filter((row) => row.completed === 0);
    const after = findEntity(ctx.db, task.id) as EntityRow;
    return {
      task: task.id,
      status: after.status,
      closed: closed.step,
      next_step: open[0] ? toStep(open[0]) : null,
      remaining: open.length,
      events: closed.events,
    };
  },
});

export const tasksMacroFinish = defineCommand({
  name: "tasks.macro.finish",
  tool: "tasks_macro_finish",
  title: "Finish a task",
  description:
    "Mark your focused task (or target) DONE, with an optional final note in its notes doc. Every step must be closed first. Finishing a DONE task again writes nothing and warns ALREADY_DONE.",
  kind: "write",
  input: {
    ...targetFields,
    final_note: z
      .string()
      .min(1)
      .max(16 * 1024)
      .optional(),
  },
  output: {
    task: z.string(),
    status: z.string(),
    note_seq: z.number().optional(),
    events: z.array(eventSchema),
    made_ready: madeReadySchema,
  },
  handler: (ctx, args) => {
    const task = resolveTask(ctx, args, "tasks_macro_finish");
    if (task.status === "DONE") {
      ctx.warn({
        code: "ALREADY_DONE",
        message: `${task.id} is already DONE; nothing was written.`,
        recovery: "Start the next task with tasks_macro_start.",
      });
      return { task: task.id, status: task.status, events: [] };
    }
    const { next, event, made_ready } = finishEntity(ctx, task, "DONE", null);
    if (args.final_note === undefined) return { task: next.id, status: next.status, events: [event], ...madeReady(made_ready) };
    const note = writeNote(ctx, canonicalBranch(ctx, task.id), {
      doc: reasoningRef(task.id).notes_doc,
      content: args.final_note,
      meta: { source: "tasks_macro_finish", task_id: task.id, event_id: event.event_id },
    });
    return { task: next.id, status: next.status, note_seq: note.seq, events: [event], ...madeReady(made_ready) };
  },
});

export const tasksTemplatesList = defineCommand({
  name: "tasks.templates.list",
  tool: "tasks_templates_list",
  title: "List templates",
  description: "The task templates (their steps and proof modes) and plan templates (their checklists) that tasks_macro_start accepts.",
  kind: "read",
  input: {},
  output: {
    templates: z.array(
      z.object({
        id: z.string(),
        kind: z.enum(["plan", "task"]),
        title: z.string(),
        steps: z.array(z.object({ title: z.string(), proof_modes: z.record(z.string(), z.string()).optional() })).optional(),
        checklist: z.array(z.string()).optional(),
      }),
    ),
  },
  handler: () => ({
    templates: TEMPLATES.map((template) =>
      template.kind === "task"
        ? {
            id: template.id,
            kind: template.kind,
            title: template.title,
            steps: template.steps.map((step) => ({ title: step.title, ...(step.proof_modes ? { proof_modes: step.proof_modes } : {}) })),
          }
        : { id: template.id, kind: template.kind, title: template.title, checklist: template.checklist },
    ),
  }),
});
