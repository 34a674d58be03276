/**
 * Knowledge reads: `recall` (the canon feed: newest first, drafts only when asked), `query` (the latest
 * card per (anchor, key, lane), optionally with its versions, paged), `lint` (findings over the latest
 * cards), and `recallFor`, the recall the next-action engine uses. Order is always the key index's
 * `updated_seq` (newest first), then card id; never wall-clock time.
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { defineCommand } from "../../commands/registry";
import { fail } from "../../shared/errors";
import { MAX_LIST_LIMIT } from "../../shared/limits";
import { anchorProblem, anchorSlugOf } from "../../shared/slugs";
import { lastJournalEvent } from "../../storage/journal";
import { anchorArg } from "../anchors/anchors.schema";
import { pagination, paginationSchema, repairPagination } from "../docs/paging";
import { SHARED_LANE, visibleLanes } from "../graph/lanes";
import { isIsoDate, utcDate } from "./card-format";
import {
  canonicalRows,
  cardsOfRows,
  expandAnchor,
  KB_BRANCH,
  KB_GRAPH_DOC,
  type KnowledgeCard,
  kbReadBranch,
  knowledgeCardSchema,
} from "./knowledge.model";
import { keyHistory, latestKeys } from "./knowledge.store";
import { lintIssueSchema, lintScope } from "./lint-scope";

/** Recall's default and ceiling (the original's 12, 1..50). */
const DEFAULT_RECALL_LIMIT = 12;
const MAX_RECALL_LIMIT = 50;
/** Anchors one recall may name. */
const MAX_RECALL_ANCHORS = 20;
/** Query's default page size (ceiling: MAX_LIST_LIMIT). */
const DEFAULT_QUERY_LIMIT = 20;
/** Versions listed per key with include_history. */
const MAX_HISTORY = 20;
/** Findings listed by default (all are counted in issues_total). */
const DEFAULT_LINT_ISSUES = 100;
/** Rows read beyond a page so that keys stored under an anchor and its old id still fill it once folded. */
const FOLD_SLACK = 10;

/** Newest latest-rows of the given anchors (every anchor when none) in `lanes`, folded and cut to `limit`. */
function recallRows(ctx: CommandContext, slugs: string[] | undefined, lanes: string[] | null, limit: number) {
  const fetched = latestKeys(ctx.db, { anchors: slugs, lanes, limit: limit + 1 + FOLD_SLACK });
  const rows = canonicalRows(ctx, fetched);
  return { rows: rows.slice(0, limit), has_more: rows.length > limit || fetched.length > limit + FOLD_SLACK };
}

/**
 * Canon knowledge (shared lane only) of `anchors` (`a:<slug>` or slugs; aliases resolved; invalid ones
 * ignored; none: every anchor), newest first, at most `limit` cards. For the next-action engine.
 */
export function recallFor(ctx: CommandContext, anchors: string[], limit: number): { cards: KnowledgeCard[]; has_more: boolean } {
  const valid = anchors.map(anchorSlugOf).filter((slug) => anchorProblem(slug) === undefined);
  if (anchors.length > 0 && valid.length === 0) return { cards: [], has_more: false };
  const slugs = valid.length === 0 ? undefined : [...new Set(valid.flatMap((slug) => expandAnchor(ctx, slug, false).slugs))];
  const { rows, has_more } = recallRows(ctx, slugs, [SHARED_LANE], limit);
  return { cards: cardsOfRows(ctx, kbReadBranch(ctx), rows), has_more };
}

const CARDS_BUDGET = {
  lists: ["cards"],
  keep: ["id", "anchor", "key", "version", "title", "lane", "updated_seq"],
  trimFromEnd: true,
};

export const knowledgeRecall = defineCommand({
  name: "think.knowledge.recall",
  tool: "knowledge_recall",
  aliases: ["knowledge.recall"],
  title: "Recall knowledge",
  description: `Recall first: the newest knowledge cards of an anchor (or several, or all), newest first, canon only (drafts with include_drafts: every lane). One card per (anchor, key): its latest version. limit default ${DEFAULT_RECALL_LIMIT}, at most ${MAX_RECALL_LIMIT}.`,
  kind: "read",
  input: {
    anchor: anchorArg.optional(),
    anchors: z.array(anchorArg).max(MAX_RECALL_ANCHORS).optional(),
    limit: z.number().int().min(1).max(MAX_RECALL_LIMIT).default(DEFAULT_RECALL_LIMIT),
    include_drafts: z.boolean().default(false).describe("Also drafts (v:draft) of every agent's lane."),
  },
  output: {
    branch: z.string(),
    graph_doc: z.string(),
    anchors: z.array(z.string()).describe("The anchors recalled (aliases resolved); empty: every anchor."),
    cards: z.array(knowledgeCardSchema),
    has_more: z.boolean(),
    truncated: z.boolean(),
  },
  budget: CARDS_BUDGET,
  handler: (ctx, args) => {
    const named = [...(args.anchor === undefined ? [] : [args.anchor]), ...(args.anchors ?? [])];
    const expanded = named.map((anchor) => expandAnchor(ctx, anchor));
    const slugs = expanded.length === 0 ? undefined : [...new Set(expanded.flatMap((anchor) => anchor.slugs))];
    const { rows, has_more } = recallRows(ctx, slugs, args.include_drafts ? null : [SHARED_LANE], args.limit);
    return {
      branch: KB_BRANCH,
      graph_doc: KB_GRAPH_DOC,
      anchors: [...new Set(expanded.map((anchor) => `a:${anchor.slug}`))],
      cards: cardsOfRows(ctx, kbReadBranch(ctx), rows),
      has_more,
      truncated: false,
    };
  },
});

const historySchema = z.array(z.object({ version: z.number(), card_id: z.string(), seq: z.number(), agent_id: z.string() }));

export const knowledgeQuery = defineCommand({
  name: "think.knowledge.query",
  tool: "knowledge_query",
  aliases: ["knowledge.query", "knowledge_list"],
  title: "Query knowledge",
  description: `The latest card of each (anchor, key) — filtered by anchor and/or key — newest first, in the shared lane and yours (include_drafts: every lane). include_history adds each key's versions (newest first, at most ${MAX_HISTORY}). Page with cursor = next_cursor.`,
  kind: "read",
  input: {
    anchor: anchorArg.optional(),
    key: z.string().min(1).max(80).optional(),
    include_drafts: z.boolean().default(false).describe("Every agent's lane, not only shared + yours."),
    include_history: z.boolean().default(false),
    limit: z.number().int().min(1).max(MAX_LIST_LIMIT).default(DEFAULT_QUERY_LIMIT),
    cursor: z.number().int().positive().optional().describe("next_cursor of the previous page."),
  },
  output: {
    branch: z.string(),
    graph_doc: z.string(),
    cards: z.array(knowledgeCardSchema.extend({ history: historySchema.optional() })),
    pagination: paginationSchema,
    truncated: z.boolean(),
  },
  // The page continues below the updated_seq of its last card: a budget that drops cards moves next_cursor there.
  budget: { ...CARDS_BUDGET, repair: repairPagination("cards", { trimFromEnd: true, seqKey: "updated_seq" }) },
  handler: (ctx, args) => {
    const anchor = args.anchor === undefined ? undefined : expandAnchor(ctx, args.anchor);
    const fetched = latestKeys(ctx.db, {
      anchors: anchor?.slugs,
      key: args.key,
      lanes: visibleLanes(ctx, args.include_drafts),
      before: args.cursor,
      limit: args.limit + 1,
    });
    const page = fetched.slice(0, args.limit);
    const rows = canonicalRows(ctx, page);
    const cards = cardsOfRows(ctx, kbReadBranch(ctx), rows).map((card) => {
      if (!args.include_history) return card;
      const slugs = expandAnchor(ctx, card.anchor, false).slugs;
      const history = keyHistory(ctx.db, slugs, card.key, card.lane, MAX_HISTORY).map(({ version, card_id, seq, agent_id }) => ({
        version,
        card_id,
        seq,
        agent_id,
      }));
      return { ...card, history };
    });
    const hasMore = fetched.length > args.limit;
    const last = page[page.length - 1];
    return {
      branch: KB_BRANCH,
      graph_doc: KB_GRAPH_DOC,
      cards,
      pagination: pagination(args.cursor, hasMore, last?.updated_seq, args.limit, cards.length),
      truncated: false,
    };
  },
});

export const knowledgeLint = defineCommand({
  name: "think.knowledge.lint",
  tool: "knowledge_lint",
  aliases: ["knowledge.lint"],
  title: "Lint knowledge",
  description:
    "Keep the knowledge base from drifting: duplicate content under one anchor (warning) or across anchors, one key overloaded across anchors, and the Expiry line — missing, not a date, or past as_of (warnings). as_of (YYYY-MM-DD) defaults to the UTC date of the workspace's last recorded write, so the same store always gives the same answer; pass today's date to check against the calendar.",
  kind: "read",
  input: {
    anchor: anchorArg.optional(),
    include_drafts: z.boolean().default(false).describe("Every agent's lane, not only shared + yours."),
    as_of: z.string().min(10).max(10).optional().describe("YYYY-MM-DD: cards whose Expiry is before it are expired."),
    limit: z.number().int().min(1).max(MAX_LIST_LIMIT).default(DEFAULT_LINT_ISSUES),
  },
  output: {
    as_of: z.string().nullable(),
    as_of_source: z.enum(["argument", "last_write", "none"]),
    issues: z.array(lintIssueSchema),
    stats: z.object({
      keys_scanned: z.number(),
      has_more: z.boolean(),
      anchors: z.number(),
      keys: z.number(),
      cards_resolved: z.number(),
      issues_total: z.number(),
    }),
    truncated: z.boolean(),
  },
  budget: { lists: ["issues"], keep: ["severity", "code"], trimFromEnd: true },
  handler: (ctx, args) => {
    if (args.as_of !== undefined && !isIsoDate(args.as_of)) {
      fail("INVALID_INPUT", `as_of "${args.as_of}" is not a date written YYYY-MM-DD.`, 'Pass e.g. as_of: "2030-01-31", or omit it.', {
        field: "as_of",
      });
    }
    const last = lastJournalEvent(ctx.db);
    const asOf = args.as_of ?? (last === undefined ? null : utcDate(last.ts_ms));
    const source: "argument" | "last_write" | "none" = args.as_of !== undefined ? "argument" : last === undefined ? "none" : "last_write";
    const anchor = args.anchor === undefined ? undefined : expandAnchor(ctx, args.anchor);
    const { issues, rows, has_more } = lintScope(ctx, { anchors: anchor?.slugs, lanes: visibleLanes(ctx, args.include_drafts) }, asOf);
    return {
      as_of: asOf,
      as_of_source: source,
      issues: issues.slice(0, args.limit),
      stats: {
        keys_scanned: rows.length,
        has_more,
        anchors: new Set(rows.map((row) => row.anchor)).size,
        keys: new Set(rows.map((row) => row.key)).size,
        cards_resolved: rows.length,
        issues_total: issues.length,
      },
      truncated: false,
    };
  },
});
