/**
 * Pages whose cursor sits at the top of the answer, beside the list it pages: `{<list>, has_more,
 * next_cursor}` (log, reflog, tag_list, branch_list, graph_conflicts, get_record_history,
 * get_recent_activity; graph_validate's errors). The page continues after its last item, whatever the order (newest first by seq,
 * by name, by ordinal), so the budget trims such a list from its end and `topPageRepair` moves
 * `next_cursor` to the last item still shown: no dropped item becomes unreachable. Pure.
 */
import type { BudgetSpec } from "./budget";

type Payload = Record<string, unknown>;

/**
 * The budget's `repair` hook for a top-level page whose items sit in `list` and carry their cursor in `key`.
 * `hasMore: false` for an answer that has no `has_more` (graph_validate: its `ok` and `truncated` say it).
 */
export function topPageRepair(list: string, key: string, { hasMore = true } = {}): (payload: Payload, original: Payload) => Payload {
  return (payload, original) => {
    const items = payload[list];
    const before = original[list];
    if (!Array.isArray(items) || !Array.isArray(before) || items.length === before.length) return payload;
    const last = (items[items.length - 1] as Payload | undefined)?.[key];
    const { next_cursor: _dropped, ...rest } = payload;
    // No item shown: no cursor, since the one asked for is the next page's (a cursor past it would skip it).
    const next = typeof last === "string" || typeof last === "number" ? { next_cursor: last } : {};
    return { ...rest, ...(hasMore ? { has_more: true } : {}), ...next };
  };
}

/**
 * The read budget of a top-level page whose items sit in `list` with their cursor in `key`: items are cut
 * from the end (the next page continues there), each keeps `keep` when its body goes, and `next_cursor`
 * is repaired.
 */
export function topPageBudget(list: string, key: string, keep: readonly string[]): BudgetSpec {
  return { lists: [list], keep: [...new Set([key, ...keep])], trimFromEnd: true, repair: topPageRepair(list, key) };
}
