/**
 * Resumption packs (seed 001 v0.2): `context_pack` merges the tails of notes and trace with the newest
 * cards and the signals (decisions, evidence, blockers) of one scope into one bounded answer, with the
 * engine's answer for that scope (engine.slice.ts) and a bridge to the checkout when a target has no
 * context yet; `think_pack` is the compact card slice.
 * Both only read: nothing is created for a target that has no reasoning yet.
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { defineCommand } from "../../commands/registry";
import { checkoutOf, type Source, sourcesOf } from "../../place/branches.store";
import { DEFAULT_DOCS } from "../../place/documents";
import { reasoningScope } from "../../place/scope";
import { targetSchema } from "../../place/target.schema";
import type { BudgetSpec } from "../../shared/budget";
import { fail } from "../../shared/errors";
import { MAX_LIST_LIMIT } from "../../shared/limits";
import type { Warning } from "../../shared/result";
import { branchArg, docSchema, ENTRY_KEEP } from "../docs/docs.schema";
import { entryViewSchema, pageView } from "../docs/entry-view";
import { paginationSchema } from "../docs/paging";
import { readTail } from "../docs/tail";
import { type Card, cardSchema } from "../graph/card-shape";
import { GRAPH_KEEP } from "../graph/graph.schema";
import type { NodeFilter } from "../graph/graph-filters.store";
import { ANY, BLOCKERS, ofType } from "./card-filters";
import { cardEntryHeldBy, cardMentionSchema, mentionsOf, visibleCardPages, visibleCards } from "./card-view";
import { engineSchema } from "./engine.schema";
import { engineAnswer } from "./engine.slice";

/** Seed 001 defaults. */
const DEFAULTS = { notes: 20, trace: 50, cards: 30, signals: 5 } as const;

const limit = (fallback: number) => z.number().int().min(0).max(MAX_LIST_LIMIT).default(fallback);

function cardsOf(ctx: CommandContext, sources: Source[], graphDoc: string, extra: NodeFilter, limitCards: number, allLanes: boolean) {
  return visibleCards(ctx, graphDoc, sources, extra, { limit: limitCards, allLanes }).cards;
}

/** Blockers: cards marked blocked, and questions still open. */

const tailSchema = z.object({ entries: z.array(entryViewSchema), pagination: paginationSchema });

type Tail = { entries: { seq: number }[]; pagination: Record<string, unknown> & { count: number } };

/** Budget hook: counts follow what is left; a trimmed tail continues below its oldest entry shown. */
function repairPack(trimmed: Record<string, unknown>, original: Record<string, unknown>): Record<string, unknown> {
  const tail = (key: "notes" | "trace") => {
    const now = trimmed[key] as Tail;
    const before = original[key] as Tail;
    if (now.entries.length === before.entries.length) return now;
    // Entries below the cursor come next: the oldest one shown, or (all dropped) just above the newest.
    const newest = before.entries[before.entries.length - 1]?.seq;
    const oldest = now.entries[0]?.seq ?? (newest === undefined ? undefined : newest + 1);
    const { next_cursor: _dropped, ...rest } = now.pagination;
    return {
      ...now,
      pagination: { ...rest, count: now.entries.length, has_more: true, ...(oldest !== undefined ? { next_cursor: oldest } : {}) },
    };
  };
  const signals = trimmed.signals as Record<string, unknown[]> & { stats: unknown };
  const notes = tail("notes");
  const trace = tail("trace");
  return {
    ...trimmed,
    notes,
    trace,
    signals: {
      ...signals,
      stats: {
        decisions: signals.decisions?.length ?? 0,
        evidence: signals.evidence?.length ?? 0,
        blockers: signals.blockers?.length ?? 0,
      },
    },
    stats: { notes: notes.entries.length, trace: trace.entries.length, cards: (trimmed.cards as unknown[]).length },
  };
}

/**
 * Trim order under a budget, least worth keeping first: the long lists (trace, cards, notes), then the
 * engine's prose, then the signals, decisions last. Every list is stubbed before any is dropped, so a
 * tight pack keeps ids and refs (cards by id and version, engine findings by code and refs, actions by
 * kind, title and refs without their calls) and then loses whole items in this order: the engine's
 * signals, evidence, the engine's actions (the best one last), blockers, decisions. So the engine's
 * block (its actions carry full copyable calls) never crowds the decisions and blockers out of a small budget.
 */
const PACK_BUDGET: BudgetSpec = {
  lists: [
    "trace.entries",
    "cards",
    "notes.entries",
    "engine.signals",
    "signals.evidence",
    "engine.actions",
    "signals.blockers",
    "signals.decisions",
  ],
  keep: [...new Set([...ENTRY_KEEP, ...GRAPH_KEEP, "lane", "title", "code", "severity", "priority", "refs"])],
  // Notes and trace are oldest-first tails (trim their oldest); cards, signals and the engine's ranked
  // findings are newest (or best) first.
  trimFromEnd: ["cards", "engine.signals", "signals.evidence", "engine.actions", "signals.blockers", "signals.decisions"],
  repair: repairPack,
};

export const contextPack = defineCommand({
  name: "think.context_pack",
  tool: "context_pack",
  title: "Resumption pack",
  description: `One bounded answer to resume work: tails of notes and trace, the newest cards, and signals (decisions, evidence, blockers: cards marked blocked and open questions). Aim: target (its reasoning ref; ref and docs must then be omitted) or ref (default: your checkout) with notes_doc/trace_doc/graph_doc. Defaults: notes ${DEFAULTS.notes}, trace ${DEFAULTS.trace}, cards ${DEFAULTS.cards}, each signal ${DEFAULTS.signals}. When a target has no notes or cards yet but your checkout does, bridge says so (warning CONTEXT_EMPTY_FOR_TARGET).`,
  kind: "read",
  input: {
    target: targetSchema.optional(),
    ref: branchArg.optional(),
    notes_doc: docSchema.optional(),
    trace_doc: docSchema.optional(),
    graph_doc: docSchema.optional(),
    notes_limit: limit(DEFAULTS.notes),
    trace_limit: limit(DEFAULTS.trace),
    limit_cards: limit(DEFAULTS.cards),
    decisions_limit: limit(DEFAULTS.signals),
    evidence_limit: limit(DEFAULTS.signals),
    blockers_limit: limit(DEFAULTS.signals),
    all_lanes: z.boolean().default(false),
    read_only: z.boolean().default(true).describe("Reads never create reasoning refs; accepted for compatibility."),
  },
  output: {
    requested: z.object({ target: z.string().nullable(), ref: z.string().nullable() }),
    branch: z.string(),
    docs: z.object({ notes: z.string(), trace: z.string(), graph: z.string() }),
    notes: tailSchema,
    trace: tailSchema,
    cards: z.array(cardSchema),
    signals: z.object({
      decisions: z.array(cardMentionSchema),
      evidence: z.array(cardMentionSchema),
      blockers: z.array(cardMentionSchema),
      stats: z.object({ decisions: z.number(), evidence: z.number(), blockers: z.number() }),
    }),
    stats: z.object({ notes: z.number(), trace: z.number(), cards: z.number() }),
    bridge: z
      .object({
        checkout: z.string(),
        docs: z.object({ notes: z.string(), trace: z.string(), graph: z.string() }),
        has: z.object({ notes: z.boolean(), trace: z.boolean(), cards: z.boolean() }),
      })
      .optional(),
    engine: engineSchema.optional(),
    truncated: z.boolean(),
  },
  budget: PACK_BUDGET,
  handler: (ctx, args) => {
    const explicitDocs = [args.ref, args.notes_doc, args.trace_doc, args.graph_doc].some((value) => value !== undefined);
    if (args.target !== undefined && explicitDocs) {
      fail(
        "INVALID_INPUT",
        "With a target, ref and the docs come from its reasoning ref.",
        "Drop ref, notes_doc, trace_doc and graph_doc, or drop target.",
        {
          fields: ["target", "ref", "notes_doc", "trace_doc", "graph_doc"],
        },
      );
    }
    const scope = reasoningScope(ctx, { target: args.target, branch: args.ref }, "read", { useFocus: false });
    const docs = {
      notes: scope.ref?.notes_doc ?? args.notes_doc ?? DEFAULT_DOCS.notes,
      trace: scope.ref?.trace_doc ?? args.trace_doc ?? DEFAULT_DOCS.trace,
      graph: scope.ref?.graph_doc ?? args.graph_doc ?? DEFAULT_DOCS.graph,
    };
    // The branch's sources are read once and shared by every list of the pack.
    const sources = sourcesOf(ctx.db, scope.branch);
    const notes =
      args.notes_limit === 0
        ? { entries: [], pagination: { cursor: null, has_more: false, limit: 0, count: 0 } }
        : readTail(ctx, scope.branch, docs.notes, undefined, args.notes_limit, sources, args.all_lanes);
    const trace =
      args.trace_limit === 0
        ? { entries: [], pagination: { cursor: null, has_more: false, limit: 0, count: 0 } }
        : readTail(ctx, scope.branch, docs.trace, undefined, args.trace_limit, sources, args.all_lanes);
    // The scope's one engine answer (engine.slice.ts), not one over the pack's own lists. Read first:
    // the pack's newest cards, evidence and blockers are prefixes of the slice's pages (card-view.ts keeps them).
    const engine = engineAnswer(ctx, {
      branch: scope.branch,
      sources,
      graphDoc: docs.graph,
      traceDoc: docs.trace,
      allLanes: args.all_lanes,
      target: scope.target,
      // The pack's own trace tail covers the engine's window (unless the pack asked for none).
      ...(args.trace_limit === 0 ? {} : { traceTail: trace }),
    });
    const [cards, decisions, evidence, blockers] = visibleCardPages(
      ctx,
      docs.graph,
      sources,
      [
        { filter: ANY, limit: args.limit_cards },
        { filter: ofType("decision"), limit: args.decisions_limit },
        { filter: ofType("evidence"), limit: args.evidence_limit },
        { filter: BLOCKERS, limit: args.blockers_limit },
      ],
      args.all_lanes,
    ).map((page) => page.cards) as [Card[], Card[], Card[], Card[]];
    // Leaner items (entry-view.ts): entries read from this branch and doc leave those out, and what
    // the card list holds already is named, not repeated, by the trace and the signals.
    const pack = {
      requested: { target: scope.target ?? null, ref: args.ref ?? null },
      branch: scope.branch.name,
      docs,
      notes: pageView(notes, { branch: scope.branch.name, doc: docs.notes }),
      trace: pageView(trace, { branch: scope.branch.name, doc: docs.trace }, cardEntryHeldBy(cards)),
      cards,
      signals: {
        decisions: mentionsOf(decisions, cards),
        evidence: mentionsOf(evidence, cards),
        blockers: mentionsOf(blockers, cards),
        stats: { decisions: decisions.length, evidence: evidence.length, blockers: blockers.length },
      },
      stats: { notes: notes.entries.length, trace: trace.entries.length, cards: cards.length },
      ...(engine.signals.length + engine.actions.length > 0 ? { engine } : {}),
      truncated: false,
    };
    if (scope.target === undefined || notes.entries.length > 0 || cards.length > 0) return pack;
    const bridge = bridgeToCheckout(ctx, args.all_lanes);
    if (bridge === undefined) return pack;
    ctx.warn(emptyTargetWarning(scope.target, bridge.checkout));
    return { ...pack, bridge };
  },
});

/** What the caller's checkout holds, when it holds anything (the target's scope being empty). */
function bridgeToCheckout(ctx: CommandContext, allLanes: boolean) {
  const checkout = checkoutOf(ctx.db, ctx.principal.agent_id);
  const docs = { notes: DEFAULT_DOCS.notes, trace: DEFAULT_DOCS.trace, graph: DEFAULT_DOCS.graph };
  const sources = sourcesOf(ctx.db, checkout);
  const has = {
    notes: readTail(ctx, checkout, docs.notes, undefined, 1, sources, allLanes).entries.length > 0,
    trace: readTail(ctx, checkout, docs.trace, undefined, 1, sources, allLanes).entries.length > 0,
    cards: cardsOf(ctx, sources, docs.graph, ANY, 1, allLanes).length > 0,
  };
  return has.notes || has.trace || has.cards ? { checkout: checkout.name, docs, has } : undefined;
}

function emptyTargetWarning(target: string, checkout: string): Warning {
  return {
    code: "CONTEXT_EMPTY_FOR_TARGET",
    message: `${target} has no notes or cards yet; your checkout ${checkout} has context.`,
    recovery: `Read it with context_pack {ref: "${checkout}"}, and record what matters for ${target} with notes_commit or think_card (target).`,
  };
}

export const thinkPack = defineCommand({
  name: "think.pack",
  tool: "think_pack",
  title: "Compact card pack",
  description:
    "A compact think_context: the newest cards as {id, type, title, status, lane} with counts by type. Aim as think_context (target, branch + graph_doc, or your checkout).",
  kind: "read",
  input: {
    target: targetSchema.optional(),
    branch: branchArg.optional(),
    graph_doc: docSchema.optional(),
    limit_cards: z.number().int().min(1).max(MAX_LIST_LIMIT).default(10),
    all_lanes: z.boolean().default(false),
  },
  output: {
    branch: z.string(),
    graph_doc: z.string(),
    stats: z.object({ cards: z.number(), by_type: z.record(z.string(), z.number()) }),
    cards: z.array(
      z.object({ id: z.string(), type: z.string(), title: z.string().optional(), status: z.string().optional(), lane: z.string() }),
    ),
    truncated: z.boolean(),
  },
  budget: { lists: ["cards"], keep: ["id", "type", "status"], trimFromEnd: true },
  handler: (ctx, args) => {
    const scope = reasoningScope(ctx, args, "read", { useFocus: false });
    if (scope.ref && args.graph_doc !== undefined)
      fail("INVALID_INPUT", "With a target, the graph doc comes from its reasoning ref.", "Drop graph_doc or target.", {
        fields: ["target", "graph_doc"],
      });
    const graphDoc = scope.ref?.graph_doc ?? args.graph_doc ?? DEFAULT_DOCS.graph;
    const cards = cardsOf(ctx, sourcesOf(ctx.db, scope.branch), graphDoc, ANY, args.limit_cards, args.all_lanes).map((card) => ({
      id: card.id,
      type: card.type,
      ...(card.title !== undefined ? { title: card.title } : card.text !== undefined ? { title: card.text.slice(0, 120) } : {}),
      ...(card.status !== undefined ? { status: card.status } : {}),
      lane: card.lane,
    }));
    const byTypeCount: Record<string, number> = {};
    for (const card of cards) byTypeCount[card.type] = (byTypeCount[card.type] ?? 0) + 1;
    return {
      branch: scope.branch.name,
      graph_doc: graphDoc,
      stats: { cards: cards.length, by_type: byTypeCount },
      cards,
      truncated: false,
    };
  },
});
