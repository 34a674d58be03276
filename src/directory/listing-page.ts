/**
 * The page arguments and pagination of the Directory's listings (`list_projects` by id,
 * `workspace_list` by name). Both page in key order with the same bounds: the cursor is the last key
 * shown, and the Directory answers with the key to continue after (shared/keyed-page.ts).
 */
import { z } from "zod";
import type { KeyedPagination } from "../shared/keyed-page";
import { MAX_WORKSPACE_CHARS } from "../shared/limits";
import type { ListingPageRequest } from "./project-directory";
import { DEFAULT_PROJECT_PAGE, MAX_PROJECT_PAGE } from "./project-limits";

/** The arguments of a listing page: its size and the previous page's next_cursor. */
export const listingPageFields = {
  limit: z.number().int().min(1).max(MAX_PROJECT_PAGE).default(DEFAULT_PROJECT_PAGE),
  cursor: z.string().min(1).max(MAX_WORKSPACE_CHARS).optional().describe("The next_cursor of the previous page."),
};

export interface ListingPageArgs {
  limit: number;
  cursor?: string | undefined;
}

/** The Directory's request for the page `args` asks for, of what `patterns` (the token's) allow. */
export function listingPageRequest(patterns: string[], args: ListingPageArgs): ListingPageRequest {
  return { patterns, ...(args.cursor !== undefined ? { after: args.cursor } : {}), limit: args.limit };
}

/** The answer's pagination for a page of `count` items the Directory returned. */
export function listingPagination(
  args: ListingPageArgs,
  page: { has_more: boolean; next_cursor?: string },
  count: number,
): KeyedPagination {
  return {
    cursor: args.cursor ?? null,
    ...(page.next_cursor !== undefined ? { next_cursor: page.next_cursor } : {}),
    has_more: page.has_more,
    limit: args.limit,
    count,
  };
}
