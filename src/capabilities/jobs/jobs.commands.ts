/**
 * Job commands that create and read: `jobs.create` (queue a delegation job), `jobs.list` (paged, by
 * status or task), `jobs.radar` (counts, the queue's head, live and stale claims) and `jobs.open` (a
 * job with its event tail, or one event). Claims and finishing are in claims.commands.ts, cancel and
 * requeue in queue.commands.ts.
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { STEP_ID, taskIdSchema } from "../../place/target.schema";
import { findEntity, findStep } from "../../place/targets.store";
import type { BudgetSpec } from "../../shared/budget";
import { fail } from "../../shared/errors";
import { utf8Bytes } from "../../shared/json";
import { keyedPageBudget, keyedPaginationSchema } from "../../shared/keyed-page";
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT, MAX_META_BYTES } from "../../shared/limits";
import { paginationSchema } from "../docs/paging";
import { createJob, quote } from "./job-changes";
import { openJobRef, parseJobRef } from "./job-refs";
import { toItem, toJob } from "./job-views";
import {
  DEFAULT_JOB_EVENTS,
  DEFAULT_RADAR_ITEMS,
  JOB_PRIORITIES,
  JOB_STATUSES,
  jobAliases,
  jobEventSchema,
  jobIdSchema,
  jobItemSchema,
  jobRefSchema,
  jobSchema,
  jobTextSchema,
  jobTitleSchema,
  jobWriteOutput,
  MAX_JOB_EVENTS,
  MAX_RADAR_ITEMS,
} from "./jobs.schema";
import { countByStatus, currentTick, listJobs, nextJobId, oldestQueued, runningJobs } from "./jobs.store";

export const jobsCreate = defineCommand({
  name: "jobs.create",
  tool: "jobs_create",
  aliases: jobAliases("create"),
  title: "Create a job",
  description:
    "Queue a delegation job for another agent: a title and the prompt (or description) it works from, optionally the task and step it serves, a priority and meta. Answers JOB-001…, status QUEUED, revision 0.",
  kind: "write",
  example: { title: "Review the parser", prompt: "List the edge cases src/parser.ts misses." },
  input: {
    title: jobTitleSchema,
    prompt: jobTextSchema.optional().describe("What the worker should do. Give this or description."),
    description: jobTextSchema.optional().describe("Another name for prompt."),
    task: taskIdSchema.optional().describe("The task the job serves."),
    step: z.string().regex(STEP_ID, "step ids look like STEP-0000000A").optional().describe("A step of `task` the job serves."),
    priority: z.enum(JOB_PRIORITIES).default("MEDIUM"),
    meta: z.record(z.string(), z.unknown()).optional().describe(`Small JSON object (at most ${MAX_META_BYTES} bytes).`),
  },
  output: jobWriteOutput,
  handler: (ctx, args) => {
    if ((args.prompt === undefined) === (args.description === undefined)) {
      fail("INVALID_INPUT", "Give the job's prompt (or description), exactly one of the two.", "Pass prompt: what the worker should do.", {
        fields: ["prompt", "description"],
      });
    }
    const prompt = (args.prompt ?? args.description) as string;
    if (args.step !== undefined && args.task === undefined) {
      fail("INVALID_INPUT", "A step needs its task.", "Pass task with step.", { fields: ["task", "step"] });
    }
    if (args.task !== undefined && findEntity(ctx.db, args.task)?.kind !== "task") {
      fail("UNKNOWN_ID", `No task ${args.task} in this workspace.`, "Call `tasks_context` to list tasks.", { id: args.task });
    }
    if (args.task !== undefined && args.step !== undefined && !findStep(ctx.db, args.task, { id: args.step })) {
      fail("UNKNOWN_ID", `Task ${args.task} has no step ${args.step}.`, "Call `tasks_radar` on the task to see its steps.", {
        id: args.step,
        task: args.task,
      });
    }
    const meta = args.meta === undefined ? null : JSON.stringify(args.meta);
    if (meta !== null && utf8Bytes(meta) > MAX_META_BYTES) {
      fail("PAYLOAD_TOO_LARGE", `meta is larger than ${MAX_META_BYTES} bytes.`, "Keep meta small; put long text in the prompt.", {
        max_bytes: MAX_META_BYTES,
      });
    }
    const id = nextJobId(ctx.db);
    const applied = createJob(
      ctx,
      (tick) => ({
        id,
        title: args.title,
        prompt,
        // Characters as SQLite counts them (code points), so the answer matches later reads.
        prompt_chars: [...prompt].length,
        task_id: args.task ?? null,
        step_id: args.step ?? null,
        priority: args.priority,
        meta_json: meta,
        status: "QUEUED",
        revision: 0,
        queued_tick: tick,
        attempts: 0,
        holder: null,
        claim_revision: null,
        claimed_tick: null,
        expires_tick: null,
        ttl_ticks: null,
        percent: null,
        progress_message: null,
        artifact_ref: null,
        summary: null,
        reason: null,
        last_event_seq: 1,
        created_by: ctx.principal.agent_id,
        created_at_ms: ctx.nowMs,
        updated_at_ms: ctx.nowMs,
      }),
      {
        type: "job_created",
        message: args.title,
        payload: { priority: args.priority, ...(args.task ? { task: args.task } : {}), ...(args.step ? { step: args.step } : {}) },
        summary: `created: ${quote(args.title)}`,
      },
    );
    return { job: toJob(applied.row, applied.tick, { prompt: false }), event: applied.event, now_tick: applied.tick };
  },
});

export const jobsList = defineCommand({
  name: "jobs.list",
  tool: "jobs_list",
  aliases: jobAliases("list"),
  title: "List jobs",
  description:
    "Jobs in id order, paged (continue with cursor = next_cursor), optionally of one status or one task: status, priority, holder and claim expiry, progress.",
  kind: "read",
  input: {
    status: z.enum(JOB_STATUSES).optional(),
    task: taskIdSchema.optional().describe("Only the jobs created for this task."),
    limit: z.number().int().min(1).max(MAX_LIST_LIMIT).default(DEFAULT_LIST_LIMIT),
    cursor: jobIdSchema.optional().describe("The last id of the previous page (its next_cursor)."),
  },
  output: { jobs: z.array(jobItemSchema), pagination: keyedPaginationSchema, now_tick: z.number() },
  budget: keyedPageBudget("jobs", "id", ["id", "status", "holder"]),
  handler: (ctx, args) => {
    const now = currentTick(ctx.db);
    const rows = listJobs(ctx.db, { status: args.status, task: args.task, after: args.cursor }, args.limit);
    const shown = rows.slice(0, args.limit);
    const hasMore = rows.length > args.limit;
    return {
      jobs: shown.map((row) => toItem(row, now)),
      pagination: {
        cursor: args.cursor ?? null,
        ...(hasMore ? { next_cursor: shown[shown.length - 1]?.id as string } : {}),
        has_more: hasMore,
        limit: args.limit,
        count: shown.length,
      },
      now_tick: now,
    };
  },
});

export const jobsRadar = defineCommand({
  name: "jobs.radar",
  tool: "jobs_radar",
  aliases: jobAliases("radar"),
  title: "Where the jobs stand",
  description:
    "Jobs at a glance: counts by status, the job queued longest (the next jobs_claim takes it), running jobs with their holder and claim expiry (soonest first), stale claims (expired, requeue or claim them), and the next move.",
  kind: "read",
  input: {
    limit: z.number().int().min(1).max(MAX_RADAR_ITEMS).default(DEFAULT_RADAR_ITEMS).describe("Running and stale jobs shown, each."),
  },
  output: {
    now_tick: z.number(),
    counts: z.object(
      Object.fromEntries(JOB_STATUSES.map((status) => [status, z.number()])) as Record<(typeof JOB_STATUSES)[number], z.ZodNumber>,
    ),
    capped: z.boolean().describe("A count stopped at its bound."),
    oldest_queued: jobItemSchema.nullable(),
    running: z.array(jobItemSchema),
    running_has_more: z.boolean(),
    stale: z.array(jobItemSchema),
    stale_has_more: z.boolean(),
    next: z.array(z.string()),
  },
  budget: { lists: ["stale", "running"], keep: ["id", "holder", "expires_tick"], trimFromEnd: true },
  handler: (ctx, args) => {
    const now = currentTick(ctx.db);
    const { counts, capped } = countByStatus(ctx.db);
    const queued = oldestQueued(ctx.db, false);
    const live = runningJobs(ctx.db, now, "live", args.limit);
    const stale = runningJobs(ctx.db, now, "stale", args.limit);
    const next: string[] = [];
    if (queued) next.push(`Claim ${queued.id} (queued longest): jobs_claim.`);
    const firstStale = stale[0];
    if (firstStale)
      next.push(
        `${firstStale.id}'s claim by ${firstStale.holder} expired at tick ${firstStale.expires_tick}: jobs_requeue or jobs_claim it.`,
      );
    if (next.length === 0)
      next.push(counts.RUNNING > 0 ? "Wait for the running jobs, or open one to follow it." : "No job waits: jobs_create delegates work.");
    return {
      now_tick: now,
      counts,
      capped,
      oldest_queued: queued ? toItem(queued, now) : null,
      running: live.slice(0, args.limit).map((row) => toItem(row, now)),
      running_has_more: live.length > args.limit,
      stale: stale.slice(0, args.limit).map((row) => toItem(row, now)),
      stale_has_more: stale.length > args.limit,
      next,
    };
  },
});

type Payload = Record<string, unknown>;

/** Prompt lengths kept, largest first, when the trimmed answer still does not fit the budget. */
const PROMPT_CUTS = [2_000, 500, 0];

/**
 * The page of a small form that shows no event, though the answer had some: more remain (`has_more`) and
 * no `next_cursor`, which would pass over the events never shown (budget.pages.ts does the same).
 */
function withoutEvents(page: unknown): unknown {
  if (page === null || typeof page !== "object" || (page as { count?: number }).count === 0) return page;
  const { next_cursor: _withheld, ...rest } = page as Payload;
  return { ...rest, count: 0, has_more: true };
}

/** Small forms of a jobs_open answer: the prompt cut shorter and shorter, event refs only. */
function openStubs(original: Payload): Payload[] {
  if (original.kind !== "job") return [];
  const job = original.job as Payload & { prompt?: string };
  const refs = ((original.events as Payload[] | undefined) ?? []).map((event) => ({ ref: event.ref, type: event.type }));
  return PROMPT_CUTS.map((cut) => {
    const { prompt, ...rest } = job;
    const shortJob =
      cut === 0 || prompt === undefined
        ? rest
        : { ...rest, prompt: prompt.slice(0, cut), prompt_truncated: prompt.length > cut || job.prompt_truncated === true };
    return {
      kind: original.kind,
      ref: original.ref,
      job: shortJob,
      events: cut === 0 ? [] : refs,
      pagination: cut === 0 ? withoutEvents(original.pagination) : original.pagination,
      now_tick: original.now_tick,
    };
  });
}

const OPEN_BUDGET: BudgetSpec = {
  lists: ["events"],
  keep: ["ref", "seq", "tick", "type"],
  stubs: openStubs,
  repair: (payload, original) => {
    const events = payload.events as { seq: number }[] | undefined;
    const before = original.events as unknown[] | undefined;
    const page = payload.pagination as { cursor: number | null; next_cursor?: number } | undefined;
    if (!events || !before || !page || events.length === before.length) return payload;
    // A tail page dropped its oldest events: the next page starts below the oldest one shown.
    const oldest = events[0]?.seq ?? page.cursor ?? undefined;
    return { ...payload, pagination: { ...page, count: events.length, has_more: true, ...(oldest ? { next_cursor: oldest } : {}) } };
  },
};

export const jobsOpen = defineCommand({
  name: "jobs.open",
  tool: "jobs_open",
  aliases: jobAliases("open"),
  title: "Open a job",
  description:
    "A job (JOB-001) with its prompt, claim and progress, and its newest events (oldest first; older ones with cursor = next_cursor); or one event (JOB-001@3).",
  kind: "read",
  example: { job: "JOB-001" },
  input: {
    job: jobRefSchema,
    limit: z.number().int().min(1).max(MAX_JOB_EVENTS).default(DEFAULT_JOB_EVENTS).describe("Events per page."),
    cursor: z.number().int().positive().optional().describe("Show events with a seq below this (from next_cursor)."),
  },
  output: {
    kind: z.enum(["job", "job_event"]),
    ref: z.string(),
    job: z.union([jobSchema, jobItemSchema]),
    events: z.array(jobEventSchema).optional(),
    event: jobEventSchema.optional(),
    pagination: paginationSchema.optional(),
    now_tick: z.number(),
  },
  budget: OPEN_BUDGET,
  handler: (ctx, args) => {
    const ref = parseJobRef(args.job) as { id: string; eventSeq?: number };
    return openJobRef(ctx, ref.id, ref.eventSeq, { limit: args.limit, cursor: args.cursor });
  },
});
