/**
 * The ready queue in the HUD (docs/portals.md "What waits"): for a caller with no focus, the first
 * ready task it can take, offered with a `tasks_take` call (a caller whose role cannot write is shown
 * the ready list instead); when nothing is ready, one line saying what the first waiting tasks wait
 * for; for a focus that waits, what it waits for. Each is found with one range of the ready or waiting
 * index. Read-only.
 */
import { type CommandContext, ROLE_RANK } from "../../commands/context";
import { firstOpenStep } from "../../place/targets";
import { type EntityRow, findEntity } from "../../place/targets.store";
import { type Suggestion, suggest } from "../../shared/suggestion";
import { clip } from "../../shared/text";
import { blockerLabel, waitsForLine } from "./dependency-view";
import { liveLease } from "./leases.store";
import { blockersOf, firstWaiting, readyPage } from "./readiness.store";

/** The longest "nothing is ready" line: one line of `why`. */
const MAX_WAITING_LINE = 200;
/** Waiting tasks the line names at most. */
const WAITING_NAMED = 3;

export interface ReadyWork {
  entity: EntityRow;
  why: string;
  action: Suggestion;
  backup: Suggestion;
}

export interface WaitingTask {
  id: string;
  title: string;
  /** Its unfinished blockers, as `TASK-001 (ACTIVE)`. */
  waits_for: string[];
}

/** The first `limit` waiting tasks (of `plan`, when given), each with the unfinished tasks it waits for. */
export function waitingTasks(ctx: CommandContext, limit: number, plan?: string): WaitingTask[] {
  return firstWaiting(ctx.db, limit, plan).flatMap((id) => {
    const entity = findEntity(ctx.db, id);
    if (entity === undefined) return [];
    const waits = blockersOf(ctx.db, id).filter((blocker) => !blocker.finished);
    return [{ id, title: entity.title, waits_for: waits.map(blockerLabel) }];
  });
}

/** Ready tasks looked through for one the caller can take (whose first open step nobody else leases). */
const TAKE_CANDIDATES = 20;

/**
 * The first ready task the caller can take, if any: a step lease another agent holds without having
 * taken the task still keeps that step theirs, so such a task is passed over (`tasks_take` would refuse
 * it STEP_LEASE_HELD).
 */
export function firstTakeable(ctx: CommandContext, plan: string | undefined): EntityRow | undefined {
  for (const row of readyPage(ctx.db, ctx.principal.agent_id, plan, undefined, TAKE_CANDIDATES)) {
    // The ready index is exact (its triggers follow every status, blocker, blocked step and claim):
    // only a step lease, which it does not know, can make a ready task one the caller cannot take.
    const entity = findEntity(ctx.db, row.task_id);
    if (entity === undefined) continue;
    const step = firstOpenStep(ctx.db, entity.id);
    const lease = step === undefined ? undefined : liveLease(ctx.db, step.id);
    if (lease === undefined || lease.holder === ctx.principal.agent_id) return entity;
  }
  return undefined;
}

/** The first task the caller can take, as the move to make. */
export function readyWork(ctx: CommandContext, short: (text: string) => string): ReadyWork | undefined {
  const entity = firstTakeable(ctx, undefined);
  if (entity === undefined) return undefined;
  const mayWrite = ROLE_RANK[ctx.principal.role] >= ROLE_RANK.write;
  return {
    entity,
    why: `no focus; ${entity.id} (task, ${entity.status}, ${entity.priority}) is ready: ${short(entity.title)}`,
    action: mayWrite
      ? suggest("tasks.take", { task: entity.id }, `Take ${entity.id}: claim it, focus it and lease its first open step`)
      : suggest("tasks.ready", {}, "See the tasks ready to start"),
    backup: suggest("open", { id: entity.id }, `Read ${entity.id} first`),
  };
}

/** With nothing ready: what the first waiting tasks wait for, in one line, and the first blocker to look at. */
export function waitingWork(ctx: CommandContext): ReadyWork | undefined {
  const waiting = waitingTasks(ctx, WAITING_NAMED);
  const first = waiting[0];
  const entity = first === undefined ? undefined : findEntity(ctx.db, first.id);
  if (first === undefined || entity === undefined) return undefined;
  const line = `nothing is ready: ${waiting.map((task) => `${task.id} waits for ${task.waits_for.join(", ")}`).join("; ")}`;
  const blocker = first.waits_for[0]?.split(" ")[0] ?? first.id;
  return {
    entity,
    why: clip(line, MAX_WAITING_LINE),
    action: suggest("open", { id: blocker }, `See ${blocker}, which ${first.id} waits for`),
    backup: suggest("tasks.ready", {}, "See what is ready, and what waits on what"),
  };
}

/** A focused task that waits on unfinished tasks: the line saying so, and a look at the first of them. */
export function focusWaits(ctx: CommandContext, focused: EntityRow): { why: string; action: Suggestion } | undefined {
  if (focused.kind !== "task") return undefined;
  const blockers = blockersOf(ctx.db, focused.id);
  const waits = waitsForLine(blockers);
  const first = blockers.find((blocker) => !blocker.finished);
  if (waits === undefined || first === undefined) return undefined;
  return {
    why: clip(`${focused.id} ${waits}`, MAX_WAITING_LINE),
    action: suggest("open", { id: first.id }, `See ${first.id}, which ${focused.id} waits for`),
  };
}
