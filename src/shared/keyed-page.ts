/**
 * Pages of a list in key order (job ids, record ids, project ids, workspace names): the cursor is the
 * last key shown, and `next_cursor` is set only when more remain. When the read budget drops items from
 * the end of such a page, `keyedPageRepair` moves `next_cursor` to the last item still shown, so no item
 * becomes unreachable; `keyedPageBudget` is the whole budget of such a page. One definition for every
 * command that pages this way.
 */
import { z } from "zod";
import type { BudgetSpec } from "./budget";

type Payload = Record<string, unknown>;

export const keyedPaginationSchema = z.object({
  cursor: z.string().nullable(),
  next_cursor: z.string().optional(),
  has_more: z.boolean(),
  limit: z.number(),
  count: z.number(),
});
export type KeyedPagination = z.infer<typeof keyedPaginationSchema>;

/** The budget's `repair` hook for a keyed page whose items sit in `list` and carry their key in `key`. */
export function keyedPageRepair(list: string, key: string): (payload: Payload, original: Payload) => Payload {
  return (payload, original) => {
    const items = payload[list] as Record<string, unknown>[] | undefined;
    const before = original[list] as unknown[] | undefined;
    const page = payload.pagination as KeyedPagination | undefined;
    if (!items || !before || !page || items.length === before.length) return payload;
    const shown = items[items.length - 1]?.[key];
    const last = typeof shown === "string" ? shown : page.cursor;
    const { next_cursor: _dropped, ...rest } = page;
    return { ...payload, pagination: { ...rest, count: items.length, has_more: true, ...(last ? { next_cursor: last } : {}) } };
  };
}

/**
 * The read budget of a keyed page whose items sit in `list` with their key in `key`: items are cut from
 * the end (the cursor continues there), each keeps `keep` when its body goes, and `next_cursor` is repaired.
 */
export function keyedPageBudget(list: string, key: string, keep: readonly string[] = [key]): BudgetSpec {
  return { lists: [list], keep: [...keep], trimFromEnd: true, repair: keyedPageRepair(list, key) };
}
