/**
 * Zod shapes of where a call is aimed: plan, task and step ids, the `target` argument (and its `task` /
 * `plan` aliases), step selectors, reasoning refs, and the statuses and proof modes a target's row
 * carries. Every capability that can be aimed at a plan or task declares its arguments with these.
 */
import { z } from "zod";

export const TASK_STATUSES = ["TODO", "ACTIVE", "PARKED", "DONE", "CANCELED"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const PROOF_MODES = ["off", "warn", "require"] as const;
export type ProofMode = (typeof PROOF_MODES)[number];
export const PLAN_ID = /^PLAN-[0-9]{3,}$/;
export const TASK_ID = /^TASK-[0-9]{3,}$/;
export const STEP_ID = /^STEP-[0-9A-F]{8,}$/;
export const STEP_PATH = /^s:[0-9]+(\.s:[0-9]+)*$/;
export const planIdSchema = z.string().regex(PLAN_ID, "plan ids look like PLAN-001");
export const taskIdSchema = z.string().regex(TASK_ID, "task ids look like TASK-001");

export const entityIdSchema = z
  .string()
  .regex(/^(PLAN|TASK)-[0-9]{3,}$/, "ids look like PLAN-001 or TASK-001")
  .describe("A plan or task id.");

/** `target`: an id, or `{id, kind}` (TargetRef); a kind that does not match the id is refused. */
export const targetSchema = z
  .union([entityIdSchema, z.strictObject({ id: entityIdSchema, kind: z.enum(["plan", "task"]).optional() })])
  .describe("Plan or task: `TASK-001` or `{id, kind}`. Defaults to your focus.");

export type TargetArg = z.infer<typeof targetSchema>;

/** Where a task command acts: `target` (or its alias `task`/`plan`), else the caller's focus. */
export const targetFields = {
  target: targetSchema.optional(),
  task: taskIdSchema.optional().describe("Alias of target for a task."),
  plan: planIdSchema.optional().describe("Alias of target for a plan."),
};

/** Step selectors: `step_id`, `path`, or `"focus"` (the first open step of the task). */
export const stepSelectorFields = {
  step: z
    .union([z.literal("focus"), z.string().regex(STEP_ID, "step ids look like STEP-0000000A")])
    .optional()
    .describe('A step id, or "focus": the first open step of the task.'),
  step_id: z.string().regex(STEP_ID, "step ids look like STEP-0000000A").optional(),
  path: z.string().regex(STEP_PATH, "paths look like s:0 or s:0.s:1").optional(),
};

export const reasoningRefSchema = z.object({
  branch: z.string(),
  notes_doc: z.string(),
  trace_doc: z.string(),
  graph_doc: z.string(),
});

export type ReasoningRef = z.infer<typeof reasoningRefSchema>;
