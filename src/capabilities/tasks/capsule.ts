/**
 * The capsule (seed 003 "capsule as HUD"): one type for every answer that carries one, the portal
 * answers (where the caller stands: its checkout and focus) and the resume views (where a plan or
 * task stands). Fields:
 *
 * - `where`: workspace, the branch and docs the view is about, where the caller's writes land, the
 *   caller's focus, the target (the viewed plan or task, else the focus), the step focus with its
 *   lease, the lanes read;
 * - `why`: at most MAX_WHY short lines, most important first;
 * - `next`: 1 best + 1 backup action, both suggestions (rendered for the caller's connection).
 *
 * Its smaller forms for the smallest budgets are in capsule.compact.ts. Deterministic: the same store
 * gives the same capsule.
 */
import type { CommandContext } from "../../commands/context";
import { type Branch, checkoutOf, MAIN } from "../../place/branches.store";
import { DEFAULT_DOCS } from "../../place/documents";
import { focusOf } from "../../place/focus.store";
import { type Landing, landingOf } from "../../place/scope";
import type { ReasoningRef } from "../../place/target.schema";
import { type EntityRow, findEntity, orderedSteps, type StepRow } from "../../place/targets.store";
import { fill, type Suggestion, suggest } from "../../shared/suggestion";
import { type LeaseRow, liveLease } from "./leases.store";
import { proofMode, proofSummary, requiredCheckpoints } from "./proof";
import { focusWaits, readyWork, waitingWork } from "./ready-work";
import { mostRecentlyActive } from "./task-events.store";
import { PROOF_CHECKPOINTS } from "./tasks.schema";
import { tasksOfPlan } from "./tasks.store";
import { engineFinding, heldStep, openConflict, queuedJob, recordSession, short, type Wait } from "./waiting";

/** Lines of `why`: the focus, its step and one signal; small enough for a 300-character capsule. */
export const MAX_WHY = 3;
/** Plan and task statuses that are work still to do. */
const OPEN_STATUSES: ReadonlySet<string> = new Set(["ACTIVE", "TODO"]);

export interface StepFocus {
  step_id: string;
  path: string;
  title: string;
  lease?: { holder: string; expires_tick: number };
}

export interface CapsuleTarget {
  id: string;
  kind: string;
  title: string;
  status: string;
  revision: number;
}

export interface CapsuleWhere {
  workspace: string;
  /** The branch the view is about: the caller's checkout (portal answers) or the target's reasoning branch. */
  branch: string;
  docs: { notes: string; trace: string; graph: string };
  /** Where the caller's next note and next card land when the call names no place (src/place/scope.ts, `landingOf`). */
  writes: { notes: Landing; cards: Landing };
  /** The caller's focus (a plan or task id), or null. */
  focus: string | null;
  /** The plan or task the view is about: the viewed one, else the focus; null with neither. */
  target: CapsuleTarget | null;
  step_focus: StepFocus | null;
  lane: string;
}

/** A type, not an interface: answers' zod types take it as a record. */
export type Capsule = {
  where: CapsuleWhere;
  why: string[];
  next: { action: Suggestion; backup: Suggestion };
};

function targetOf(entity: EntityRow): CapsuleTarget {
  return { id: entity.id, kind: entity.kind, title: short(entity.title), status: entity.status, revision: entity.revision };
}

function stepFocusOf(step: StepRow | undefined, lease: LeaseRow | undefined): StepFocus | null {
  if (step === undefined) return null;
  return {
    step_id: step.id,
    path: step.path,
    title: short(step.title),
    ...(lease ? { lease: { holder: lease.holder, expires_tick: lease.expires_tick } } : {}),
  };
}

function laneOf(ctx: CommandContext, allLanes = false): string {
  return allLanes ? "all" : `shared + agent/${ctx.principal.agent_id}`;
}

// ---------------------------------------------------------------------------------------------
// The portal capsule: where the caller stands

/** A plan's next task: its first ACTIVE one, else its first TODO one (id order). */
export function nextTaskOf(ctx: CommandContext, plan: EntityRow): EntityRow | undefined {
  if (plan.kind !== "plan") return undefined;
  const tasks = tasksOfPlan(ctx.db, plan.id);
  return tasks.find((task) => task.status === "ACTIVE") ?? tasks.find((task) => task.status === "TODO");
}

/** Where a plan or task stands: its steps, the first open one and who holds it. */
function standing(ctx: CommandContext, entity: EntityRow): NextInput {
  const steps = entity.kind === "task" ? orderedSteps(ctx.db, entity.id) : [];
  const stepFocus = steps.find((step) => step.completed === 0);
  return {
    ctx,
    entity,
    steps,
    stepFocus,
    lease: stepFocus ? liveLease(ctx.db, stepFocus.id) : undefined,
    nextTask: nextTaskOf(ctx, entity),
  };
}

function stepWhy(ctx: CommandContext, step: StepFocus | null, entity: EntityRow): string[] {
  if (step?.lease && step.lease.holder !== ctx.principal.agent_id) return [`step ${step.path} is leased by ${step.lease.holder}`];
  if (step) return [`step ${step.path} is open: ${step.title}`];
  return entity.kind === "task" ? ["no open step"] : [];
}

/** A candidate move of the portal capsule: its `why` lines and its own best and backup calls. */
interface Move {
  why: string[];
  next: Capsule["next"];
}

/** A wait as a move. Its own backup is never shown: a move always ranks after it, and gives the backup. */
const waitMove = (wait: Wait): Move => ({ why: [wait.why], next: { action: wait.action, backup: wait.action } });

/** With no focus: take up the plan or task worked on most recently, or the one whose step you hold. */
function takeUpMove(ctx: CommandContext, entity: EntityRow, step: StepFocus | null, held: ReturnType<typeof heldStep>): Move {
  const heldBy = step?.lease ? `; its step ${step.path} is leased by ${step.lease.holder}` : "";
  // The purpose adds to `why` only what it lacks: why this one is in `why[0]`.
  const first =
    held?.task === entity.id
      ? held.why
      : `no focus; ${entity.id} (${entity.kind}, ${entity.status}) was worked on most recently: ${short(entity.title)}`;
  return {
    why: [first, ...stepWhy(ctx, step, entity)],
    next: {
      action: suggest("tasks.focus.set", { target: entity.id }, `Take up ${entity.id}${heldBy}`),
      backup: suggest("open", { id: entity.id }, `Read ${entity.id} first`),
    },
  };
}

/** The landing line: said when a focus sends notes away from a branch the caller checked out. */
function landingWhy(landing: ReturnType<typeof landingOf>, focus: string): string[] {
  const checkout = landing.cards.branch;
  if (checkout === MAIN || landing.notes.branch === checkout) return [];
  return [`notes land on ${landing.notes.branch} (focus ${focus}), cards on ${checkout}: pass branch "${checkout}" to note there`];
}

/**
 * The moves of a portal capsule, best first, by the order docs/portals.md states ("What waits"): an
 * open graph conflict in the checkout's graph; a stale Record-Sync session of the caller's; the
 * focus's next move; with no focus, the plan or task whose step the caller holds, else the first ready
 * task (take it), else what the first waiting tasks wait for, else the one worked on most recently (any
 * agent's); then the caller's open session, what the engine finds in the checkout, a queued job; in a
 * workspace with none of these, create a plan.
 */
function movesOf(
  ctx: CommandContext,
  checkout: Branch,
  focused: EntityRow | undefined,
  landing: ReturnType<typeof landingOf>,
): { moves: Move[]; target?: EntityRow; step: StepFocus | null } {
  const moves: Move[] = [];
  let target = focused;
  let step: StepFocus | null = null;
  const conflict = openConflict(ctx, checkout);
  const session = recordSession(ctx);
  const pending: Wait[] = [...(conflict ? [conflict] : []), ...(session?.stale ? [session] : [])];
  if (focused) {
    const stand = standing(ctx, focused);
    step = stepFocusOf(stand.stepFocus, stand.lease);
    const waits = focusWaits(ctx, focused);
    const next = targetNext(stand);
    moves.push({
      why: [
        `focus ${focused.id} (${focused.kind}, ${focused.status}): ${short(focused.title)}`,
        ...(waits ? [waits.why] : []),
        ...landingWhy(landing, focused.id),
        ...stepWhy(ctx, step, focused),
      ],
      // A focus that waits: look at what it waits for first; its own work stays the backup.
      next: waits ? { action: waits.action, backup: next.action } : next,
    });
  } else {
    const lease = heldStep(ctx);
    const leased = lease === undefined ? undefined : findEntity(ctx.db, lease.task);
    // A lease left on a finished task is no work to take up.
    const held = leased && OPEN_STATUSES.has(leased.status) ? lease : undefined;
    // Without a held step: the first ready task, else what the waiting tasks wait for, else (no task
    // ready or waiting: a plan without tasks, tasks all taken) the plan or task worked on most recently.
    const queued = held ? undefined : (readyWork(ctx, short) ?? waitingWork(ctx));
    const activeId = held?.task ?? queued?.entity.id ?? mostRecentlyActive(ctx.db);
    const active = activeId === undefined ? undefined : findEntity(ctx.db, activeId);
    if (active) {
      const stand = standing(ctx, active);
      step = stepFocusOf(stand.stepFocus, stand.lease);
      moves.push(
        queued ? { why: [queued.why], next: { action: queued.action, backup: queued.backup } } : takeUpMove(ctx, active, step, held),
      );
    }
    target = active;
    const later = [...(session && !session.stale ? [session] : []), engineFinding(ctx), queuedJob(ctx)];
    for (const wait of later) if (wait) moves.push(waitMove(wait));
    if (!active) {
      moves.push({
        why: ["no focus, and no open plan or task"],
        next: {
          action: suggest("tasks.create", { title: fill("plan title") }, "Create a plan"),
          backup: suggest("tasks.context", {}, "List plans and tasks"),
        },
      });
    }
  }
  return { moves: [...pending.map(waitMove), ...moves], ...(target ? { target } : {}), step };
}

/** The first move is the best; the backup is the second move's best, else the first move's own backup. */
function rank(moves: Move[]): { why: string[]; next: Capsule["next"] } {
  const [best, second] = moves as [Move, ...Move[]];
  return {
    why: moves.flatMap((move) => move.why).slice(0, MAX_WHY),
    next: { action: best.next.action, backup: second?.next.action ?? best.next.backup },
  };
}

/**
 * The capsule of every portal answer and of `tasks.execute.next` (seed 002's NextEngine): where the
 * caller stands (checkout, focus, where its writes land) and its moves ranked by `movesOf`. Read-only.
 */
export function focusCapsule(ctx: CommandContext): Capsule {
  const focus = focusOf(ctx.db, ctx.principal.agent_id);
  const focused = focus === undefined ? undefined : findEntity(ctx.db, focus);
  const checkout = checkoutOf(ctx.db, ctx.principal.agent_id);
  const landing = landingOf(ctx, { checkout: checkout.name, focus: focused?.id });
  // `where.target` is the focus, else the plan or task a move takes up; `step` its open step.
  const { moves, target: entity, step } = movesOf(ctx, checkout, focused, landing);
  const { why, next } = rank(moves);
  return {
    where: {
      workspace: ctx.workspace,
      branch: checkout.name,
      docs: { ...DEFAULT_DOCS },
      writes: landing,
      focus: focused?.id ?? null,
      target: entity ? targetOf(entity) : null,
      step_focus: step,
      lane: laneOf(ctx),
    },
    why,
    next,
  };
}

// ---------------------------------------------------------------------------------------------
// The resume capsule: where a plan or task stands

export interface TargetCapsuleInput {
  ctx: CommandContext;
  entity: EntityRow;
  ref: ReasoningRef;
  focus: string | null;
  steps: StepRow[];
  stepFocus: StepRow | undefined;
  lease: LeaseRow | undefined;
  allLanes: boolean;
  /** Short signal lines, most important first (blockers, missing checkpoints, …). */
  signals: string[];
  /** The plan's next task, for plans. */
  nextTask?: EntityRow | undefined;
  /** The signal engine's best call over the view's cards: it becomes the backup move. */
  engineAction?: Suggestion | undefined;
}

/** What the next move of a plan or task is decided from. */
type NextInput = Pick<TargetCapsuleInput, "ctx" | "entity" | "steps" | "stepFocus" | "lease" | "nextTask">;

/** What to do on the open step: the work first; closing only once there is evidence to close on. */
function stepNext(ctx: CommandContext, task: string, step: StepRow, lease: LeaseRow | undefined): Capsule["next"] {
  const at = { task, step_id: step.id };
  if (lease && lease.holder !== ctx.principal.agent_id) {
    return {
      action: suggest("tasks_step_lease_get", at, `${step.path} is held by ${lease.holder}`),
      backup: suggest("tasks_radar", { task }, "Find other work on the task"),
    };
  }
  const proofs = proofSummary(ctx.db, step);
  const unproven = PROOF_CHECKPOINTS.find((name) => proofMode(step, name) === "require" && proofs[name].receipts.size === 0);
  const note = suggest("tasks_note", { ...at, note: fill("what you did or found") }, "Record progress on the step");
  const capture = (checkpoint: string) =>
    suggest(
      "tasks_evidence_capture",
      { ...at, checkpoint, checks: [`CMD: ${fill("command you ran")}`, `LINK: ${fill("url of the result")}`] },
      `Attach ${checkpoint} receipts for ${step.path}`,
    );
  if (unproven) return { action: capture(unproven), backup: note };
  const evidence = Object.values(proofs).some((proof) => proof.proofs > 0);
  const required = requiredCheckpoints(step, proofs);
  const confirmed = required.some((name) => step[`${name}_confirmed`] === 1);
  // Never offer to confirm checkpoints nobody has worked on: the work comes first.
  if (!evidence && !confirmed) return { action: note, backup: capture("tests") };
  const checkpoints = Object.fromEntries(required.map((name) => [name, true]));
  return {
    action: suggest("tasks_close_step", { ...at, checkpoints }, `Verify and close ${step.path}: ${short(step.title)}`),
    backup: note,
  };
}

function targetNext(input: NextInput): Capsule["next"] {
  const { ctx, entity, steps, stepFocus, lease } = input;
  const task = entity.id;
  if (entity.kind === "plan" && entity.status !== "DONE" && entity.status !== "CANCELED") {
    const next = input.nextTask;
    return next
      ? {
          action: suggest("tasks_resume_super", { target: next.id }, `Resume ${next.id}: ${short(next.title)}`),
          backup: suggest("tasks_context", { tasks_parent: task }, "See the plan's tasks"),
        }
      : {
          action: suggest("tasks_macro_start", { plan: task, title: fill("next task") }, "Start the plan's next task"),
          backup: suggest("tasks_radar", { target: task }, "Check the plan"),
        };
  }
  if (entity.status === "DONE" || entity.status === "CANCELED") {
    return {
      action: suggest("tasks_context", { tasks_status: ["ACTIVE", "TODO"] }, "Pick the next task"),
      backup: suggest("tasks_macro_start", { title: fill("next task") }, "Start a new task"),
    };
  }
  if (steps.length === 0) {
    return {
      action: suggest(
        "tasks_decompose",
        { task, steps: [{ title: fill("first step"), success_criteria: [fill("done when")], tests: [fill("how to check")] }] },
        "Break the task into steps",
      ),
      backup: suggest("tasks_lint", { task }, "See what the task lacks"),
    };
  }
  if (stepFocus === undefined) {
    return {
      action: suggest("tasks_macro_finish", { task }, "Every step is closed: finish the task"),
      backup: suggest("tasks_lint", { task }, "Check the task before finishing"),
    };
  }
  return stepNext(ctx, task, stepFocus, lease);
}

/** The capsule of a resume view: where the viewed plan or task stands, and its next move. */
export function targetCapsule(input: TargetCapsuleInput): Capsule {
  const { ctx, entity, ref, stepFocus, lease } = input;
  const planned = targetNext(input);
  const next =
    input.engineAction && input.engineAction.tool !== planned.action.tool
      ? { action: planned.action, backup: input.engineAction }
      : planned;
  return {
    where: {
      workspace: ctx.workspace,
      branch: ref.branch,
      docs: { notes: ref.notes_doc, trace: ref.trace_doc, graph: ref.graph_doc },
      writes: landingOf(ctx),
      focus: input.focus,
      target: targetOf(entity),
      step_focus: stepFocusOf(stepFocus, lease),
      lane: laneOf(ctx, input.allLanes),
    },
    why: input.signals.slice(0, MAX_WHY),
    next,
  };
}
