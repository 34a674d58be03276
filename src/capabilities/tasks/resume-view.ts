/**
 * The resume view (seed 003) of a plan or task: "where am I, why, what next" in one bounded payload,
 * with its input and output schemas. Shared by `tasks_resume_super` (resume.commands.ts), `tasks_snapshot`
 * (snapshot.commands.ts, its smart view with a delta) and `open` on a plan or task (open.views.ts).
 * Views choose what memory comes along:
 *
 * - `focus_only`: the step focus and minimal context; cards tagged with the step only;
 * - `smart` (default with a budget): step-scoped and pinned cards first, then open cards (cold archive:
 *   closed cards stay out unless pinned); section sizes follow the budget;
 * - `explore`: like smart, with the warm archive (closed cards too);
 * - `audit`: like smart, with every lane;
 * - `full` (default without a budget): every section at its full default size.
 *
 * Every answer carries the capsule (where / why / next), and a task's `dependencies` (what it waits
 * for) and `claim` (who has taken it) when it has them. Under a tight budget the sections shrink and go first; the
 * capsule stays, and at the very end only its compact form with the best action is left.
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { type Branch, findBranch, sourcesOf } from "../../place/branches.store";
import { focusOf } from "../../place/focus.store";
import { reasoningRefSchema, targetFields } from "../../place/target.schema";
import { firstOpenStep, reasoningRef, resolveTarget, stepTagOf } from "../../place/targets";
import { type EntityRow, orderedSteps, type StepRow } from "../../place/targets.store";
import { MAX_LIST_LIMIT } from "../../shared/limits";
import type { Entry } from "../docs/docs.schema";
import { entryViewSchema, entryViews } from "../docs/entry-view";
import { paginationSchema } from "../docs/paging";
import { readTail } from "../docs/tail";
import { type Card, cardSchema } from "../graph/card-shape";
import { allOf, type NodeFilter } from "../graph/graph-filters.store";
import { ANY, BLOCKERS, OPEN, ofType } from "../think/card-filters";
import { cardEntryHeldBy, cardMentionSchema, mentionsOf, visibleCardPages, visibleCards } from "../think/card-view";
import { engineSchema } from "../think/engine.schema";
import { engineAnswer } from "../think/engine.slice";
import { nextTaskOf, targetCapsule } from "./capsule";
import { compactCapsuleOf } from "./capsule.compact";
import { claimViewSchema, dependenciesViewSchema, dependencyFields } from "./dependency-view";
import { liveLease } from "./leases.store";
import { radarSchema, radarView } from "./radar";
import { type PageRequest, viewCardRequests, viewCardsOf } from "./resume-cards";
import { toStep } from "./steps.store";
import { latestEvents } from "./task-events.store";
import { entitySchema, eventSchema, stepSchema } from "./tasks.schema";
import { toEntity } from "./tasks.store";

/** `compact` (seed 002's envelope view): the focus_only sections with the compact capsule. */
export const VIEWS = ["compact", "focus_only", "smart", "explore", "audit", "full"] as const;
type View = (typeof VIEWS)[number];

interface Limits {
  events: number;
  signals: number;
  notes: number;
  trace: number;
  cards: number;
}

/** Section sizes: `full` and `focus_only` are fixed (the original's); smart-like views follow the budget tier. */
const FULL: Limits = { events: 20, signals: 5, notes: 10, trace: 20, cards: 20 };
const FOCUS_ONLY: Limits = { events: 12, signals: 3, notes: 3, trace: 8, cards: 40 };
const TIERS: { upTo: number; limits: Limits }[] = [
  { upTo: 2_000, limits: { events: 6, signals: 2, notes: 4, trace: 10, cards: 18 } },
  { upTo: 6_000, limits: { events: 10, signals: 3, notes: 6, trace: 15, cards: 24 } },
  { upTo: 12_000, limits: { events: 15, signals: 4, notes: 8, trace: 20, cards: 30 } },
  { upTo: Number.POSITIVE_INFINITY, limits: { events: 20, signals: 5, notes: 10, trace: 20, cards: 40 } },
];

function limitsFor(view: View, budgetChars: number | undefined): Limits {
  if (view === "full") return FULL;
  if (view === "focus_only" || view === "compact") return FOCUS_ONLY;
  const chars = budgetChars ?? Number.POSITIVE_INFINITY;
  return (TIERS.find((tier) => chars <= tier.upTo) ?? (TIERS[TIERS.length - 1] as (typeof TIERS)[number])).limits;
}

const limitArg = z.number().int().min(0).max(MAX_LIST_LIMIT).optional();

export const resumeInput = {
  ...targetFields,
  view: z.enum(VIEWS).optional().describe("Default: full without a budget, smart with max_chars/context_budget."),
  events_limit: limitArg,
  notes_limit: limitArg,
  trace_limit: limitArg,
  cards_limit: limitArg,
  signals_limit: limitArg.describe("Decisions, evidence and blockers, each."),
  notes_cursor: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("Older notes: entries below this seq (memory.notes_pagination.next_cursor)."),
  trace_cursor: z.number().int().positive().optional().describe("Older trace entries (memory.trace_pagination.next_cursor)."),
  cards_cursor: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("Older cards, newest first below this seq (memory.cards_pagination.next_cursor)."),
};

export const resumeOutput = {
  view: z.enum(VIEWS),
  focus: z.string().nullable(),
  target: entitySchema,
  dependencies: dependenciesViewSchema,
  claim: claimViewSchema,
  reasoning_ref: reasoningRefSchema,
  radar: radarSchema,
  step_focus: z.object({ step: stepSchema, lease: z.object({ holder: z.string(), expires_tick: z.number() }).optional() }).nullable(),
  steps: z.array(z.object({ id: z.string(), path: z.string(), title: z.string(), completed: z.boolean(), blocked: z.boolean() })),
  timeline: z.object({
    events: z.array(eventSchema.partial({ task: true }).describe("task is left out when it is the target's.")),
  }),
  signals: z.object({
    blockers: z.array(cardMentionSchema),
    decisions: z.array(cardMentionSchema),
    evidence: z.array(cardMentionSchema),
    stats: z.object({ blockers: z.number(), decisions: z.number(), evidence: z.number() }),
  }),
  memory: z.object({
    notes: z.array(entryViewSchema),
    notes_pagination: paginationSchema,
    trace: z.array(entryViewSchema),
    trace_pagination: paginationSchema,
    cards: z.array(cardSchema),
    cards_pagination: paginationSchema,
  }),
  engine: engineSchema.optional(),
  capsule: z.record(z.string(), z.unknown()),
  degradation: z.object({ truncated_fields: z.array(z.string()) }),
};

/** One page of the visible cards of a reasoning ref's graph doc that match `extra`, newest first. */
export function cards(ctx: CommandContext, branch: Branch, doc: string, extra: NodeFilter, limit: number, allLanes: boolean) {
  return visibleCards(ctx, doc, sourcesOf(ctx.db, branch), extra, { limit, allLanes }).cards;
}

export interface ResumeArgs {
  target?: unknown;
  task?: string | undefined;
  plan?: string | undefined;
  view?: View | undefined;
  events_limit?: number | undefined;
  notes_limit?: number | undefined;
  trace_limit?: number | undefined;
  cards_limit?: number | undefined;
  signals_limit?: number | undefined;
  notes_cursor?: number | undefined;
  trace_cursor?: number | undefined;
  cards_cursor?: number | undefined;
  max_chars?: number | undefined;
  context_budget?: number | undefined;
  budget_profile?: string | undefined;
}

/**
 * Leaner items (entry-view.ts): a trace entry that mirrors a task event the timeline shows is named by
 * its event_id, and one a card write left, by its card_id when the view's cards show that version.
 */
function heldElsewhere(events: { event_id: string }[], viewCards: Parameters<typeof cardEntryHeldBy>[0]) {
  const shown = new Set(events.map((event) => event.event_id));
  const card = cardEntryHeldBy(viewCards);
  return (entry: Entry) => {
    const id = entry.meta?.event_id;
    return typeof id === "string" && shown.has(id) ? "event_id" : card(entry);
  };
}

/** The resume payload of a plan or task in the given view. */
export function resumeView(ctx: CommandContext, args: ResumeArgs, tool: string, defaultView?: View) {
  const entity: EntityRow = resolveTarget(ctx, args as Parameters<typeof resolveTarget>[1], tool);
  const budgeted = args.max_chars !== undefined || args.context_budget !== undefined || args.budget_profile !== undefined;
  const view: View = args.view ?? defaultView ?? (budgeted ? "smart" : "full");
  const base = limitsFor(view, budgeted ? ctx.readLimitChars : undefined);
  const limits: Limits = {
    events: args.events_limit ?? base.events,
    signals: args.signals_limit ?? base.signals,
    notes: args.notes_limit ?? base.notes,
    trace: args.trace_limit ?? base.trace,
    cards: args.cards_limit ?? base.cards,
  };
  const ref = reasoningRef(entity.id);
  const branch = findBranch(ctx.db, ref.branch);
  const steps: StepRow[] = entity.kind === "task" ? orderedSteps(ctx.db, entity.id) : [];
  const stepFocus = entity.kind === "task" ? firstOpenStep(ctx.db, entity.id) : undefined;
  const lease = stepFocus ? liveLease(ctx.db, stepFocus.id) : undefined;
  const stepTag = stepFocus ? stepTagOf(stepFocus.id) : undefined;
  const allLanes = view === "audit";
  const emptyTail = (limit: number) => ({ entries: [], pagination: { cursor: null, has_more: false, limit, count: 0 } });
  const tail = (doc: string, limit: number, cursor: number | undefined) =>
    branch === undefined || limit === 0 ? emptyTail(limit) : readTail(ctx, branch, doc, cursor, limit, undefined, allLanes);
  const radar = radarView(ctx, entity);
  const notes = tail(ref.notes_doc, limits.notes, args.notes_cursor);
  const trace = tail(ref.trace_doc, limits.trace, args.trace_cursor);
  const focus = focusOf(ctx.db, ctx.principal.agent_id) ?? null;
  const events = latestEvents(ctx.db, entity.id, limits.events);
  // The target's one engine answer (engine.slice.ts), whatever the view lists; step-aware on the step focus.
  // The view's step tag and trace tail (when it is the newest entries) spare the engine its own reads.
  const scope = { graphDoc: ref.graph_doc, traceDoc: ref.trace_doc, allLanes, target: entity.id, stepTag: stepTag ?? null };
  const known = args.trace_cursor === undefined && limits.trace > 0;
  const traceTail = known ? { traceTail: trace } : {};
  const engine = branch === undefined ? undefined : engineAnswer(ctx, { ...scope, branch, ...traceTail });
  // The view's card pages, read together after the engine's: those within the slice's pages (blockers,
  // evidence, open decisions, the newest cards) are answered from what the call read for it (card-view.ts).
  const viewRequests = viewCardRequests(view, stepTag, limits.cards, args.cards_cursor);
  const signalRequests: PageRequest[] = [
    { filter: BLOCKERS, limit: limits.signals },
    { filter: allOf(ofType("decision"), view === "explore" || view === "full" ? ANY : OPEN), limit: limits.signals },
    { filter: ofType("evidence"), limit: limits.signals },
  ];
  const pages =
    branch === undefined
      ? []
      : visibleCardPages(ctx, ref.graph_doc, sourcesOf(ctx.db, branch), [...signalRequests, ...viewRequests], allLanes);
  const [blockers, decisions, evidence] = [0, 1, 2].map((index) => pages[index]?.cards ?? []) as [Card[], Card[], Card[]];
  const viewCardPage = viewCardsOf(view, stepTag, limits.cards, args.cards_cursor, pages.slice(signalRequests.length));
  const viewCardList = viewCardPage.cards;
  const cardsPagination = {
    cursor: args.cards_cursor ?? null,
    has_more: viewCardPage.next !== undefined,
    limit: limits.cards,
    count: viewCardList.length,
    ...(viewCardPage.next !== undefined ? { next_cursor: viewCardPage.next } : {}),
  };
  const engineAction = engine?.actions[0];
  const capsule = targetCapsule({
    ctx,
    entity,
    ref,
    focus,
    steps,
    stepFocus,
    lease,
    allLanes,
    signals: [
      ...radar.radar.blockers.map((line) => `blocked: ${line}`),
      ...(engine?.signals ?? []).map((signal) => `${signal.code}: ${signal.message}`),
      ...blockers.map((card) => `${card.type} ${card.id}: ${card.title ?? card.text ?? ""}`),
      ...radar.radar.verify,
      ...radar.radar.next,
    ],
    nextTask: nextTaskOf(ctx, entity),
    engineAction: engineAction?.calls[0],
  });
  return {
    view,
    focus,
    target: toEntity(entity),
    ...dependencyFields(ctx.db, entity),
    reasoning_ref: ref,
    radar: radar.radar,
    step_focus: stepFocus
      ? { step: toStep(stepFocus), ...(lease ? { lease: { holder: lease.holder, expires_tick: lease.expires_tick } } : {}) }
      : null,
    steps: ((view === "focus_only" || view === "compact") && stepFocus ? [stepFocus] : steps).map((step) => ({
      id: step.id,
      path: step.path,
      title: step.title,
      completed: step.completed === 1,
      blocked: step.blocked === 1,
    })),
    timeline: { events: events.map(({ task, ...event }) => (task === entity.id ? event : { ...event, task })) },
    signals: {
      blockers: mentionsOf(blockers, viewCardList),
      decisions: mentionsOf(decisions, viewCardList),
      evidence: mentionsOf(evidence, viewCardList),
      stats: { blockers: blockers.length, decisions: decisions.length, evidence: evidence.length },
    },
    memory: {
      notes: entryViews(notes.entries, { branch: ref.branch, doc: ref.notes_doc }),
      notes_pagination: notes.pagination,
      trace: entryViews(trace.entries, { branch: ref.branch, doc: ref.trace_doc }, heldElsewhere(events, viewCardList)),
      trace_pagination: trace.pagination,
      cards: viewCardList,
      cards_pagination: cardsPagination,
    },
    ...(engine && engine.signals.length + engine.actions.length > 0 ? { engine } : {}),
    capsule: view === "compact" ? compactCapsuleOf(capsule) : capsule,
    degradation: { truncated_fields: [] as string[] },
  };
}
