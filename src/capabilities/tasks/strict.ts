/**
 * Strict reasoning (docs/tasks.md "Strict reasoning"): in a task whose `reasoning_mode` is `strict`, a
 * step closes only when its step-scoped cards (tag `step:<step id>`) hold an active hypothesis that a
 * test supports and that a counter-argument blocks (REASONING_REQUIRED otherwise). An explicit override
 * with a reason and a risk lets the step close anyway; it is journaled as a `strict_override` event and
 * answered with the warning STRICT_OVERRIDE_APPLIED. Checkpoint and proof gates still apply.
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { findBranch, sourcesOf } from "../../place/branches.store";
import { reasoningRef, stepTagOf } from "../../place/targets";
import type { EntityRow, StepRow } from "../../place/targets.store";
import { fail } from "../../shared/errors";
import type { Warning } from "../../shared/result";
import { suggest } from "../../shared/suggestion";
import { isClosedStatus } from "../graph/card-shape";
import type { VersionRow } from "../graph/graph.store";
import { edgesBetween } from "../graph/graph-edges.store";
import { allOf } from "../graph/graph-filters.store";
import { queryPage } from "../graph/graph-terms.store";
import { visibleLanes } from "../graph/lanes";
import { CARDS, OPEN, taggedWith } from "../think/card-filters";
import { emitEvent } from "./ingest";

/** Open step cards read for the check at most (the newest): the check's output bound. */
const MAX_STEP_CARDS = 200;

export const overrideSchema = z
  .strictObject({ reason: z.string().min(1).max(1024), risk: z.string().min(1).max(1024) })
  .optional()
  .describe("Strict tasks only: close without the required reasoning, saying why and what could go wrong (journaled).");
export type Override = z.infer<typeof overrideSchema>;

/** What the step's cards lack for strict mode (empty when the gate is met). */
export function strictGaps(ctx: CommandContext, task: EntityRow, step: StepRow): string[] {
  const ref = reasoningRef(task.id);
  const branch = findBranch(ctx.db, ref.branch);
  if (branch === undefined) return ["hypothesis_with_test", "counter_argument"];
  const sources = sourcesOf(ctx.db, branch);
  const tag = stepTagOf(step.id);
  // Every open card of the step, whatever its age (closed cards count for nothing below), up to
  // MAX_STEP_CARDS: drafts of other agents do not count, the closer's own lane and the shared lane do.
  const cards = queryPage(ctx.db, ref.graph_doc, sources, {
    filter: allOf(CARDS, taggedWith(tag), OPEN),
    lanes: visibleLanes(ctx, false),
    limit: MAX_STEP_CARDS,
  }).rows;
  const byId = new Map(cards.map((row) => [row.key, row]));
  const edges = cards.length === 0 ? [] : edgesBetween(ctx.db, sources, ref.graph_doc, [...byId.keys()], MAX_STEP_CARDS * 2).rows;
  const active = (row: VersionRow | undefined) => row !== undefined && !isClosedStatus(row.status);
  const isCounter = (row: VersionRow) => (row.tags_json ?? "").includes('"counter"');
  const hypotheses = cards.filter((row) => row.node_type === "hypothesis" && active(row) && !isCounter(row));
  const tested = hypotheses.filter((h) =>
    edges.some(
      (e) =>
        e.rel === "supports" && e.to_id === h.key && byId.get(e.from_id ?? "")?.node_type === "test" && active(byId.get(e.from_id ?? "")),
    ),
  );
  // A counter-argument: an active hypothesis (or a card tagged counter) that blocks the hypothesis.
  const countered = tested.filter((h) =>
    edges.some((e) => {
      const from = byId.get(e.from_id ?? "");
      return (
        e.rel === "blocks" &&
        e.to_id === h.key &&
        from !== undefined &&
        active(from) &&
        (from.node_type === "hypothesis" || isCounter(from))
      );
    }),
  );
  const gaps: string[] = [];
  if (tested.length === 0) gaps.push("hypothesis_with_test");
  if (countered.length === 0) gaps.push("counter_argument");
  return gaps;
}

/** The strict gate of a step close: nothing for normal tasks; refusal, or the journaled override. */
export function strictGate(ctx: CommandContext, task: EntityRow, step: StepRow, override: Override): Warning[] {
  if (task.reasoning_mode !== "strict") return [];
  const gaps = strictGaps(ctx, task, step);
  if (gaps.length === 0) return [];
  if (override === undefined) {
    fail(
      "REASONING_REQUIRED",
      `${task.id} is in strict mode: step ${step.path} needs ${gaps.join(" and ")} among its cards before it closes.`,
      "Write a hypothesis with target (it gets the step tag), a test that supports it, and a counter-argument that blocks it; or pass override {reason, risk}.",
      { task: task.id, step_id: step.id, path: step.path, missing: gaps },
      [suggest("think_playbook", { name: "strict" }, "The strict playbook lists the cards to write.")],
    );
  }
  emitEvent(ctx, task, {
    type: "strict_override",
    path: step.path,
    payload: { step_id: step.id, missing: gaps, reason: override.reason, risk: override.risk },
    summary: `override: ${override.reason}`,
  });
  return [
    {
      code: "STRICT_OVERRIDE_APPLIED",
      message: `Step ${step.path} closed without ${gaps.join(" and ")}: ${override.reason}`,
      recovery: "Add the missing reasoning when you can; the override is in the task's trace.",
    },
  ];
}
