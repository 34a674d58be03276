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

/** A card page read earlier in the call, with the limit it was read with and the rows the call had written then. */
interface KeptPage {
  written: number;
  limit: number;
  page: CardPage;
}

/** The page of `kept` a smaller (or equal) limit reads: its first cards, continuing after the last one kept. */
function prefixOf(kept: KeptPage, limit: number): CardPage {
  // A copy of the list: a reader may reorder its page, never another reader's.
  if (kept.page.cards.length <= limit) return { ...kept.page, cards: kept.page.cards.slice() };
  const cards = kept.page.cards.slice(0, limit);
  const last = cards[cards.length - 1];
  return last === undefined ? { cards } : { cards, next: last.last_seq };
}

/**
 * Several card pages of one view (each as `visibleCards` reads it), read together (the term index:
 * graph-terms.store.ts). A call keeps what it read (`ctx.memo`, while it writes nothing): a page asked
 * again, or with a smaller limit, is answered from it, so a view and the engine's slice of the same
 * scope (a pack, a resume view) do not read their common pages twice.
 */
export function visibleCardPages(
  ctx: CommandContext,
  graphDoc: string,
  sources: Source[],
  pages: { filter: NodeFilter; limit: number; before?: number | undefined }[],
  allLanes: boolean,
): CardPage[] {
  const lanes = visibleLanes(ctx, allLanes);
  const written = ctx.db.rowsWritten;
  const scope = JSON.stringify([graphDoc, sources, lanes]);
  const keys = pages.map((page) => `cards:${scope}:${JSON.stringify([page.filter, page.before ?? null])}`);
  const keptOf = (index: number): KeptPage | undefined => {
    const kept = ctx.memo.get(keys[index] as string) as KeptPage | undefined;
    const limit = pages[index]?.limit ?? 0;
    return kept !== undefined && kept.written === written && (limit <= kept.limit || kept.page.next === undefined) ? kept : undefined;
  };
  const asked = pages.flatMap((page, index) => (page.limit > 0 && keptOf(index) === undefined ? [index] : []));
  const found = queryPages(
    ctx.db,
    graphDoc,
    sources,
    asked.map((index) => {
      const page = pages[index] as (typeof pages)[number];
      return { filter: allOf(CARDS, page.filter), lanes, before: page.before, limit: page.limit };
    }),
  );
  for (const [position, index] of asked.entries()) {
    const limit = pages[index]?.limit ?? 0;
    ctx.memo.set(keys[index] as string, { written, limit, page: cardPageOf(found[position] as NodePage) } satisfies KeptPage);
  }
  return pages.map((page, index) => {
    if (page.limit === 0) return { cards: [] };
    return prefixOf(keptOf(index) as KeptPage, page.limit);
  });
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
