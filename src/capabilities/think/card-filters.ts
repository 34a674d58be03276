/**
 * The filters card reads share: by type, open (not a closed status), blockers (cards marked blocked,
 * and questions still open), by tag, newer than a seq. Each is a graph `NodeFilter`, so the term index
 * serves it (graph-filters.store.ts); combine them with its `allOf`.
 */
import { ANY_NODE, type NodeFilter } from "../graph/graph-filters.store";

export const ANY: NodeFilter = ANY_NODE;

/** Cards only: what every card read adds (card-view.ts). */
export const CARDS: NodeFilter = { conditions: [{ kind: "cards" }] };

export function ofType(type: string): NodeFilter {
  return { conditions: [{ kind: "types", values: [type] }] };
}

/** Not closed: the cold archive leaves closed cards out. */
export const OPEN: NodeFilter = { conditions: [{ kind: "open" }] };

/** Cards marked blocked, and questions still open. */
export const BLOCKERS: NodeFilter = { conditions: [{ kind: "blockers" }] };

/** Cards carrying `tag` (a normalized tag: lower case). */
export function taggedWith(tag: string): NodeFilter {
  return { conditions: [{ kind: "tags_any", values: [tag.toLowerCase()] }] };
}

export function newerThan(seq: number): NodeFilter {
  return { conditions: [], after: seq };
}
