/**
 * Lint rules for plans and tasks (read-only): what keeps a task from being verifiable, provable,
 * bounded or navigable, each finding with a recovery hint and, where one call fixes it, a patch (a
 * copy-paste-safe tool call). `tasks_lint` shows them for one target; `tasks_diagnostics` runs them
 * over the workspace.
 */

import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { findBranch } from "../../place/branches.store";
import { reasoningRef } from "../../place/targets";
import { type EntityRow, orderedSteps, type StepRow } from "../../place/targets.store";
import { type Suggestion, suggest, suggestionSchema } from "../../shared/suggestion";
import { proofMode, proofSummary } from "./proof";
import { PROOF_CHECKPOINTS } from "./tasks.schema";
import { tasksOfPlan } from "./tasks.store";

/** ACTIVE tasks a plan should carry at once (the original's horizon limit). */
export const ACTIVE_LIMIT = 3;

export type Severity = "error" | "warning" | "info";
export type LintKind = "unverifiable" | "unproveable" | "unbounded" | "unnavigable" | "actionless" | "context";

/** The call that fixes an issue (a suggestion, rendered for the caller's connection). */
export type Patch = Suggestion;

export interface LintIssue {
  severity: Severity;
  kind: LintKind;
  code: string;
  message: string;
  recovery: string;
  target: string;
  path?: string;
  patch?: Patch;
}

/** A lint finding as answers show it (tasks_lint, tasks_diagnostics, diagnostics). */
export const issueSchema = z.object({
  severity: z.enum(["error", "warning", "info"]),
  kind: z.string(),
  code: z.string(),
  message: z.string(),
  recovery: z.string(),
  target: z.string(),
  path: z.string().optional(),
  patch: suggestionSchema.optional(),
});
export const summarySchema = z.object({ errors: z.number(), warnings: z.number(), info: z.number(), total: z.number() });

/** Counts of findings by severity. */
export function summary(issues: LintIssue[]) {
  const count = (severity: LintIssue["severity"]) => issues.filter((issue) => issue.severity === severity).length;
  return { errors: count("error"), warnings: count("warning"), info: count("info"), total: issues.length };
}

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Severity, then kind, then target and path: a stable order for reports. */
export function sortIssues(issues: LintIssue[]): LintIssue[] {
  return issues.sort(
    (a, b) =>
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      a.kind.localeCompare(b.kind) ||
      a.target.localeCompare(b.target) ||
      (a.path ?? "").localeCompare(b.path ?? "") ||
      a.code.localeCompare(b.code),
  );
}

function list(json: string): string[] {
  return JSON.parse(json) as string[];
}

function stepIssues(ctx: CommandContext, task: EntityRow, step: StepRow): LintIssue[] {
  const issues: LintIssue[] = [];
  const at = { target: task.id, path: step.path };
  if (list(step.success_criteria_json).length === 0) {
    issues.push({
      severity: "warning",
      kind: "unbounded",
      code: "MISSING_CRITERIA",
      message: `${task.id} ${step.path} has no success criteria.`,
      recovery: "Say what done means for the step.",
      ...at,
      patch: suggest("tasks_define", { task: task.id, path: step.path, success_criteria: ["<fill: done when>"] }, "Add success criteria"),
    });
  }
  if (list(step.tests_json).length === 0) {
    issues.push({
      severity: "warning",
      kind: "unverifiable",
      code: "MISSING_TESTS",
      message: `${task.id} ${step.path} has no tests.`,
      recovery: "Say how the step is checked.",
      ...at,
      patch: suggest("tasks_define", { task: task.id, path: step.path, tests: ["<fill: how to check>"] }, "Add tests"),
    });
  }
  const proofs = proofSummary(ctx.db, step);
  for (const checkpoint of PROOF_CHECKPOINTS) {
    if (proofMode(step, checkpoint) !== "require" || proofs[checkpoint].receipts.size > 0) continue;
    issues.push({
      severity: "warning",
      kind: "unproveable",
      code: `MISSING_PROOF_${checkpoint.toUpperCase()}`,
      message: `${task.id} ${step.path} requires ${checkpoint} proof and has no CMD:/LINK: receipt.`,
      recovery: "Attach receipts before closing the step.",
      ...at,
      patch: suggest(
        "tasks_evidence_capture",
        { task: task.id, path: step.path, checkpoint, checks: ["CMD: <fill: command>", "LINK: <fill: url>"] },
        `Attach ${checkpoint} receipts`,
      ),
    });
  }
  if (step.blocked === 1) {
    issues.push({
      severity: "warning",
      kind: "unnavigable",
      code: "BLOCKED_STEPS",
      message: `${task.id} ${step.path} is blocked${step.block_reason ? `: ${step.block_reason}` : ""}.`,
      recovery: "Resolve the blocker, then unblock the step.",
      ...at,
      patch: suggest("tasks_block", { task: task.id, path: step.path, blocked: false }, "Unblock once resolved"),
    });
  }
  return issues;
}

export function lintTask(ctx: CommandContext, task: EntityRow): LintIssue[] {
  const issues: LintIssue[] = [];
  if (findBranch(ctx.db, reasoningRef(task.id).branch) === undefined) {
    issues.push({
      severity: "error",
      kind: "context",
      code: "REASONING_BRANCH_MISSING",
      message: `${task.id} has no reasoning branch ${reasoningRef(task.id).branch}.`,
      recovery: "Any mutation of the task recreates it, e.g. a note.",
      target: task.id,
      patch: suggest("tasks_note", { task: task.id, note: "Resumed." }, "Recreate the reasoning branch"),
    });
  }
  if (task.kind !== "task" || task.status === "DONE" || task.status === "CANCELED") return issues;
  const steps = orderedSteps(ctx.db, task.id);
  const open = steps.filter((step) => step.completed === 0);
  if (steps.length === 0) {
    issues.push({
      severity: "warning",
      kind: "unbounded",
      code: "NO_STEPS",
      message: `${task.id} has no steps.`,
      recovery: "Break it into steps with success criteria and tests.",
      target: task.id,
      patch: suggest(
        "tasks_decompose",
        {
          task: task.id,
          steps: [{ title: "<fill: first step>", success_criteria: ["<fill: done when>"], tests: ["<fill: how to check>"] }],
        },
        "Add a first step",
      ),
    });
  }
  if (task.status === "ACTIVE" && steps.length > 0 && open.length === 0) {
    issues.push({
      severity: "warning",
      kind: "actionless",
      code: "ACTIVE_NO_OPEN_STEPS",
      message: `${task.id} is ACTIVE but every step is completed.`,
      recovery: "Finish the task, or add the remaining steps.",
      target: task.id,
      patch: suggest("tasks_complete", { task: task.id }, "Mark the task DONE"),
    });
  }
  const first = open[0];
  if (first && task.status === "ACTIVE" && first.next_action === null) {
    issues.push({
      severity: "info",
      kind: "unnavigable",
      code: "MISSING_NEXT_ACTION",
      message: `${task.id} ${first.path}, the next open step, has no next action.`,
      recovery: "Write down the very next move, so whoever resumes knows where to start.",
      target: task.id,
      path: first.path,
      patch: suggest("tasks_define", { task: task.id, path: first.path, next_action: "<fill: next move>" }, "Set the next action"),
    });
  }
  for (const step of open) issues.push(...stepIssues(ctx, task, step));
  return issues;
}

export function lintPlan(ctx: CommandContext, plan: EntityRow): LintIssue[] {
  const issues = lintTask(ctx, plan);
  const active = tasksOfPlan(ctx.db, plan.id).filter((task) => task.status === "ACTIVE");
  if (active.length > ACTIVE_LIMIT) {
    issues.push({
      severity: "warning",
      kind: "context",
      code: "ACTIVE_LIMIT_EXCEEDED",
      message: `${plan.id} has ${active.length} ACTIVE tasks (limit ${ACTIVE_LIMIT}).`,
      recovery: "Park what is not being worked on now.",
      target: plan.id,
      patch: suggest("tasks_complete", { task: active[active.length - 1]?.id, status: "PARKED" }, `Park ${active[active.length - 1]?.id}`),
    });
  }
  return issues;
}
