/**
 * `tasks_snapshot`: the resume view (resume-view.ts) in its smart view by default, with an optional
 * delta: what changed in the target since the caller's previous snapshot with delta (notes and cards,
 * at most DELTA_LIMIT each), against a per-agent baseline that every such call moves on.
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { findBranch } from "../../place/branches.store";
import { read } from "../../storage/clocks";
import { readTail } from "../docs/tail";
import { newerThan } from "../think/card-filters";
import { compactCapsule, type RenderedCapsule } from "./capsule.compact";
import { RESUME_BUDGET } from "./resume.budget";
import { cards, resumeInput, resumeOutput, resumeView, VIEWS } from "./resume-view";
import { baselineOf, setBaseline } from "./snapshots.store";

/** Items per delta section. */
const DELTA_LIMIT = 10;

const deltaSection = z.object({ count: z.number(), items: z.array(z.record(z.string(), z.unknown())), truncated: z.boolean() });

/**
 * A snapshot's delta survives even the capsule-only forms (its baseline has already moved on): in full
 * with the capsule, then as counts with the compact capsule.
 */
const SNAPSHOT_BUDGET = {
  ...RESUME_BUDGET,
  stubs: (original: Record<string, unknown>) => {
    const capsule = original.capsule as RenderedCapsule;
    const delta = original.delta as Record<string, unknown> | undefined;
    if (delta === undefined) return RESUME_BUDGET.stubs(original);
    const counts = Object.fromEntries(
      ["notes", "cards", "decisions", "evidence"].map((key) => [key, (delta[key] as { count: number } | undefined)?.count ?? 0]),
    );
    // Then the resume view's capsule-only rungs.
    return [
      { capsule, delta, degradation: { truncated_fields: ["*"] } },
      { capsule: compactCapsule(capsule), delta: { since_seq: delta.since_seq, until_seq: delta.until_seq, counts } },
      ...RESUME_BUDGET.stubs(original).slice(1),
    ];
  },
};

export const tasksSnapshot = defineCommand({
  name: "tasks.snapshot",
  tool: "tasks_snapshot",
  title: "Snapshot of a task",
  description: `tasks_resume_super with view smart by default. delta: true adds what changed since your previous snapshot of the same target (notes and cards, at most ${DELTA_LIMIT} each); the first call only sets your baseline. Baselines are per agent and target.`,
  kind: "read",
  input: {
    ...resumeInput,
    view: z.enum(VIEWS).optional().describe("Default: smart."),
    delta: z.boolean().default(false),
  },
  output: {
    ...resumeOutput,
    delta: z
      .object({
        mode: z.literal("since_last").optional(),
        since_seq: z.number().nullable(),
        until_seq: z.number(),
        notes: deltaSection.optional(),
        cards: deltaSection.optional(),
        decisions: deltaSection.optional(),
        evidence: deltaSection.optional(),
        counts: z.record(z.string(), z.number()).optional().describe("Only in a budget-cut answer: how many items each section had."),
      })
      .optional(),
  },
  budget: SNAPSHOT_BUDGET,
  handler: (ctx, args) => {
    const view = resumeView(ctx, args, "tasks_snapshot", "smart");
    if (!args.delta) return view;
    const id = view.target.id;
    const until = read(ctx.db, "seq");
    const since = baselineOf(ctx, id);
    setBaseline(ctx, id, until);
    const ref = view.reasoning_ref;
    const branch = findBranch(ctx.db, ref.branch);
    const empty = { count: 0, items: [], truncated: false };
    if (since === undefined || branch === undefined) {
      return {
        ...view,
        delta: {
          mode: "since_last" as const,
          since_seq: since ?? null,
          until_seq: until,
          notes: empty,
          cards: empty,
          decisions: empty,
          evidence: empty,
        },
      };
    }
    const newer = newerThan(since);
    const section = <T>(items: T[]) => ({
      count: Math.min(items.length, DELTA_LIMIT),
      items: items.slice(0, DELTA_LIMIT) as Record<string, unknown>[],
      truncated: items.length > DELTA_LIMIT,
    });
    const notes = readTail(ctx, branch, ref.notes_doc, undefined, DELTA_LIMIT + 1).entries.filter((entry) => entry.seq > since);
    const changed = cards(ctx, branch, ref.graph_doc, newer, DELTA_LIMIT + 1, false);
    return {
      ...view,
      delta: {
        mode: "since_last" as const,
        since_seq: since,
        until_seq: until,
        notes: section(
          notes.map((entry) => ({
            ref: `${ref.notes_doc}@${entry.seq}`,
            seq: entry.seq,
            ...(entry.title ? { title: entry.title } : {}),
            summary: entry.content.slice(0, 200),
          })),
        ),
        cards: section(
          changed.map((card) => ({ id: card.id, type: card.type, seq: card.last_seq, ...(card.title ? { title: card.title } : {}) })),
        ),
        decisions: section(
          changed
            .filter((card) => card.type === "decision")
            .map((card) => ({ id: card.id, seq: card.last_seq, title: card.title ?? card.text ?? "" })),
        ),
        evidence: section(
          changed
            .filter((card) => card.type === "evidence")
            .map((card) => ({ id: card.id, seq: card.last_seq, title: card.title ?? card.text ?? "" })),
        ),
      },
    };
  },
});
