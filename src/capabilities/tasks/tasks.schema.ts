/**
 * Zod shapes of the tasks subsystem (docs/tasks.md): the step fields agents write, priorities,
 * checkpoints, and the shapes commands return. Ids, statuses, proof modes and the `target` argument are
 * the place module's (src/place/target.schema.ts): every capability aimed at a plan or task uses them.
 */
import { z } from "zod";
import { PROOF_MODES, TASK_STATUSES } from "../../place/target.schema";
import { MAX_TITLE_CHARS } from "../../shared/limits";
import { DEFAULT_LEASE_TICKS, MAX_LEASE_TICKS } from "./leases.store";

/** Long free text on a plan or task (description, context, contract): a brief, not a document. */
export const MAX_TASK_TEXT_CHARS = 16 * 1024;
/** Items in a step list (success criteria, tests, blockers) and their length. */
export const MAX_STEP_ITEMS = 50;
export const MAX_STEP_ITEM_CHARS = 1024;
/** Steps one create/decompose call adds: one transaction, bounded. */
export const MAX_NEW_STEPS = 100;
/** Tags on a plan or task. */
export const MAX_TASK_TAGS = 32;

export const PRIORITIES = ["LOW", "MEDIUM", "HIGH"] as const;
export const CHECKPOINTS = ["criteria", "tests", "security", "perf", "docs"] as const;
export type Checkpoint = (typeof CHECKPOINTS)[number];
/** Checkpoints that can carry a proof mode (criteria are confirmed, not proven). */
export const PROOF_CHECKPOINTS = ["tests", "security", "perf", "docs"] as const;
export type ProofCheckpoint = (typeof PROOF_CHECKPOINTS)[number];

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

/** What finishing a task released: the tasks that waited on it and are ready now (docs/tasks.md). */
export const madeReadySchema = z
  .array(z.string())
  .optional()
  .describe("Tasks that waited on this one and are ready now (given when there are any).");

export function madeReady(ids: readonly string[]): { made_ready?: string[] } {
  return ids.length === 0 ? {} : { made_ready: [...ids] };
}

/** How long a step lease or a task claim lasts, in ticks (journaled operations of the workspace). */
export function ticksArg(what: string) {
  return z
    .number()
    .int()
    .min(1)
    .max(MAX_LEASE_TICKS)
    .default(DEFAULT_LEASE_TICKS)
    .describe(`${what} length in ticks (journaled operations of the workspace); default ${DEFAULT_LEASE_TICKS}.`);
}
