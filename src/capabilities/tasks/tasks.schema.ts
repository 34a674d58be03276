/**
 * Zod shapes of the tasks subsystem (docs/tasks.md): plan, task and step ids, statuses, the step
 * fields agents write, checkpoints and proof modes, target references, and the shapes commands return.
 */
import { z } from "zod";
import { MAX_TITLE_CHARS } from "../../shared/limits";

/** Long free text on a plan or task (description, context, contract): a brief, not a document. */
export const MAX_TASK_TEXT_CHARS = 16 * 1024;
/** Items in a step list (success criteria, tests, blockers) and their length. */
export const MAX_STEP_ITEMS = 50;
export const MAX_STEP_ITEM_CHARS = 1024;
/** Steps one create/decompose call adds: one transaction, bounded. */
export const MAX_NEW_STEPS = 100;
/** Tags on a plan or task. */
export const MAX_TASK_TAGS = 32;

export const TASK_STATUSES = ["TODO", "ACTIVE", "PARKED", "DONE", "CANCELED"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const PRIORITIES = ["LOW", "MEDIUM", "HIGH"] as const;
export const CHECKPOINTS = ["criteria", "tests", "security", "perf", "docs"] as const;
export type Checkpoint = (typeof CHECKPOINTS)[number];
/** Checkpoints that can carry a proof mode (criteria are confirmed, not proven). */
export const PROOF_CHECKPOINTS = ["tests", "security", "perf", "docs"] as const;
export type ProofCheckpoint = (typeof PROOF_CHECKPOINTS)[number];
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

const item = z.string().min(1).max(MAX_STEP_ITEM_CHARS);
export const itemList = z.array(item).max(MAX_STEP_ITEMS);
export const titleSchema = z.string().min(1).max(MAX_TITLE_CHARS);
export const longText = z.string().max(MAX_TASK_TEXT_CHARS);
export const tagsSchema = z.array(z.string().min(1).max(64)).max(MAX_TASK_TAGS).describe("Lowercased, de-duplicated and sorted.");

export const newStepSchema = z.strictObject({
  title: titleSchema,
  success_criteria: itemList.optional(),
  tests: itemList.optional(),
  blockers: itemList.optional().describe('["None"] means no blockers.'),
  next_action: z.string().max(MAX_STEP_ITEM_CHARS).optional(),
});
export type NewStep = z.infer<typeof newStepSchema>;

export const expectedRevision = z
  .number()
  .int()
  .min(0)
  .optional()
  .describe("Refuse the write (REVISION_MISMATCH) unless the entity is at this revision.");

export const stepSchema = z.object({
  id: z.string(),
  path: z.string(),
  parent_step_id: z.string().optional(),
  title: z.string(),
  next_action: z.string().optional(),
  stop_criteria: z.string().optional(),
  success_criteria: z.array(z.string()),
  tests: z.array(z.string()),
  blockers: z.array(z.string()),
  completed: z.boolean(),
  completed_at_ms: z.number().optional(),
  blocked: z.boolean(),
  block_reason: z.string().optional(),
  checkpoints: z.record(z.string(), z.boolean()),
  proof_modes: z.record(z.string(), z.enum(PROOF_MODES)),
});
export type Step = z.infer<typeof stepSchema>;

export const entitySchema = z.object({
  id: z.string(),
  kind: z.enum(["plan", "task"]),
  plan_id: z.string().optional(),
  title: z.string(),
  description: z.string().optional(),
  context: z.string().optional(),
  contract: z.string().optional(),
  status: z.enum(TASK_STATUSES),
  priority: z.enum(PRIORITIES),
  tags: z.array(z.string()),
  parked_until_ms: z.number().optional(),
  reasoning_mode: z.enum(["normal", "strict"]),
  revision: z.number(),
  created_at_ms: z.number(),
  updated_at_ms: z.number(),
});
export type Entity = z.infer<typeof entitySchema>;

export const reasoningRefSchema = z.object({
  branch: z.string(),
  notes_doc: z.string(),
  trace_doc: z.string(),
  graph_doc: z.string(),
});
export type ReasoningRef = z.infer<typeof reasoningRefSchema>;

export const eventSchema = z.object({
  event_id: z.string(),
  tick: z.number(),
  ts_ms: z.number(),
  type: z.string(),
  task: z.string(),
  path: z.string().optional(),
  payload: z.record(z.string(), z.unknown()),
});
export type TaskEvent = z.infer<typeof eventSchema>;
