/**
 * think_query's text search through the graph's trigram index (`graph-text-search.store.ts`): the
 * cards `visibleCards` would show (card types, the lanes the caller may see, the other filters), found
 * from the index instead of a bounded scan, with the same page and next-page rule.
 */
import type { CommandContext } from "../../commands/context";
import type { Source } from "../../place/branches.store";
import { allOf, type NodeFilter } from "../graph/graph-filters.store";
import { textSearchPage } from "../graph/graph-text-search.store";
import { visibleLanes } from "../graph/lanes";
import { CARDS } from "./card-filters";
import { type CardPage, cardPageOf } from "./card-view";

/** One page of the visible cards of `graphDoc` containing `text` (3+ characters: `usesTextIndex`) and matching `filter`. */
export function searchedCards(
  ctx: CommandContext,
  graphDoc: string,
  sources: Source[],
  text: string,
  filter: NodeFilter,
  page: { limit: number; allLanes: boolean; before?: number | undefined },
): CardPage {
  return cardPageOf(
    textSearchPage(ctx.db, graphDoc, sources, {
      text,
      before: page.before,
      limit: page.limit,
      filter: allOf(CARDS, filter),
      lanes: visibleLanes(ctx, page.allLanes),
    }),
  );
}
