/**
 * The job state machine and the claim rules (docs/jobs.md), as pure checks that throw typed errors:
 * which statuses each action may start from (INVALID_TRANSITION), who holds a live claim
 * (JOB_CLAIM_HELD, JOB_NOT_CLAIMED; cancel and requeue take another agent's live claim over only with
 * force), and stale revisions (REVISION_MISMATCH). No I/O: the caller passes the job row and the
 * workspace tick.
 */
import { fail } from "../../shared/errors";
import { suggest } from "../../shared/suggestion";
import type { JobStatus } from "./jobs.schema";

export type JobAction = "claim" | "report" | "complete" | "fail" | "cancel" | "requeue";

/**
 * The statuses each action may start from. DONE is final. From RUNNING, cancel and requeue further need
 * the claim to be expired, held by the caller, or taken over with force; claim needs it expired or the
 * caller's.
 */
export const ALLOWED_FROM: Readonly<Record<JobAction, readonly JobStatus[]>> = {
  claim: ["QUEUED", "RUNNING"],
  report: ["RUNNING"],
  complete: ["RUNNING"],
  fail: ["RUNNING"],
  cancel: ["QUEUED", "RUNNING", "FAILED"],
  requeue: ["RUNNING", "FAILED", "CANCELED"],
};

/** What a claim check needs of a job row. */
export interface ClaimState {
  id: string;
  status: JobStatus;
  revision: number;
  holder: string | null;
  claim_revision: number | null;
  expires_tick: number | null;
}

/** A claim is live while the job runs and the workspace tick is below its expiry. */
export function claimLive(job: ClaimState, now: number): boolean {
  return job.status === "RUNNING" && job.expires_tick !== null && now < job.expires_tick;
}

export function requireTransition(job: ClaimState, action: JobAction): void {
  const allowed = ALLOWED_FROM[action];
  if (allowed.includes(job.status)) return;
  fail(
    "INVALID_TRANSITION",
    `Job ${job.id} is ${job.status}: ${action} works on ${allowed.join(", ")} jobs only.`,
    job.status === "DONE"
      ? "A DONE job is final: create a new job for more work."
      : "Open the job to see its state; requeue a FAILED or CANCELED job to run it again.",
    { job: job.id, status: job.status, action, allowed_from: [...allowed] },
    [suggest("jobs_open", { job: job.id }, "See the job's state and its latest events.")],
  );
}

/** Actions that may take over another agent's live claim with `force: true`. */
export type TakeoverAction = "cancel" | "requeue";

/**
 * Another agent holds a live claim on the job. For cancel and requeue (`forceable`) the recovery names
 * `force: true`; a claim, report or finish can only wait.
 */
export function claimHeld(job: ClaimState, now: number, forceable?: TakeoverAction): never {
  fail(
    "JOB_CLAIM_HELD",
    `Job ${job.id} is claimed by ${job.holder} until tick ${job.expires_tick} (now ${now}).`,
    forceable
      ? `Wait until the holder finishes or its claim expires at tick ${job.expires_tick}, or pass force: true to ${forceable} the job over the holder's live claim (recorded with the holder in the job's event).`
      : "Take another job (jobs_claim without job takes the oldest queued one), or wait until the holder finishes or its claim expires.",
    { job: job.id, holder: job.holder, expires_tick: job.expires_tick, now_tick: now, claim_revision: job.claim_revision },
    [suggest("jobs_open", { job: job.id }, "See who holds the job, until when, and its progress.")],
  );
}

/** The live claim a forced cancel or requeue took over from another agent. */
export interface TakenOver {
  previous_holder: string;
  previous_expires_tick: number;
  previous_claim_revision: number;
}

/**
 * Cancel and requeue over a claim: another agent's live claim needs `force` (else JOB_CLAIM_HELD) and is
 * then taken over; the answer is what was taken, or null when no other agent held a live claim (none,
 * expired, or the caller's own).
 */
export function takeOver(job: ClaimState, now: number, agent: string, force: boolean, action: TakeoverAction): TakenOver | null {
  if (!claimLive(job, now) || job.holder === agent) return null;
  if (!force) claimHeld(job, now, action);
  return {
    previous_holder: job.holder as string,
    previous_expires_tick: job.expires_tick as number,
    previous_claim_revision: job.claim_revision as number,
  };
}

/** The caller holds no live claim on the job (none, or it expired). */
export function notClaimed(job: ClaimState, now: number, agent: string): never {
  fail(
    "JOB_NOT_CLAIMED",
    job.holder === agent
      ? `Your claim on job ${job.id} expired at tick ${job.expires_tick} (now ${now}).`
      : `You hold no live claim on job ${job.id}.`,
    "Claim the job with jobs_claim and use the claim_revision it returns; report progress to keep a claim alive.",
    { job: job.id, holder: job.holder, expires_tick: job.expires_tick, now_tick: now, agent },
    [suggest("jobs_claim", { job: job.id }, "Claim the job (again).")],
  );
}

/**
 * A report or finish: the job must be RUNNING under the caller's live claim, and `claimRevision` must be
 * that claim's (a claim taken again since carries a new one).
 */
export function requireHolder(job: ClaimState, action: JobAction, now: number, agent: string, claimRevision: number): void {
  requireTransition(job, action);
  const live = claimLive(job, now);
  if (live && job.holder !== agent) claimHeld(job, now);
  if (!live) notClaimed(job, now, agent);
  if (job.claim_revision !== claimRevision) {
    fail(
      "REVISION_MISMATCH",
      `claim_revision ${claimRevision} is not the current claim of job ${job.id} (${job.claim_revision}).`,
      "Use the claim_revision of your latest jobs_claim answer (jobs_open shows the current claim).",
      { job: job.id, expected: claimRevision, actual: job.claim_revision },
      [suggest("jobs_open", { job: job.id }, "See the current claim.")],
    );
  }
}

/** `expected_revision` of cancel and requeue. */
export function checkRevision(job: ClaimState, expected: number | undefined): void {
  if (expected === undefined || expected === job.revision) return;
  fail(
    "REVISION_MISMATCH",
    `Job ${job.id} is at revision ${job.revision}, not ${expected}.`,
    "Open the job, check what changed, and retry with its current revision.",
    { job: job.id, expected, actual: job.revision },
    [suggest("jobs_open", { job: job.id }, "See the job's current revision and latest events.")],
  );
}
