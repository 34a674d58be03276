/**
 * How cards are read out: one page of the cards a caller may see (card types only; the shared lane and
 * the caller's own unless every lane is asked for), newest first (the card's shape: graph/card-shape.ts). Every card list — think slices, packs, resume views, the engine — reads through here, so
 * lane visibility and the next-page rule are decided once.
 */
import type { z } from "zod";
import type { CommandContext } from "../../commands/context";
import type { Source } from "../../place/branches.store";
import { type Card, cardSchema, toCard } from "../graph/card-shape";
import { allOf, type NodeFilter } from "../graph/graph-filters.store";
import { type NodePage, queryPages } from "../graph/graph-terms.store";
import { visibleLanes } from "../graph/lanes";
import { CARDS } from "./card-filters";

export interface CardPage {
  cards: Card[];
  /** Where the next page continues (below this seq); present exactly when more remain. */
  next?: number;
}

/**
 * One page of the visible cards of `graphDoc` that also match `filter`, newest first (limit 0: none):
 * every match, whatever its age (the term index, graph-terms.store.ts).
 */
export function visibleCards(
  ctx: CommandContext,
  graphDoc: string,
  sources: Source[],
  filter: NodeFilter,
  page: { limit: number; allLanes: boolean; before?: number | undefined },
): CardPage {
  return visibleCardPages(ctx, graphDoc, sources, [{ filter, limit: page.limit, before: page.before }], page.allLanes)[0] as CardPage;
}

/** Several card pages of one view (each as `visibleCards` reads it), read together (the term index: graph-terms.store.ts). */
export function visibleCardPages(
  ctx: CommandContext,
  graphDoc: string,
  sources: Source[],
  pages: { filter: NodeFilter; limit: number; before?: number | undefined }[],
  allLanes: boolean,
): CardPage[] {
  const lanes = visibleLanes(ctx, allLanes);
  const asked = pages.filter((page) => page.limit > 0);
  const found = queryPages(
    ctx.db,
    graphDoc,
    sources,
    asked.map((page) => ({ filter: allOf(CARDS, page.filter), lanes, before: page.before, limit: page.limit })),
  );
  let next = 0;
  return pages.map((page) => (page.limit === 0 ? { cards: [] } : cardPageOf(found[next++] as NodePage)));
}

/** A page of nodes as a card page: `next` continues where the page stopped (its bound, or its last card). */
export function cardPageOf(found: NodePage): CardPage {
  const cards = found.rows.map(toCard);
  if (!found.has_more) return { cards };
  // More remain: either the read stopped at its examined bound (continue there) or the page is full.
  const next = found.next_before ?? cards[cards.length - 1]?.last_seq;
  return next === undefined ? { cards } : { cards, next };
}

/**
 * A card list of an answer that also holds `held` (its main card list): a card held there at the same
 * version keeps only what names it (id, type, title, status, lane, last_seq), its body being in the
 * answer already (docs/portals.md "Leaner items").
 */
export const cardMentionSchema = cardSchema.partial({ tags: true, last_ts_ms: true });

export function mentionsOf(cards: Card[], held: Card[]): z.infer<typeof cardMentionSchema>[] {
  const versions = new Map(held.map((card) => [card.id, card.last_seq]));
  return cards.map((card) => {
    if (versions.get(card.id) !== card.last_seq) return card;
    const { text: _text, tags: _tags, meta: _meta, last_ts_ms: _ts, ...named } = card;
    return named;
  });
}

/** Names the trace entries a card write left whose body (title, text, status) a card of `held` shows as is. */
export function cardEntryHeldBy(
  held: Card[],
): (entry: { title?: string | undefined; content: string; meta?: Record<string, unknown> | undefined }) => string | undefined {
  const bodies = new Map(held.map((card) => [card.id, card]));
  return (entry) => {
    const id = entry.meta?.card_id;
    const card = typeof id === "string" ? bodies.get(id) : undefined;
    if (card === undefined || card.title !== entry.title || (card.text ?? "") !== entry.content) return undefined;
    if (entry.meta?.status !== undefined && entry.meta.status !== card.status) return undefined;
    return "card_id";
  };
}
