/**
 * Working on a job: `jobs.claim` (an exclusive claim on the workspace tick clock, holder = the
 * authenticated agent), `jobs.report` (progress; renews the claim), `jobs.complete` and `jobs.fail`
 * (finish with an artifact ref). Reports and finishes need the caller's live claim and its
 * claim_revision. Writes run one at a time in the workspace object, so of several agents claiming one
 * job at once exactly one wins and the others get JOB_CLAIM_HELD.
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { changeJob, quote } from "./job-changes";
import { toJob } from "./job-views";
import {
  artifactRefSchema,
  claimRevisionSchema,
  DEFAULT_CLAIM_TICKS,
  jobAliases,
  jobEventSchema,
  jobIdSchema,
  jobLineSchema,
  jobSchema,
  jobTextSchema,
  jobWriteOutput,
  MAX_CLAIM_TICKS,
  ttlTicksSchema,
} from "./jobs.schema";
import { currentTick, oldestQueued, requireJob } from "./jobs.store";
import { claimHeld, claimLive, requireHolder, requireTransition } from "./lifecycle";

export const jobsClaim = defineCommand({
  name: "jobs.claim",
  tool: "jobs_claim",
  aliases: jobAliases("claim"),
  title: "Claim a job",
  description: `Take a job to work on: the named job, or the one queued longest. The claim is yours alone for ttl_ticks (default ${DEFAULT_CLAIM_TICKS}, at most ${MAX_CLAIM_TICKS}) workspace ticks, and each jobs_report renews it; pass the answer's claim_revision to report, complete and fail. Another agent's live claim is JOB_CLAIM_HELD; an expired one is taken over. Re-claiming your live claim changes nothing. job: null when nothing is queued.`,
  kind: "write",
  input: {
    job: jobIdSchema.optional().describe("The job to claim; default: the job queued longest."),
    ttl_ticks: ttlTicksSchema,
  },
  output: {
    job: jobSchema.nullable(),
    claim_revision: z.number().nullable(),
    changed: z.boolean().describe("False when nothing was written (your live claim, or nothing queued)."),
    event: jobEventSchema.nullable(),
    now_tick: z.number(),
  },
  handler: (ctx, args) => {
    const agent = ctx.principal.agent_id;
    const now = currentTick(ctx.db);
    const row = args.job === undefined ? oldestQueued(ctx.db, true) : requireJob(ctx.db, args.job);
    if (row === undefined) {
      ctx.warn({
        code: "QUEUE_EMPTY",
        message: "No job is queued.",
        recovery: "Create one with jobs_create, or look at jobs_radar for stale claims to take over.",
      });
      return { job: null, claim_revision: null, changed: false, event: null, now_tick: now };
    }
    requireTransition(row, "claim");
    if (claimLive(row, now)) {
      if (row.holder !== agent) claimHeld(row, now);
      return { job: toJob(row, now, { prompt: true }), claim_revision: row.claim_revision, changed: false, event: null, now_tick: now };
    }
    const takeover = row.status === "RUNNING" ? { previous_holder: row.holder, previous_expires_tick: row.expires_tick } : {};
    const revision = row.revision + 1;
    const applied = changeJob(
      ctx,
      row,
      (tick) => ({
        status: "RUNNING",
        holder: agent,
        claim_revision: revision,
        claimed_tick: tick,
        expires_tick: tick + args.ttl_ticks,
        ttl_ticks: args.ttl_ticks,
        attempts: row.attempts + 1,
      }),
      {
        type: "job_claimed",
        payload: { claim_revision: revision, ttl_ticks: args.ttl_ticks, ...takeover },
        summary: `claimed by ${agent}${row.status === "RUNNING" ? ` (expired claim of ${row.holder})` : ""}`,
      },
    );
    return {
      job: toJob(applied.row, applied.tick, { prompt: true }),
      claim_revision: revision,
      changed: true,
      event: applied.event,
      now_tick: applied.tick,
    };
  },
});

const claimedFields = { job: jobIdSchema, claim_revision: claimRevisionSchema };

export const jobsReport = defineCommand({
  name: "jobs.report",
  tool: "jobs_report",
  aliases: jobAliases("report"),
  title: "Report job progress",
  description:
    "Record progress on a job you hold: a message and an optional percent (0–100). Renews your claim for its ttl_ticks from now. Needs your live claim and its claim_revision.",
  kind: "write",
  example: { job: "JOB-001", claim_revision: 1, message: "Parsed 3 of 5 modules", percent: 60 },
  input: { ...claimedFields, message: jobLineSchema, percent: z.number().int().min(0).max(100).optional() },
  output: jobWriteOutput,
  handler: (ctx, args) => {
    const row = requireJob(ctx.db, args.job);
    requireHolder(row, "report", currentTick(ctx.db), ctx.principal.agent_id, args.claim_revision);
    const ttl = row.ttl_ticks as number;
    const applied = changeJob(
      ctx,
      row,
      (tick) => ({ expires_tick: tick + ttl, percent: args.percent ?? row.percent, progress_message: args.message }),
      {
        type: "job_progress",
        message: args.message,
        payload: { ...(args.percent === undefined ? {} : { percent: args.percent }), claim_revision: args.claim_revision },
        summary: `${args.percent === undefined ? "" : `${args.percent}% `}${quote(args.message)}`,
      },
    );
    return { job: toJob(applied.row, applied.tick, { prompt: false }), event: applied.event, now_tick: applied.tick };
  },
});

export const jobsComplete = defineCommand({
  name: "jobs.complete",
  tool: "jobs_complete",
  aliases: jobAliases("complete"),
  title: "Complete a job",
  description:
    "Finish a job you hold: DONE (final), with a summary and an optional artifact_ref naming the result (notes@12, CARD-3, code:…, a URL). Needs your live claim and its claim_revision.",
  kind: "write",
  example: { job: "JOB-001", claim_revision: 1, summary: "Listed 4 missed edge cases in notes@12", artifact_ref: "notes@12" },
  input: { ...claimedFields, summary: jobTextSchema, artifact_ref: artifactRefSchema.optional() },
  output: jobWriteOutput,
  handler: (ctx, args) => {
    const row = requireJob(ctx.db, args.job);
    requireHolder(row, "complete", currentTick(ctx.db), ctx.principal.agent_id, args.claim_revision);
    const applied = changeJob(ctx, row, () => ({ status: "DONE", summary: args.summary, artifact_ref: args.artifact_ref ?? null }), {
      type: "job_completed",
      message: args.summary,
      payload: { claim_revision: args.claim_revision, ...(args.artifact_ref === undefined ? {} : { artifact_ref: args.artifact_ref }) },
      summary: `completed: ${quote(args.summary)}`,
    });
    return { job: toJob(applied.row, applied.tick, { prompt: false }), event: applied.event, now_tick: applied.tick };
  },
});

export const jobsFail = defineCommand({
  name: "jobs.fail",
  tool: "jobs_fail",
  aliases: jobAliases("fail"),
  title: "Fail a job",
  description:
    "Give up on a job you hold: FAILED, with the reason and an optional artifact_ref (a log, a note). jobs_requeue runs it again. Needs your live claim and its claim_revision.",
  kind: "write",
  example: { job: "JOB-001", claim_revision: 1, reason: "The parser does not build on main" },
  input: { ...claimedFields, reason: jobTextSchema, artifact_ref: artifactRefSchema.optional() },
  output: jobWriteOutput,
  handler: (ctx, args) => {
    const row = requireJob(ctx.db, args.job);
    requireHolder(row, "fail", currentTick(ctx.db), ctx.principal.agent_id, args.claim_revision);
    const applied = changeJob(ctx, row, () => ({ status: "FAILED", reason: args.reason, artifact_ref: args.artifact_ref ?? null }), {
      type: "job_failed",
      message: args.reason,
      payload: { claim_revision: args.claim_revision, ...(args.artifact_ref === undefined ? {} : { artifact_ref: args.artifact_ref }) },
      summary: `failed: ${quote(args.reason)}`,
    });
    return { job: toJob(applied.row, applied.tick, { prompt: false }), event: applied.event, now_tick: applied.tick };
  },
});
