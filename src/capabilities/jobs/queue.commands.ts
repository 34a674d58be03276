/**
 * Managing the queue: `jobs.cancel` (QUEUED, RUNNING or FAILED → CANCELED: the worker's next report then
 * fails INVALID_TRANSITION) and `jobs.requeue` (FAILED, CANCELED, or RUNNING → QUEUED, at the back of the
 * queue). Both clear the claim and take an optional `expected_revision`. Another agent's live claim is
 * JOB_CLAIM_HELD unless `force: true`, which takes it over: the event records the previous holder and the
 * answer carries `taken_over` and a CLAIM_TAKEN_OVER warning.
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { defineCommand } from "../../commands/registry";
import { changeJob, NO_CLAIM, quote } from "./job-changes";
import { toJob } from "./job-views";
import { expectedRevisionSchema, jobAliases, jobIdSchema, jobLineSchema, jobWriteOutput } from "./jobs.schema";
import { currentTick, type JobRow, requireJob } from "./jobs.store";
import { checkRevision, requireTransition, type TakenOver, type TakeoverAction, takeOver } from "./lifecycle";

const queueInput = {
  job: jobIdSchema,
  reason: jobLineSchema.optional(),
  expected_revision: expectedRevisionSchema,
  force: z
    .boolean()
    .default(false)
    .describe("Act over another agent's live claim (taken over; the job's event records the previous holder)."),
};

const queueOutput = {
  ...jobWriteOutput,
  taken_over: z
    .object({ previous_holder: z.string(), previous_expires_tick: z.number(), previous_claim_revision: z.number() })
    .optional()
    .describe("Present when force: true took over another agent's live claim."),
};

/** The checks both commands share, in the documented order; answers the claim taken over, if any. */
function admit(ctx: CommandContext, row: JobRow, action: TakeoverAction, args: { expected_revision?: number | undefined; force: boolean }) {
  requireTransition(row, action);
  checkRevision(row, args.expected_revision);
  const taken = takeOver(row, currentTick(ctx.db), ctx.principal.agent_id, args.force, action);
  if (taken) {
    ctx.warn({
      code: "CLAIM_TAKEN_OVER",
      message: `${row.id} was claimed by ${taken.previous_holder} until tick ${taken.previous_expires_tick}: its claim is dropped.`,
      recovery: `Tell ${taken.previous_holder} its work on ${row.id} stopped; its next report or finish is refused.`,
    });
  }
  return taken;
}

/** What the event records of the state a cancel or requeue left, and of a claim it took over. */
function origin(row: JobRow, reason: string | undefined, taken: TakenOver | null): Record<string, unknown> {
  return {
    from: row.status,
    ...(row.status === "RUNNING" ? { previous_holder: row.holder } : {}),
    ...(taken ? { ...taken, forced: true } : {}),
    ...(reason === undefined ? {} : { reason }),
  };
}

/** The answer of a cancel or requeue: the job as it is now, its event, and the claim taken over, if any. */
function answerOf(applied: ReturnType<typeof changeJob>, taken: TakenOver | null) {
  return {
    job: toJob(applied.row, applied.tick, { prompt: false }),
    event: applied.event,
    now_tick: applied.tick,
    ...(taken ? { taken_over: taken } : {}),
  };
}

function summaryOf(verb: string, reason: string | undefined, taken: TakenOver | null): string {
  const over = taken ? ` over ${taken.previous_holder}'s live claim (forced)` : "";
  return `${verb}${over}${reason === undefined ? "" : `: ${quote(reason)}`}`;
}

export const jobsCancel = defineCommand({
  name: "jobs.cancel",
  tool: "jobs_cancel",
  aliases: jobAliases("cancel"),
  title: "Cancel a job",
  description:
    "Cancel a QUEUED, RUNNING or FAILED job (CANCELED; its claim is dropped, so the worker's next report fails). DONE and CANCELED jobs are refused (INVALID_TRANSITION). Another agent's live claim is JOB_CLAIM_HELD unless force: true (taken over, recorded with the holder). jobs_requeue brings it back.",
  kind: "write",
  example: { job: "JOB-001", reason: "No longer needed" },
  input: queueInput,
  output: queueOutput,
  handler: (ctx, args) => {
    const row = requireJob(ctx.db, args.job);
    const taken = admit(ctx, row, "cancel", args);
    const applied = changeJob(ctx, row, () => ({ ...NO_CLAIM, status: "CANCELED", reason: args.reason ?? null }), {
      type: "job_canceled",
      message: args.reason,
      payload: origin(row, args.reason, taken),
      summary: summaryOf("canceled", args.reason, taken),
    });
    return answerOf(applied, taken);
  },
});

export const jobsRequeue = defineCommand({
  name: "jobs.requeue",
  tool: "jobs_requeue",
  aliases: jobAliases("requeue"),
  title: "Requeue a job",
  description:
    "Put a job back in the queue (QUEUED, at its back): a FAILED or CANCELED job, a RUNNING one whose claim expired, or your own claim handed back. Another agent's live claim is JOB_CLAIM_HELD unless force: true (taken over, recorded with the holder). Clears the claim, progress and outcome.",
  kind: "write",
  example: { job: "JOB-001", reason: "Retry after the fix" },
  input: queueInput,
  output: queueOutput,
  handler: (ctx, args) => {
    const row = requireJob(ctx.db, args.job);
    const taken = admit(ctx, row, "requeue", args);
    const applied = changeJob(
      ctx,
      row,
      (tick) => ({
        ...NO_CLAIM,
        status: "QUEUED",
        queued_tick: tick,
        percent: null,
        progress_message: null,
        artifact_ref: null,
        summary: null,
        reason: null,
      }),
      {
        type: "job_requeued",
        message: args.reason,
        payload: origin(row, args.reason, taken),
        summary: summaryOf("requeued", args.reason, taken),
      },
    );
    return answerOf(applied, taken);
  },
});
