/**
 * Zod shapes and bounds of delegation jobs (docs/jobs.md): job ids and refs, statuses, the arguments
 * agents write, and the shapes commands return (a job, a list item, an event).
 */
import { z } from "zod";
import { MAX_TITLE_CHARS } from "../../shared/limits";

export const JOB_STATUSES = ["QUEUED", "RUNNING", "DONE", "FAILED", "CANCELED"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const JOB_PRIORITIES = ["LOW", "MEDIUM", "HIGH"] as const;
export type JobPriority = (typeof JOB_PRIORITIES)[number];
export const JOB_EVENT_TYPES = [
  "job_created",
  "job_claimed",
  "job_progress",
  "job_completed",
  "job_failed",
  "job_canceled",
  "job_requeued",
] as const;
export type JobEventType = (typeof JOB_EVENT_TYPES)[number];

/**
 * Default claim length in ticks (journaled operations of the workspace), as for step leases: a
 * workspace under a heavy multi-agent load journals a few tens of writes per second, so 2,000 ticks keep
 * a live worker's claim for about a minute of that, and far longer in ordinary use. Every progress
 * report renews the claim for its length, so a worker that reports keeps its job.
 */
export const DEFAULT_CLAIM_TICKS = 2_000;
/** Longest claim one call may ask for (the original's lease bound). */
export const MAX_CLAIM_TICKS = 10_000;
/** A job's prompt, a completion summary, a failure reason: a brief, like a task description; longer material goes into notes, named by `artifact_ref`. */
export const MAX_JOB_TEXT_CHARS = 16 * 1024;
/** A progress message, a cancel or requeue reason: one line of status. */
export const MAX_JOB_LINE_CHARS = 1_024;
/** An artifact ref (`notes@12`, `CARD-3`, `code:…`, a URL): as long as the longest ref `open` accepts. */
export const MAX_ARTIFACT_REF_CHARS = 512;
/** Events `jobs.open` shows per page: the original `open`'s default and ceiling. */
export const DEFAULT_JOB_EVENTS = 20;
export const MAX_JOB_EVENTS = 50;
/** Running and stale jobs the radar lists: a glance, not a list (jobs_list pages the rest). */
export const DEFAULT_RADAR_ITEMS = 10;
export const MAX_RADAR_ITEMS = 50;
/** Jobs counted per status at most: a count is a hint, not a scan of a large workspace. */
export const MAX_COUNTED_JOBS = 10_000;

/** A job command also answers to the original's `tasks_jobs_<verb>` names (facts §3.2) and their dotted form. */
export function jobAliases(verb: string): string[] {
  return [`tasks.jobs.${verb}`, `tasks_jobs_${verb}`];
}

export const JOB_ID = /^JOB-[0-9]{3,}$/;
/** `JOB-001` or `JOB-001@<seq>` (one event of the job). */
export const JOB_REF = /^(JOB-[0-9]{3,})(?:@([0-9]{1,15}))?$/;

export const jobIdSchema = z.string().regex(JOB_ID, "job ids look like JOB-001").describe("A job id, e.g. JOB-001.");
export const jobRefSchema = z
  .string()
  .regex(JOB_REF, "job refs look like JOB-001 or JOB-001@3")
  .describe("A job (JOB-001) or one of its events (JOB-001@3).");

// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to reject control characters.
const NO_CONTROL = /^[^\x00-\x1f\x7f]+$/;

export const jobTitleSchema = z.string().min(1).max(MAX_TITLE_CHARS);
export const jobTextSchema = z.string().min(1).max(MAX_JOB_TEXT_CHARS);
export const jobLineSchema = z.string().min(1).max(MAX_JOB_LINE_CHARS);
export const artifactRefSchema = z
  .string()
  .min(1)
  .max(MAX_ARTIFACT_REF_CHARS)
  .regex(NO_CONTROL, "an artifact ref has no control characters")
  .describe("Where the result lives: a ref `open` understands (notes@12, CARD-3, code:…) or a URL.");
export const claimRevisionSchema = z
  .number()
  .int()
  .min(1)
  .describe("The claim_revision jobs_claim returned: a report or finish carrying an older one is refused (REVISION_MISMATCH).");
export const ttlTicksSchema = z
  .number()
  .int()
  .min(1)
  .max(MAX_CLAIM_TICKS)
  .default(DEFAULT_CLAIM_TICKS)
  .describe(`Claim length in ticks (journaled operations of the workspace); default ${DEFAULT_CLAIM_TICKS}. Each report renews it.`);
export const expectedRevisionSchema = z
  .number()
  .int()
  .min(0)
  .optional()
  .describe("Refuse the write (REVISION_MISMATCH) unless the job is at this revision.");

export const claimSchema = z.object({
  holder: z.string(),
  claim_revision: z.number(),
  claimed_tick: z.number(),
  expires_tick: z.number(),
  ttl_ticks: z.number(),
  live: z.boolean().describe("RUNNING and the workspace tick is below expires_tick."),
});

export const jobSchema = z.object({
  id: z.string(),
  title: z.string(),
  prompt: z.string().optional(),
  prompt_chars: z.number(),
  prompt_truncated: z.boolean().optional(),
  status: z.enum(JOB_STATUSES),
  priority: z.enum(JOB_PRIORITIES),
  task: z.string().optional(),
  step: z.string().optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
  revision: z.number(),
  attempts: z.number().describe("How many times the job was claimed."),
  queued_tick: z.number().describe("Tick at which it last entered QUEUED (creation or requeue)."),
  claim: claimSchema.optional().describe("The current or last claim; cleared by cancel and requeue."),
  percent: z.number().optional(),
  progress_message: z.string().optional(),
  artifact_ref: z.string().optional(),
  summary: z.string().optional(),
  reason: z.string().optional(),
  last_event_seq: z.number(),
  created_by: z.string(),
  created_at_ms: z.number(),
  updated_at_ms: z.number(),
});
export type Job = z.infer<typeof jobSchema>;

export const jobItemSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: z.enum(JOB_STATUSES),
  priority: z.enum(JOB_PRIORITIES),
  task: z.string().optional(),
  revision: z.number(),
  holder: z.string().optional(),
  expires_tick: z.number().optional(),
  claim_live: z.boolean().optional(),
  percent: z.number().optional(),
  last_event_seq: z.number(),
  queued_tick: z.number(),
  updated_at_ms: z.number(),
});
export type JobItem = z.infer<typeof jobItemSchema>;

export const jobEventSchema = z.object({
  ref: z.string().describe("JOB-001@<seq>: opens this event."),
  job: z.string(),
  seq: z.number(),
  tick: z.number(),
  ts_ms: z.number(),
  agent_id: z.string(),
  type: z.enum(JOB_EVENT_TYPES),
  message: z.string().optional(),
  message_truncated: z.boolean().optional(),
  payload: z.record(z.string(), z.unknown()),
});
export type JobEvent = z.infer<typeof jobEventSchema>;

/** The answer of every job write: the job as it now is, the event written (null for a no-op), the tick. */
export const jobWriteOutput = {
  job: jobSchema,
  event: jobEventSchema.nullable(),
  now_tick: z.number().describe("The workspace tick after this call."),
};
