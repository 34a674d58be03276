/**
 * Tail pagination by seq (seed 001 `show`): a page holds the newest `limit` entries below `cursor`,
 * returned oldest-first; `next_cursor` is the oldest seq returned and is set only when more remain.
 * If the budget drops the oldest entries of a page, `repairPagination` points `next_cursor` at the
 * oldest entry still shown, so nothing becomes unreachable.
 */
import { z } from "zod";
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from "../../shared/limits";

export const cursorSchema = z.number().int().positive().optional().describe("Read entries with seq below this (from next_cursor).");
export const limitSchema = z
  .number()
  .int()
  .min(1)
  .max(MAX_PAGE_LIMIT)
  .default(DEFAULT_PAGE_LIMIT)
  .describe(`Entries per page (1-${MAX_PAGE_LIMIT}).`);

export const paginationSchema = z.object({
  cursor: z.number().nullable(),
  next_cursor: z.number().optional(),
  has_more: z.boolean(),
  limit: z.number(),
  count: z.number(),
});
export type Pagination = z.infer<typeof paginationSchema>;

/** One page of a merge (notes, graph): where it continues, how many it examines, whether it only counts. */
export interface MergePage {
  cursor?: number | undefined;
  limit: number;
  dry_run: boolean;
}

/** A page's pagination: `next_cursor` (where the next page starts) is set only when more remain. */
export function pagination(
  cursor: number | undefined,
  hasMore: boolean,
  next: number | undefined,
  limit: number,
  count: number,
): Pagination {
  const page: Pagination = { cursor: cursor ?? null, has_more: hasMore, limit, count };
  if (hasMore && next !== undefined) page.next_cursor = next;
  return page;
}

/** Tail pages (returned oldest-first) continue below their oldest seq. */
export function tailPagination(seqsAscending: number[], hasMore: boolean, cursor: number | undefined, limit: number): Pagination {
  return pagination(cursor, hasMore, seqsAscending[0], limit, seqsAscending.length);
}

/**
 * Budget hook: after items were dropped, continue the next page from the edge item shown: the first
 * one when the list was trimmed from its start, the last one when it was trimmed from its end
 * (`trimFromEnd`, as in the command's BudgetSpec); `seqKey` names its seq.
 */
export function repairPagination(listKey: string, options: { trimFromEnd?: boolean; seqKey?: string } = {}) {
  const paginationKey = "pagination";
  const seqKey = options.seqKey ?? "seq";
  return (payload: Record<string, unknown>, original: Record<string, unknown>): Record<string, unknown> => {
    const list = payload[listKey];
    const originalList = original[listKey];
    const pagination = payload[paginationKey] as Pagination | undefined;
    if (!Array.isArray(list) || !Array.isArray(originalList) || !pagination || list.length === originalList.length) return payload;
    const oldest = (options.trimFromEnd ? list[list.length - 1] : list[0]) as Record<string, unknown> | undefined;
    const repaired: Pagination = { ...pagination, count: list.length, has_more: true };
    if (typeof oldest?.[seqKey] === "number") repaired.next_cursor = oldest[seqKey] as number;
    else if (pagination.cursor !== null) repaired.next_cursor = pagination.cursor;
    return { ...payload, [paginationKey]: repaired };
  };
}
