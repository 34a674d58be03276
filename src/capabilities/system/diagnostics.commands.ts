/**
 * `diagnostics` (seed 001): one call that says whether the caller can resume — where it is (checkout,
 * focus), the target (given, else the focus), the health of the target's context (its reasoning ref,
 * whether its branch exists and holds notes, trace and cards) and the target's lint findings, each
 * with a recovery. What to fix first comes back as warnings; with no target, the golden path.
 * `tasks_diagnostics` is the workspace-wide lint; this is the one-target health check.
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { defineCommand } from "../../commands/registry";
import { checkoutOf, findBranch, sourcesOf } from "../../place/branches.store";
import { focusOf } from "../../place/focus.store";
import { reasoningRefSchema, targetFields } from "../../place/target.schema";
import { explicitTarget, reasoningRef } from "../../place/targets";
import { type EntityRow, requireEntity } from "../../place/targets.store";
import { suggestionSchema } from "../../shared/suggestion";
import { readTail } from "../docs/tail";
import { issueSchema, lintPlan, lintTask, sortIssues, summary, summarySchema } from "../tasks/lint.rules";
import { ANY } from "../think/card-filters";
import { visibleCards } from "../think/card-view";
import { goldenPath } from "./help-text";

/** Lint findings one answer lists by default: the first ones by severity. */
const DEFAULT_MAX_ISSUES = 20;

const STATUSES = ["ok", "trace_only", "empty", "branch_missing"] as const;
type Health = (typeof STATUSES)[number];

/** Whether the target's reasoning branch holds notes, trace entries and cards (one row each, at most). */
function contextOf(ctx: CommandContext, entity: EntityRow) {
  const ref = reasoningRef(entity.id);
  const branch = findBranch(ctx.db, ref.branch);
  if (branch === undefined) return { ref, status: "branch_missing" as Health, has: { notes: false, trace: false, cards: false } };
  const sources = sourcesOf(ctx.db, branch);
  const has = {
    notes: readTail(ctx, branch, ref.notes_doc, undefined, 1, sources).entries.length > 0,
    trace: readTail(ctx, branch, ref.trace_doc, undefined, 1, sources).entries.length > 0,
    cards: visibleCards(ctx, ref.graph_doc, sources, ANY, { limit: 1, allLanes: false }).cards.length > 0,
  };
  const status: Health = has.notes || has.cards ? "ok" : has.trace ? "trace_only" : "empty";
  return { ref, status, has };
}

/** What a context that is not ok means, and how to mend it. */
function healthWarning(ctx: CommandContext, entity: EntityRow, status: Health): void {
  if (status === "ok") return;
  const warnings = {
    branch_missing: [
      "REASONING_BRANCH_MISSING",
      `${entity.id} has no reasoning branch yet.`,
      "Any write for the target creates it: a note.",
    ],
    empty: ["CONTEXT_EMPTY", `${entity.id} has no notes, trace or cards yet.`, "Record what you know with notes_commit (target)."],
    trace_only: [
      "TRACE_ONLY",
      `${entity.id} has task events but no notes or cards: nothing says why.`,
      "Record the reasoning with notes_commit or think_card (target).",
    ],
  } as const;
  const [code, message, recovery] = warnings[status];
  ctx.warn({ code, message, recovery });
}

export const diagnostics = defineCommand({
  name: "system.diagnostics",
  tool: "diagnostics",
  title: "Health check",
  description:
    "Seed 001's one-call health check of reasoning and tasks: your checkout and focus, the target (given, else your focus), its context health (reasoning ref; status ok | trace_only | empty | branch_missing; whether it holds notes, trace, cards) and its lint findings with recoveries. Warnings say what to mend first; with no target, golden_path. For every plan and task at once, tasks_diagnostics.",
  kind: "read",
  input: { ...targetFields, max_issues: z.number().int().min(1).max(200).default(DEFAULT_MAX_ISSUES) },
  output: {
    workspace: z.string(),
    checkout: z.string(),
    focus: z.string().nullable(),
    target: z.object({ id: z.string(), kind: z.enum(["plan", "task"]), title: z.string(), status: z.string() }).nullable(),
    context_health: z.object({
      status: z.enum([...STATUSES, "no_target"]),
      reasoning_ref: reasoningRefSchema.nullable(),
      has: z.object({ notes: z.boolean(), trace: z.boolean(), cards: z.boolean() }),
      lint: z.object({ summary: summarySchema, issues: z.array(issueSchema) }),
    }),
    golden_path: z.array(suggestionSchema).optional(),
  },
  budget: { lists: ["context_health.lint.issues"], keep: ["severity", "code", "target", "path"], trimFromEnd: true },
  handler: (ctx, args) => {
    const focus = focusOf(ctx.db, ctx.principal.agent_id) ?? null;
    const where = { workspace: ctx.workspace, checkout: checkoutOf(ctx.db, ctx.principal.agent_id).name, focus };
    const id = explicitTarget(args) ?? focus ?? undefined;
    if (id === undefined) {
      const none = { notes: false, trace: false, cards: false };
      const lint = { summary: summary([]), issues: [] };
      return {
        ...where,
        target: null,
        context_health: { status: "no_target" as const, reasoning_ref: null, has: none, lint },
        golden_path: goldenPath(),
      };
    }
    const entity = requireEntity(ctx.db, id);
    const context = contextOf(ctx, entity);
    healthWarning(ctx, entity, context.status);
    const issues = sortIssues(entity.kind === "plan" ? lintPlan(ctx, entity) : lintTask(ctx, entity));
    return {
      ...where,
      target: { id: entity.id, kind: entity.kind, title: entity.title, status: entity.status },
      context_health: {
        status: context.status,
        reasoning_ref: context.ref,
        has: context.has,
        lint: { summary: summary(issues), issues: issues.slice(0, args.max_issues) },
      },
    };
  },
});
