/**
 * The newest entries of a document as a page (oldest first, with a cursor back to older ones), and the
 * content cap every read of entries uses: shared by `show` and by the views of other capabilities that
 * show a document's tail (resume views, packs, the engine's slice), which must not depend on commands.
 */
import type { CommandContext } from "../../commands/context";
import { type Branch, type Source, sourcesOf } from "../../place/branches.store";
import { agentLane } from "../../shared/lanes";
import { namer, toEntry, viewPage } from "./docs.store";
import { tailPagination } from "./paging";

/** Reads load at most budget + 1 characters of content (see PageWindow.contentChars). */
export function contentCap(ctx: CommandContext): number | undefined {
  return ctx.readLimitChars === undefined ? undefined : ctx.readLimitChars + 1;
}

/** The lane a read keeps besides the shared one: the caller's, unless every lane is asked for (undefined). */
export function readerLane(ctx: CommandContext, allLanes: boolean): string | undefined {
  return allLanes ? undefined : agentLane(ctx.principal.agent_id);
}

/**
 * `sources`: the branch's sources when the caller has them already (they are read otherwise). Other
 * agents' drafts (entries a card write left in their lane) stay out unless `allLanes`.
 */
export function readTail(
  ctx: CommandContext,
  branch: Branch,
  doc: string,
  cursor: number | undefined,
  limit: number,
  sources: Source[] = sourcesOf(ctx.db, branch),
  allLanes = false,
) {
  const page = viewPage(ctx.db, sources, doc, {
    before: cursor,
    limit,
    order: "newest",
    contentChars: contentCap(ctx),
    lane: readerLane(ctx, allLanes),
  });
  const name = namer(ctx.db, sources);
  const entries = page.rows.reverse().map((row) => toEntry(row, name(row.branch_id)));
  return {
    entries,
    pagination: tailPagination(
      entries.map((entry) => entry.seq),
      page.has_more,
      cursor,
      limit,
    ),
  };
}
