/**
 * Think commands (seed 001 Milestone 4.1 and v0.2, dotted under `think.*`): templates, context and
 * query slices, links, status, pins, publish and the pipeline (think_card and the eight typed wrappers
 * are in card-write.commands.ts). Aim: an explicit
 * target (the plan's or task's reasoning branch and docs) > an explicit branch (+ trace_doc /
 * graph_doc, default `trace` / `graph`) > the caller's checkout; think tools do not use the focus.
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { DEFAULT_DOCS } from "../../place/documents";
import { fail } from "../../shared/errors";
import { MAX_LIST_LIMIT, MAX_TITLE_CHARS } from "../../shared/limits";
import { pagination, paginationSchema, repairPagination } from "../docs/paging";
import { CARD_TYPES, cardSchema } from "../graph/card-shape";
import { GRAPH_KEEP, MAX_NODE_TEXT_CHARS, nodeIdSchema } from "../graph/graph.schema";
import { toNode } from "../graph/graph.store";
import { queryFilter } from "../graph/graph-filters.store";
import { usesTextIndex } from "../graph/graph-text-search.store";
import { writeNote } from "../vcs/note-write";
import { ANY } from "./card-filters";
import { cardOutput, cardStatus, cardTags, failUnknownCardType, parseCard } from "./card-io";
import { searchedCards } from "./card-search";
import { type CardPage, visibleCards } from "./card-view";
import { commitCard, linkCards, requireCard, requireOwnCard, requireWritableLane, rewriteCard } from "./cards";
import { type CardInput, isCardType } from "./cards.parse";
import { readScopeFields, scopeFields, type ThinkScope, thinkScope } from "./think.scope";

/** Default and ceiling of cards in a context slice (seed 001 `limit_cards=30`). */
const DEFAULT_CONTEXT_CARDS = 30;
const PINNED_TAG = "pinned";
/** One stage of think_pipeline: a card in any of the accepted input forms. */
const stageText = z.string().min(1).max(MAX_NODE_TEXT_CHARS);

const cardSkeleton = (type: string) => ({
  id: "<optional: CARD-… is generated>",
  type,
  title: "",
  text: "",
  status: "open",
  tags: [] as string[],
  meta: {},
});

export const thinkTemplate = defineCommand({
  name: "think.template",
  tool: "think_template",
  // Seed 002's reasoning seed: a deterministic template frame (type defaults to frame).
  aliases: ["think.reasoning.seed", "reasoning.seed"],
  title: "Card skeleton",
  description: `A deterministic skeleton of a card of the given type (default frame: the reasoning seed), so you never guess fields. Types: ${CARD_TYPES.join(", ")}.`,
  kind: "read",
  input: { type: z.string().min(1).max(64).default("frame") },
  output: { type: z.string(), supported_types: z.array(z.string()), template: z.record(z.string(), z.unknown()), truncated: z.boolean() },
  handler: (_ctx, args) => {
    const type = args.type.toLowerCase();
    if (!isCardType(type)) failUnknownCardType(args.type);
    return { type, supported_types: [...CARD_TYPES], template: cardSkeleton(type), truncated: false };
  },
});

/** A page of cards (think_query, think_pins). */
const CARD_PAGE_OUTPUT = {
  branch: z.string(),
  graph_doc: z.string(),
  cards: z.array(cardSchema),
  pagination: paginationSchema,
  truncated: z.boolean(),
};

/** The paging arguments of a card page tool, as `visibleCards` takes them. */
function pageArgs(args: { limit: number; all_lanes: boolean; cursor?: number | undefined }) {
  return { limit: args.limit, allLanes: args.all_lanes, before: args.cursor };
}

/** A card page tool's answer (think_query, think_pins). */
function cardPageOutput(scope: ThinkScope, page: CardPage, args: { limit: number; cursor?: number | undefined }) {
  return {
    branch: scope.cards.branch.name,
    graph_doc: scope.cards.graphDoc,
    cards: page.cards,
    pagination: pagination(args.cursor, page.next !== undefined, page.next, args.limit, page.cards.length),
    truncated: false,
  };
}

const CARD_BUDGET = {
  lists: ["cards"],
  keep: GRAPH_KEEP.concat(["lane"]),
  trimFromEnd: true,
  repair: repairPagination("cards", { trimFromEnd: true, seqKey: "last_seq" }),
};

export const thinkContext = defineCommand({
  name: "think.context",
  tool: "think_context",
  title: "Thinking context",
  description: `The newest cards of a graph doc (card types only; shared lane + yours unless all_lanes), with counts by type over the slice: a low-noise resume. limit_cards default ${DEFAULT_CONTEXT_CARDS}.`,
  kind: "read",
  input: {
    ...readScopeFields,
    limit_cards: z.number().int().min(1).max(MAX_LIST_LIMIT).default(DEFAULT_CONTEXT_CARDS),
    cursor: z.number().int().positive().optional(),
  },
  output: {
    branch: z.string(),
    graph_doc: z.string(),
    stats: z.object({ cards: z.number(), by_type: z.record(z.string(), z.number()) }),
    cards: z.array(cardSchema),
    pagination: paginationSchema,
    truncated: z.boolean(),
  },
  budget: CARD_BUDGET,
  handler: (ctx, args) => {
    const scope = thinkScope(ctx, args, "read");
    const page = visibleCards(ctx, scope.cards.graphDoc, scope.cards.sources, ANY, {
      limit: args.limit_cards,
      allLanes: args.all_lanes,
      before: args.cursor,
    });
    const cards = page.cards;
    const byType: Record<string, number> = {};
    for (const card of cards) byType[card.type] = (byType[card.type] ?? 0) + 1;
    return {
      branch: scope.cards.branch.name,
      graph_doc: scope.cards.graphDoc,
      stats: { cards: cards.length, by_type: byType },
      cards,
      pagination: pagination(args.cursor, page.next !== undefined, page.next, args.limit_cards, cards.length),
      truncated: false,
    };
  },
});

export const thinkQuery = defineCommand({
  name: "think.query",
  tool: "think_query",
  title: "Query cards",
  description:
    "Cards of a graph doc by ids, types, status, tags and text, newest first, in the lanes you may see (all_lanes for every lane). Page with cursor = next_cursor.",
  kind: "read",
  input: {
    ...readScopeFields,
    ids: z.array(nodeIdSchema).max(MAX_LIST_LIMIT).optional(),
    types: z.array(z.enum(CARD_TYPES)).max(CARD_TYPES.length).optional(),
    status: z.array(cardStatus).max(20).optional(),
    tags_any: cardTags.optional(),
    tags_all: cardTags.optional(),
    text: z.string().min(1).max(200).optional(),
    limit: z.number().int().min(1).max(MAX_LIST_LIMIT).default(50),
    cursor: z.number().int().positive().optional(),
  },
  output: CARD_PAGE_OUTPUT,
  budget: CARD_BUDGET,
  handler: (ctx, args) => {
    const scope = thinkScope(ctx, args, "read");
    const filters = queryFilter({
      ids: args.ids,
      types: args.types,
      status: args.status?.map((status) => status.toLowerCase()),
      tags_any: args.tags_any,
      tags_all: args.tags_all,
      text: args.text,
    });
    const { graphDoc, sources } = scope.cards;
    // A text of 3+ characters is looked up in the graph's trigram index; otherwise the view is scanned.
    const page = usesTextIndex(args.text)
      ? searchedCards(ctx, graphDoc, sources, args.text, filters, pageArgs(args))
      : visibleCards(ctx, graphDoc, sources, filters, pageArgs(args));
    return cardPageOutput(scope, page, args);
  },
});

const cardRef = nodeIdSchema.describe("A card id.");

export const thinkLink = defineCommand({
  name: "think.link",
  tool: "think_link",
  title: "Link two cards",
  description:
    "Add an edge between two live cards (rel: supports, blocks, or another relation). The source card must be in a lane you may write.",
  kind: "write",
  input: {
    ...scopeFields,
    from: cardRef,
    rel: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[^|]+$/)
      .default("supports"),
    to: cardRef,
  },
  output: { branch: z.string(), graph_doc: z.string(), from: z.string(), rel: z.string(), to: z.string(), created: z.boolean() },
  handler: (ctx, args) => {
    const scope = thinkScope(ctx, args, "write");
    requireOwnCard(scope.cards, args.from);
    requireCard(scope.cards, args.to);
    const created = linkCards(scope.cards, args.from, args.rel, args.to);
    return { branch: scope.cards.branch.name, graph_doc: scope.cards.graphDoc, from: args.from, rel: args.rel, to: args.to, created };
  },
});

export const thinkSetStatus = defineCommand({
  name: "think.set_status",
  tool: "think_set_status",
  title: "Set a card's status",
  description:
    "Change a card's status (e.g. open, accepted, rejected, resolved) as a new version. Cards in another agent's lane are refused.",
  kind: "write",
  input: { ...scopeFields, card_id: cardRef, status: cardStatus },
  output: { branch: z.string(), graph_doc: z.string(), card_id: z.string(), status: z.string(), changed: z.boolean() },
  handler: (ctx, args) => {
    const scope = thinkScope(ctx, args, "write");
    const row = requireOwnCard(scope.cards, args.card_id);
    const status = args.status.toLowerCase();
    const written = rewriteCard(scope.cards, row, { status });
    if (written) ctx.journal({ target: `${scope.cards.branch.name}/${scope.cards.graphDoc}`, summary: `status ${args.card_id} ${status}` });
    return {
      branch: scope.cards.branch.name,
      graph_doc: scope.cards.graphDoc,
      card_id: args.card_id,
      status,
      changed: written !== undefined,
    };
  },
});

export const thinkPin = defineCommand({
  name: "think.pin",
  tool: "think_pin",
  title: "Pin or unpin a card",
  description: `Pin a card (tag "${PINNED_TAG}") so resume views keep it in sight, or unpin it (pinned: false).`,
  kind: "write",
  input: { ...scopeFields, card_id: cardRef, pinned: z.boolean().default(true) },
  output: { branch: z.string(), graph_doc: z.string(), card_id: z.string(), pinned: z.boolean(), changed: z.boolean() },
  handler: (ctx, args) => {
    const scope = thinkScope(ctx, args, "write");
    const row = requireOwnCard(scope.cards, args.card_id);
    const tags = (toNode(row).tags ?? []).filter((tag) => tag !== PINNED_TAG);
    const written = rewriteCard(scope.cards, row, { tags: args.pinned ? [...tags, PINNED_TAG].sort() : tags });
    if (written)
      ctx.journal({
        target: `${scope.cards.branch.name}/${scope.cards.graphDoc}`,
        summary: `${args.pinned ? "pin" : "unpin"} ${args.card_id}`,
      });
    return {
      branch: scope.cards.branch.name,
      graph_doc: scope.cards.graphDoc,
      card_id: args.card_id,
      pinned: args.pinned,
      changed: written !== undefined,
    };
  },
});

export const thinkPins = defineCommand({
  name: "think.pins",
  tool: "think_pins",
  title: "Pinned cards",
  description: "The pinned cards of a graph doc, newest first, in the lanes you may see.",
  kind: "read",
  input: {
    ...readScopeFields,
    limit: z.number().int().min(1).max(MAX_LIST_LIMIT).default(50),
    cursor: z.number().int().positive().optional(),
  },
  output: CARD_PAGE_OUTPUT,
  budget: CARD_BUDGET,
  handler: (ctx, args) => {
    const scope = thinkScope(ctx, args, "read");
    const pinned = queryFilter({ tags_any: [PINNED_TAG] });
    return cardPageOutput(scope, visibleCards(ctx, scope.cards.graphDoc, scope.cards.sources, pinned, pageArgs(args)), args);
  },
});

export const thinkPublish = defineCommand({
  name: "think.publish",
  tool: "think_publish",
  title: "Publish a draft",
  description:
    "Copy one of your cards into the shared lane as CARD-PUB-<id> (meta.published_from), idempotently; pin: true pins the copy. The draft stays as it is.",
  kind: "write",
  input: { ...scopeFields, card_id: cardRef, pin: z.boolean().default(false) },
  output: { ...cardOutput, published_from: z.string() },
  handler: (ctx, args) => {
    const scope = thinkScope(ctx, args, "write");
    const row = requireOwnCard(scope.cards, args.card_id);
    requireWritableLane(ctx, row);
    const node = toNode(row);
    const { lane: _lane, ...meta } = node.meta ?? {};
    const id = args.card_id.startsWith("CARD-PUB-") ? args.card_id : `CARD-PUB-${args.card_id}`;
    const card: CardInput = {
      id,
      type: node.type,
      status: node.status ?? "open",
      tags: args.pin
        ? [...node.tags.filter((tag) => !tag.startsWith("step:")), PINNED_TAG]
        : node.tags.filter((tag) => !tag.startsWith("step:")),
      meta: { ...meta, published_from: args.card_id },
    };
    if (node.title !== undefined) card.title = node.title;
    if (node.text !== undefined) card.text = node.text;
    // Publishing a changed draft again replaces the copy whole (updated: true).
    const result = commitCard(scope.cards, { card, supports: [], blocks: [], lane: "shared", onExisting: "replace" });
    return {
      branch: scope.cards.branch.name,
      trace_doc: scope.cards.traceDoc,
      graph_doc: scope.cards.graphDoc,
      ...result,
      published_from: args.card_id,
    };
  },
});

const PIPELINE_STAGES = ["frame", "hypothesis", "test", "evidence", "decision"] as const;
type Stage = (typeof PIPELINE_STAGES)[number];

export const thinkPipeline = defineCommand({
  name: "think.pipeline",
  tool: "think_pipeline",
  aliases: ["think.reasoning.pipeline", "reasoning.pipeline"],
  title: "Write a reasoning pipeline",
  description:
    "Write frame → hypothesis → test → evidence → decision cards in one transaction (any stage may be omitted, at least one given), each linked by `supports` to the previous stage present. status sets stage statuses (keys must be provided stages). note_decision summarizes the decision into the notes doc.",
  kind: "write",
  example: { hypothesis: "The cache serves stale reads", decision: "Invalidate the cache on write" },
  input: {
    ...scopeFields,
    frame: stageText.optional(),
    hypothesis: stageText.optional(),
    test: stageText.optional(),
    evidence: stageText.optional(),
    decision: stageText.optional(),
    status: z.record(z.string(), cardStatus).optional(),
    note_decision: z.boolean().default(false),
    note_title: z.string().min(1).max(MAX_TITLE_CHARS).optional(),
    note_format: z.string().max(32).optional(),
  },
  output: {
    branch: z.string(),
    trace_doc: z.string(),
    graph_doc: z.string(),
    cards: z.array(z.object({ stage: z.string(), card_id: z.string(), inserted: z.boolean(), supports: z.array(z.string()) })),
    note_seq: z.number().optional(),
  },
  handler: (ctx, args) => {
    const stages = PIPELINE_STAGES.filter((stage) => args[stage] !== undefined);
    if (stages.length === 0)
      fail("INVALID_INPUT", "Give at least one stage.", `Pass one or more of: ${PIPELINE_STAGES.join(", ")}.`, {
        fields: [...PIPELINE_STAGES],
      });
    const unknown = Object.keys(args.status ?? {}).filter((key) => !stages.includes(key as Stage));
    if (unknown.length > 0) {
      fail("INVALID_INPUT", `status names stages that are not given: ${unknown.join(", ")}.`, "Give status only for the stages you pass.", {
        fields: unknown,
        stages,
      });
    }
    const scope = thinkScope(ctx, args, "write");
    const written: { stage: string; card_id: string; inserted: boolean; supports: string[] }[] = [];
    let previous: string | undefined;
    for (const stage of stages) {
      const card = parseCard({ type: stage, text: args[stage], status: args.status?.[stage] ?? "open" });
      const supports = previous === undefined ? [] : [previous];
      const result = commitCard(scope.cards, { card, supports, blocks: [], extraTags: scope.stepTag ? [scope.stepTag] : [] });
      written.push({ stage, card_id: result.card_id, inserted: result.inserted, supports });
      previous = result.card_id;
    }
    const base = { branch: scope.cards.branch.name, trace_doc: scope.cards.traceDoc, graph_doc: scope.cards.graphDoc, cards: written };
    if (!args.note_decision || args.decision === undefined) return base;
    const decision = written[written.length - 1] as { card_id: string };
    const note = writeNote(ctx, scope.cards.branch, {
      doc: DEFAULT_DOCS.notes,
      title: args.note_title ?? "Decision",
      format: args.note_format,
      content: args.decision,
      meta: { source: "think_pipeline", card_id: decision.card_id },
    });
    return { ...base, note_seq: note.seq };
  },
});
