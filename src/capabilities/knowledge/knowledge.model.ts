/**
 * Where knowledge cards live and how they are read out (facts §3.5): graph nodes of type `knowledge`
 * on the server-owned branch `kb/main` (a root branch, created by the first upsert), doc `kb-graph`,
 * with their trace notes in `kb-trace`. Anchors are expanded to their aliases for reads, and every row
 * is shown under its anchor's current id; a key stored under both an anchor and its old id shows once.
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { type Branch, createRootBranch, findBranch, KNOWLEDGE_BRANCH_PREFIX, sourcesOf } from "../../place/branches.store";
import { anchorId } from "../../shared/slugs";
import { aliasesOf, resolveAnchor } from "../anchors/anchors.store";
import { ALIAS_RESOLVED, requireAnchorSlug } from "../anchors/snapshot";
import { cardSchema, toCard } from "../graph/card-shape";
import { isLive, lookupVersion } from "../graph/graph.store";
import { type CardTarget, cardTarget } from "../think/cards";
import type { KeyRow } from "./knowledge.store";

export const KB_BRANCH = `${KNOWLEDGE_BRANCH_PREFIX}main`;
export const KB_GRAPH_DOC = "kb-graph";
export const KB_TRACE_DOC = "kb-trace";
export const KNOWLEDGE_TYPE = "knowledge";
/** The meta key a knowledge card keeps its (anchor, key, version) under. */
export const KNOWLEDGE_META = "knowledge";

/** The knowledge branch for a write: created (as a root branch) by the first upsert. */
export function kbWriteTarget(ctx: CommandContext): CardTarget {
  const branch = findBranch(ctx.db, KB_BRANCH) ?? createRootBranch(ctx, KB_BRANCH);
  return cardTarget(ctx, branch, KB_TRACE_DOC, KB_GRAPH_DOC);
}

/** The knowledge branch for a read; undefined before the first upsert (every read is then empty). */
export function kbReadBranch(ctx: CommandContext): Branch | undefined {
  return findBranch(ctx.db, KB_BRANCH);
}

export interface ExpandedAnchor {
  /** The anchor's current slug (an alias resolved). */
  slug: string;
  /** It and its aliases: every slug its keys may be stored under. */
  slugs: string[];
}

/** An anchor argument resolved and expanded; `warn` reports an alias that was resolved. */
export function expandAnchor(ctx: CommandContext, input: string, warn = true): ExpandedAnchor {
  const resolved = resolveAnchor(ctx.db, requireAnchorSlug(input));
  if (warn && resolved.aliasOf !== undefined) {
    ctx.warn({
      code: ALIAS_RESOLVED,
      message: `a:${resolved.aliasOf} is an alias of a:${resolved.slug}; using a:${resolved.slug}.`,
      recovery: `Use a:${resolved.slug} from now on.`,
    });
  }
  return { slug: resolved.slug, slugs: [resolved.slug, ...aliasesOf(ctx.db, resolved.slug)] };
}

export const knowledgeCardSchema = cardSchema.extend({
  anchor: z.string().describe("a:<slug> (the anchor's current id)."),
  key: z.string(),
  version: z.number().describe("1 for the first card of this (anchor, key, lane), +1 for each new card."),
  updated_seq: z.number().describe("Seq of the write that made it the latest: the order of recall and query."),
  expiry: z.string().optional().describe("The card text's Expiry value, if it has one."),
});
export type KnowledgeCard = z.infer<typeof knowledgeCardSchema>;

/** Rows shown under their anchors' current ids, the newest of each (anchor, key, lane) only. */
export function canonicalRows(ctx: CommandContext, rows: KeyRow[]): KeyRow[] {
  const current = new Map<string, string>();
  const seen = new Set<string>();
  const out: KeyRow[] = [];
  for (const row of rows) {
    let anchor = current.get(row.anchor);
    if (anchor === undefined) {
      anchor = resolveAnchor(ctx.db, row.anchor).slug;
      current.set(row.anchor, anchor);
    }
    const identity = JSON.stringify([anchor, row.key, row.lane]);
    if (seen.has(identity)) continue;
    seen.add(identity);
    out.push({ ...row, anchor });
  }
  return out;
}

/** The cards of key rows (rows whose card is gone from kb/main are skipped). */
export function cardsOfRows(ctx: CommandContext, branch: Branch | undefined, rows: KeyRow[]): KnowledgeCard[] {
  if (branch === undefined) return [];
  const sources = sourcesOf(ctx.db, branch);
  const cards: KnowledgeCard[] = [];
  for (const row of rows) {
    const version = lookupVersion(ctx.db, sources, KB_GRAPH_DOC, "node", row.card_id);
    if (!isLive(version)) continue;
    const { meta, ...card } = toCard(version);
    const { [KNOWLEDGE_META]: _knowledge, ...rest } = meta ?? {};
    cards.push({
      ...card,
      ...(Object.keys(rest).length > 0 ? { meta: rest } : {}),
      anchor: anchorId(row.anchor),
      key: row.key,
      version: row.version,
      updated_seq: row.updated_seq,
      ...(row.expiry === null ? {} : { expiry: row.expiry }),
    });
  }
  return cards;
}
