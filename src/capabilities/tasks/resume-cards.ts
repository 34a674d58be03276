/**
 * Which cards a resume view lists (resume-view.ts): the card pages each view asks for, and how their
 * answers merge into the view's one newest-first list, with step-scoped and pinned cards leading a
 * first page and a cursor that continues where the list stops being fully shown.
 */
import { allOf, type NodeFilter } from "../graph/graph-filters.store";
import { ANY, OPEN, taggedWith } from "../think/card-filters";
import type { CardPage } from "../think/card-view";

/** A card page a view asks for (card-view.ts's `visibleCardPages` reads them together). */
export interface PageRequest {
  filter: NodeFilter;
  limit: number;
  before?: number | undefined;
}

/**
 * The card pages of the view: the newest-first list it admits (or, for the narrow views, the
 * step-scoped one alone), then on a first page the step-scoped and pinned cards that lead it.
 */
export function viewCardRequests(view: string, stepTag: string | undefined, limit: number, cursor: number | undefined): PageRequest[] {
  const archive = view === "explore" || view === "full" ? ANY : OPEN;
  const scopedWhere = stepTag ? allOf(taggedWith(stepTag), archive) : undefined;
  if (view === "focus_only" || view === "compact") return scopedWhere ? [{ filter: scopedWhere, limit, before: cursor }] : [];
  if (cursor !== undefined) return [{ filter: archive, limit, before: cursor }];
  return [{ filter: archive, limit }, ...(scopedWhere ? [{ filter: scopedWhere, limit }] : []), { filter: taggedWith("pinned"), limit }];
}

/**
 * Cards of the view from the pages `viewCardRequests` asked for: step-scoped (and pinned) first, then
 * the rest the view admits, without repeats. With a cursor (a later page), simply the cards the view
 * admits below it, newest first.
 */
export function viewCardsOf(
  view: string,
  stepTag: string | undefined,
  limit: number,
  cursor: number | undefined,
  pages: CardPage[],
): CardPage {
  const [rest, ...leading] = pages;
  if (rest === undefined) return { cards: [] };
  if (view === "focus_only" || view === "compact" || cursor !== undefined) return rest;
  const scoped = stepTag ? (leading[0]?.cards ?? []) : [];
  const pinned = (stepTag ? leading[1] : leading[0])?.cards ?? [];
  const seen = new Set<string>();
  const merged = [...scoped, ...pinned, ...rest.cards].filter((card) => !seen.has(card.id) && seen.add(card.id));
  const shown = merged.slice(0, limit);
  // Continue where the newest-first list stops being fully shown: below its last card shown before
  // its first card left out (cards shown as step-scoped or pinned may come round again).
  const shownIds = new Set(shown.map((card) => card.id));
  const firstLeftOut = rest.cards.findIndex((card) => !shownIds.has(card.id));
  const next =
    firstLeftOut === -1 ? rest.next : firstLeftOut === 0 ? (rest.cards[0]?.last_seq ?? 0) + 1 : rest.cards[firstLeftOut - 1]?.last_seq;
  return next === undefined ? { cards: shown } : { cards: shown, next };
}
