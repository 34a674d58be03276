/**
 * `graph_diff from to`: the node and edge states of `to` that differ from `from` (tombstones included;
 * a key `to` never had is not a change). A key can differ because either side changed it after the
 * views parted, so candidates come from both sides' unshared ranges (ranges both views share hold the
 * same versions). Candidate scans are capped; a diff larger than the cap says so (`truncated`).
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { requireBranch, type Source, sourcesOf } from "../../place/branches.store";
import { unsharedRanges } from "../../place/views.store";
import { pagination } from "../docs/paging";
import { edgeSchema, nodeSchema } from "./graph.schema";
import { fieldsOf, type GraphKind, lookupVersion, toEdge, toNode, type VersionRow } from "./graph.store";
import { effectivePage, type SourceScan } from "./graph-pages.store";
import { changedFields, type KeyState } from "./merge";

/** Versions examined per side and kind: a diff beyond this is reported as truncated. */
const DIFF_SCAN_CAP = 5_000;

export const graphChangeSchema = z.union([
  z.object({
    kind: z.literal("node"),
    id: z.string(),
    change: z.enum(["added", "modified", "deleted"]),
    last_seq: z.number(),
    to: nodeSchema,
  }),
  z.object({
    kind: z.literal("edge"),
    key: z.object({ from: z.string(), rel: z.string(), to: z.string() }),
    change: z.enum(["added", "modified", "deleted"]),
    last_seq: z.number(),
    to: edgeSchema,
  }),
]);
type GraphChange = z.infer<typeof graphChangeSchema>;

/** Scans of `of`'s sources over the ranges `other` does not share. */
function unsharedScans(of: Source[], other: Source[]): SourceScan[] {
  return unsharedRanges(of, other).map(({ source, index, lower }) => ({ source, nearer: of.slice(0, index), lower }));
}

function state(row: VersionRow | undefined): KeyState | undefined {
  return row === undefined ? undefined : fieldsOf(row);
}

export function diffChanges(ctx: CommandContext, fromName: string, toName: string, doc: string, cursor: number | undefined, limit: number) {
  const from = requireBranch(ctx.db, fromName);
  const to = requireBranch(ctx.db, toName);
  const fromSources = sourcesOf(ctx.db, from);
  const toSources = sourcesOf(ctx.db, to);
  const changes: GraphChange[] = [];
  let capped = false;
  for (const kind of ["node", "edge"] as GraphKind[]) {
    const candidates = new Map<string, VersionRow | undefined>();
    const toSide = effectivePage(ctx.db, doc, kind, unsharedScans(toSources, fromSources), {
      limit: DIFF_SCAN_CAP,
      order: "newest",
      liveOnly: false,
    });
    const fromSide = effectivePage(ctx.db, doc, kind, unsharedScans(fromSources, toSources), {
      limit: DIFF_SCAN_CAP,
      order: "newest",
      liveOnly: false,
    });
    capped ||= toSide.has_more || fromSide.has_more;
    for (const row of toSide.rows) candidates.set(row.key, row);
    for (const row of fromSide.rows)
      if (!candidates.has(row.key)) candidates.set(row.key, lookupVersion(ctx.db, toSources, doc, kind, row.key));
    for (const [key, toRow] of candidates) {
      if (toRow === undefined || (cursor !== undefined && toRow.seq >= cursor)) continue;
      const fromRow = lookupVersion(ctx.db, fromSources, doc, kind, key);
      const fields = changedFields(state(toRow), state(fromRow));
      const toDeleted = toRow.deleted === 1;
      const fromLive = fromRow !== undefined && fromRow.deleted === 0;
      if (fields.length === 0) continue;
      const change = toDeleted ? "deleted" : fromLive ? "modified" : "added";
      changes.push(
        kind === "node"
          ? { kind: "node", id: key, change, last_seq: toRow.seq, to: toNode(toRow) }
          : {
              kind: "edge",
              key: { from: toRow.from_id ?? "", rel: toRow.rel ?? "", to: toRow.to_id ?? "" },
              change,
              last_seq: toRow.seq,
              to: toEdge(toRow),
            },
      );
    }
  }
  changes.sort((a, b) => b.last_seq - a.last_seq);
  const page = changes.slice(0, limit);
  const hasMore = changes.length > limit;
  const last = page[page.length - 1];
  if (capped) {
    ctx.warn({
      code: "DIFF_TRUNCATED",
      message: `The branches differ in more than ${DIFF_SCAN_CAP} versions of one kind; only the newest were compared.`,
      recovery: "Merge or narrow the branches first; graph_merge pages through all changes of `from`.",
    });
  }
  return {
    from: from.name,
    to: to.name,
    changes: page,
    pagination: pagination(cursor, hasMore, last?.last_seq, limit, page.length),
  };
}
