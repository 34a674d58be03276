/**
 * How a resume view (tasks_resume_super, tasks_snapshot) degrades under a budget: the order its lists
 * are trimmed in, what a trimmed item keeps, the repair of its cursors and `degradation`, and its small
 * forms (the capsule alone, then the compact capsule, then the best action), for the budget ladder.
 */
import { ENTRY_KEEP } from "../docs/docs.schema";
import { GRAPH_KEEP } from "../graph/graph.schema";
import { actionOnlyCapsule, compactCapsule, type RenderedCapsule } from "./capsule.compact";

/**
 * Trim order under a budget, least worth keeping first: bulky history (trace, notes, cards, timeline),
 * then the engine's prose and the steps, then the signals, decisions and blockers last; the capsule
 * never. Every list is stubbed before any is dropped, so a tight answer keeps ids and refs (cards by id
 * and version, engine findings by code and refs, actions by kind, priority, title and refs without their
 * calls) and then loses whole items in this order: the engine's signals, steps, evidence, the engine's
 * actions (the best one last), decisions, blockers. So the engine's block (its actions carry full
 * copyable calls; the capsule keeps the best one as its backup) never crowds the decisions and blockers
 * out of a mid-size budget.
 */
export const RESUME_BUDGET = {
  // The view's tier of section sizes follows max_chars (see `limitsFor`).
  sized: true,
  lists: [
    "memory.trace",
    "memory.notes",
    "memory.cards",
    "timeline.events",
    "engine.signals",
    "steps",
    "signals.evidence",
    "engine.actions",
    "signals.decisions",
    "signals.blockers",
  ],
  keep: [...new Set([...ENTRY_KEEP, ...GRAPH_KEEP, "event_id", "tick", "path", "title", "code", "severity", "priority", "refs"])],
  // Notes and trace are oldest-first tails (trim their oldest); cards, signals and the engine's ranked
  // findings are newest (or best) first.
  trimFromEnd: ["memory.cards", "engine.signals", "signals.evidence", "engine.actions", "signals.decisions", "signals.blockers"],
  repair: (trimmed: Record<string, unknown>, original: Record<string, unknown>) => ({
    ...trimmed,
    memory: repairTails(trimmed.memory as Memory, original.memory as Memory),
    degradation: { truncated_fields: truncatedFields(trimmed, original) },
  }),
  stubs: (original: Record<string, unknown>) => {
    const capsule = original.capsule as RenderedCapsule;
    return [
      { capsule, degradation: { truncated_fields: ["*"] } },
      { capsule: compactCapsule(capsule) },
      { capsule: actionOnlyCapsule(capsule) },
    ];
  },
};

type Memory = Record<string, unknown> & Record<"notes" | "trace", { seq: number }[]> & { cards: { id: string; last_seq: number }[] };

/** A trimmed tail (oldest entries dropped) continues below its oldest entry shown. */
function repairTails(now: Memory, before: Memory): Memory {
  const repaired: Memory = { ...now };
  for (const key of ["notes", "trace"] as const) {
    if (now[key].length === before[key].length) continue;
    const newest = before[key][before[key].length - 1]?.seq;
    const next = now[key][0]?.seq ?? (newest === undefined ? undefined : newest + 1);
    const { next_cursor: _dropped, ...rest } = now[`${key}_pagination`] as Record<string, unknown>;
    repaired[`${key}_pagination`] = {
      ...rest,
      count: now[key].length,
      has_more: true,
      ...(next !== undefined ? { next_cursor: next } : {}),
    };
  }
  // Dropped cards must come back on the next page: it continues just above the newest dropped card (a
  // step-scoped card may lead the page out of seq order, so this can repeat a shown card, never skip one).
  if (now.cards.length !== before.cards.length) {
    const shown = new Set(now.cards.map((card) => card.id));
    const dropped = before.cards.filter((card) => !shown.has(card.id)).map((card) => card.last_seq);
    const next = Math.max(...dropped) + 1;
    repaired.cards_pagination = {
      ...(now.cards_pagination as Record<string, unknown>),
      count: now.cards.length,
      has_more: true,
      next_cursor: next,
    };
  }
  return repaired;
}

function truncatedFields(trimmed: Record<string, unknown>, original: Record<string, unknown>): string[] {
  const at = (payload: Record<string, unknown>, path: string): unknown => {
    const [head, child] = path.split(".") as [string, string | undefined];
    return child === undefined ? payload[head] : (payload[head] as Record<string, unknown> | undefined)?.[child];
  };
  // A list counts as truncated when items were dropped or lost their bodies.
  return RESUME_BUDGET.lists.filter((path) => JSON.stringify(at(trimmed, path)) !== JSON.stringify(at(original, path)));
}
