/**
 * The capsule (seed 003 "capsule as HUD"): where the caller is (workspace, target, docs, step focus with
 * its lease, lane), why (top signals, at most 3), and next (1 best + 1 backup action with copy-paste-safe
 * arguments). Deterministic: the same store gives the same capsule. A compact form keeps the target, the
 * step and the best action for the tightest budgets.
 */
import type { CommandContext } from "../../commands/context";
import type { LeaseRow } from "./leases.store";
import { proofMode, proofSummary, requiredCheckpoints } from "./proof";
import { PROOF_CHECKPOINTS, type ReasoningRef } from "./tasks.schema";
import type { EntityRow, StepRow } from "./tasks.store";

export interface Action {
  tool: string;
  args: Record<string, unknown>;
  purpose: string;
}

export interface CapsuleInput {
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
  /** The signal engine's best action over the view's cards: it becomes the backup move. */
  engineAction?: Action | undefined;
}

function nextActions(input: CapsuleInput): { action: Action; backup: Action } {
  const { ctx, entity, steps, stepFocus, lease } = input;
  const task = entity.id;
  if (entity.kind === "plan" && entity.status !== "DONE" && entity.status !== "CANCELED") {
    const next = input.nextTask;
    return next
      ? {
          action: { tool: "tasks_resume_super", args: { target: next.id }, purpose: `Resume ${next.id}: ${next.title}` },
          backup: { tool: "tasks_context", args: { tasks_parent: task }, purpose: "See the plan's tasks" },
        }
      : {
          action: { tool: "tasks_macro_start", args: { plan: task, title: "<fill: next task>" }, purpose: "Start the plan's next task" },
          backup: { tool: "tasks_radar", args: { target: task }, purpose: "Check the plan" },
        };
  }
  if (entity.status === "DONE" || entity.status === "CANCELED") {
    return {
      action: { tool: "tasks_context", args: { tasks_status: ["ACTIVE", "TODO"] }, purpose: "Pick the next task" },
      backup: { tool: "tasks_macro_start", args: { title: "<fill: next task>" }, purpose: "Start a new task" },
    };
  }
  if (steps.length === 0) {
    return {
      action: {
        tool: "tasks_decompose",
        args: { task, steps: [{ title: "<fill: first step>", success_criteria: ["<fill: done when>"], tests: ["<fill: how to check>"] }] },
        purpose: "Break the task into steps",
      },
      backup: { tool: "tasks_lint", args: { task }, purpose: "See what the task lacks" },
    };
  }
  if (stepFocus === undefined) {
    return {
      action: { tool: "tasks_macro_finish", args: { task }, purpose: "Every step is closed: finish the task" },
      backup: { tool: "tasks_lint", args: { task }, purpose: "Check the task before finishing" },
    };
  }
  const at = { task, step_id: stepFocus.id };
  if (lease && lease.holder !== ctx.principal.agent_id) {
    return {
      action: { tool: "tasks_step_lease_get", args: at, purpose: `${stepFocus.path} is held by ${lease.holder}` },
      backup: { tool: "tasks_radar", args: { task }, purpose: "Find other work on the task" },
    };
  }
  const proofs = proofSummary(ctx.db, stepFocus);
  const unproven = PROOF_CHECKPOINTS.find((name) => proofMode(stepFocus, name) === "require" && proofs[name].receipts.size === 0);
  const note = { tool: "tasks_note", args: { ...at, note: "<fill: what you did or found>" }, purpose: "Record progress on the step" };
  if (unproven) {
    return {
      action: {
        tool: "tasks_evidence_capture",
        args: { ...at, checkpoint: unproven, checks: ["CMD: <fill: command>", "LINK: <fill: url>"] },
        purpose: `Attach ${unproven} receipts for ${stepFocus.path}`,
      },
      backup: note,
    };
  }
  // Confirm exactly what the close gate will ask for (criteria, tests, and any checkpoint with proof).
  const checkpoints = Object.fromEntries(requiredCheckpoints(stepFocus, proofs).map((name) => [name, true]));
  return {
    action: { tool: "tasks_close_step", args: { ...at, checkpoints }, purpose: `Verify and close ${stepFocus.path}: ${stepFocus.title}` },
    backup: note,
  };
}

export function buildCapsule(input: CapsuleInput) {
  const { ctx, entity, ref, stepFocus, lease } = input;
  const planned = nextActions(input);
  const next =
    input.engineAction && input.engineAction.tool !== planned.action.tool
      ? { action: planned.action, backup: input.engineAction }
      : planned;
  return {
    type: "handoff_capsule" as const,
    version: 1,
    workspace: ctx.workspace,
    focus: input.focus,
    target: { id: entity.id, kind: entity.kind, title: entity.title, status: entity.status, revision: entity.revision },
    where: {
      branch: ref.branch,
      docs: { notes: ref.notes_doc, trace: ref.trace_doc, graph: ref.graph_doc },
      step_focus: stepFocus
        ? {
            step_id: stepFocus.id,
            path: stepFocus.path,
            title: stepFocus.title,
            ...(lease ? { lease: { holder: lease.holder, expires_tick: lease.expires_tick } } : {}),
          }
        : null,
      lane: input.allLanes ? "all" : `shared + agent/${ctx.principal.agent_id}`,
    },
    why: input.signals.slice(0, 3),
    next,
  };
}

export type Capsule = ReturnType<typeof buildCapsule>;

/** The smallest capsule: the target, the step focus and the best action. */
export function compactCapsule(capsule: Capsule) {
  return {
    target: capsule.target.id,
    step: capsule.where.step_focus?.path ?? null,
    next: { tool: capsule.next.action.tool, args: capsule.next.action.args },
  };
}
