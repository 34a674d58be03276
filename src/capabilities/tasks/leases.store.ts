/**
 * Step leases (DESIGN §6): one row per leased step, expiring on the workspace tick clock. A lease is
 * live while the workspace tick is below `expires_tick`; expired rows stop counting at once and are
 * removed by the next lease write. The check every step mutation runs is `requireLeaseFree`.
 */
import type { CommandContext } from "../../commands/context";
import type { StepRow } from "../../place/targets.store";
import { fail } from "../../shared/errors";
import { suggest } from "../../shared/suggestion";
import { read } from "../../storage/clocks";
import type { Db } from "../../storage/db";
import { claimOf, taskTaken } from "./readiness.store";

/**
 * Default lease length in ticks (journaled operations of the workspace). A workspace under a heavy
 * multi-agent load journals a few tens of writes per second; 2,000 ticks keep a live agent's lease for
 * about a minute of that without renewing, and far longer in ordinary use.
 */
export const DEFAULT_LEASE_TICKS = 2_000;
/** Longest lease one claim or renewal may ask for (the original's bound). */
export const MAX_LEASE_TICKS = 10_000;

export interface LeaseRow {
  step_id: string;
  task_id: string;
  holder: string;
  acquired_tick: number;
  expires_tick: number;
}

export function leaseOf(db: Db, stepId: string): LeaseRow | undefined {
  return db.one<LeaseRow & Record<string, string | number>>(
    "SELECT step_id, task_id, holder, acquired_tick, expires_tick FROM step_leases WHERE step_id = ?",
    stepId,
  );
}

export function isLive(lease: LeaseRow | undefined, now: number): lease is LeaseRow {
  return lease !== undefined && now < lease.expires_tick;
}

export function nowTick(db: Db): number {
  return read(db, "tick");
}

/** The step's live lease, if any. */
export function liveLease(db: Db, stepId: string): LeaseRow | undefined {
  const lease = leaseOf(db, stepId);
  return isLive(lease, nowTick(db)) ? lease : undefined;
}

export function writeLease(db: Db, lease: LeaseRow): void {
  db.run("DELETE FROM step_leases WHERE expires_tick <= ?", nowTick(db));
  db.run(
    "REPLACE INTO step_leases (step_id, task_id, holder, acquired_tick, expires_tick) VALUES (?, ?, ?, ?, ?)",
    lease.step_id,
    lease.task_id,
    lease.holder,
    lease.acquired_tick,
    lease.expires_tick,
  );
}

export function deleteLease(db: Db, stepId: string): void {
  db.run("DELETE FROM step_leases WHERE step_id = ?", stepId);
}

export function leaseHeld(lease: LeaseRow, now: number): never {
  fail(
    "STEP_LEASE_HELD",
    `Step ${lease.step_id} is leased by ${lease.holder} until tick ${lease.expires_tick} (now ${now}).`,
    "Work on another step, wait for the holder to release it or for the lease to expire, or take it over with tasks_step_lease_claim force: true.",
    { step_id: lease.step_id, holder: lease.holder, expires_tick: lease.expires_tick, now_tick: now },
    [suggest("tasks_step_lease_get", { task: lease.task_id, step_id: lease.step_id }, "See who holds the step and until when.")],
  );
}

/**
 * Refuses a mutation of `step` (or of a step under it) while another agent holds a live lease on it,
 * or has taken its task (`tasks_take`: the claim covers every step until it ends).
 */
export function requireLeaseFree(ctx: CommandContext, step: StepRow): void {
  const lease = liveLease(ctx.db, step.id);
  if (lease && lease.holder !== ctx.principal.agent_id) leaseHeld(lease, nowTick(ctx.db));
  const claim = claimOf(ctx.db, step.task_id);
  if (claim !== undefined && claim.holder !== ctx.principal.agent_id) taskTaken(claim, nowTick(ctx.db));
}

/** The live lease the agent holds that expires last (ties: the lowest step id), through the holder index (migration 0018). */
export function heldLease(db: Db, agentId: string): LeaseRow | undefined {
  return db.one<LeaseRow & Record<string, string | number>>(
    `SELECT step_id, task_id, holder, acquired_tick, expires_tick FROM step_leases INDEXED BY step_leases_by_holder
     WHERE holder = +? AND expires_tick > ? ORDER BY expires_tick DESC, step_id LIMIT 1`,
    agentId,
    nowTick(db),
  );
}
