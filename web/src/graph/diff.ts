/**
 * The branch-vs-branch overlay (`graph.diff` from the compared branch to the shown one): which nodes
 * and edges the shown branch added, changed or deleted relative to the other. Added and changed ones
 * are marked on the canvas; deleted ones are not drawn, so the summary names them. Reads through the
 * reader it is given.
 */
import { edgeId } from "./canvas";
import type { GraphReader } from "./reader";

type Change = "added" | "modified" | "deleted";

type GraphChange =
  | { kind: "node"; id: string; change: Change; last_seq: number }
  | { kind: "edge"; key: { from: string; rel: string; to: string }; change: Change; last_seq: number };

export interface DiffOverlay {
  added: string[];
  modified: string[];
  deleted: string[];
  edgesAdded: string[];
  edgesModified: string[];
  edgesDeleted: number;
  capped: boolean;
}

/** Changes read at most (10 pages): a larger difference is summarised, and graph_diff pages the rest. */
const MAX_CHANGES = 2_000;
const PAGE = 200;

export async function loadDiff(read: GraphReader, target: { from: string; to: string; doc: string }): Promise<DiffOverlay> {
  const overlay: DiffOverlay = { added: [], modified: [], deleted: [], edgesAdded: [], edgesModified: [], edgesDeleted: 0, capped: false };
  let cursor: number | undefined;
  let seen = 0;
  for (;;) {
    const page = await read<{ changes: GraphChange[]; pagination: { has_more: boolean; next_cursor?: number } }>("graph.diff", {
      from: target.from,
      to: target.to,
      doc: target.doc,
      limit: PAGE,
      max_chars: 400_000,
      ...(cursor ? { cursor } : {}),
    });
    for (const change of page.changes) {
      if (change.kind === "node") {
        overlay[change.change].push(change.id);
      } else if (change.change === "deleted") {
        overlay.edgesDeleted++;
      } else {
        (change.change === "added" ? overlay.edgesAdded : overlay.edgesModified).push(edgeId(change.key));
      }
    }
    seen += page.changes.length;
    cursor = page.pagination.next_cursor;
    if (!page.pagination.has_more || cursor === undefined) return overlay;
    if (seen >= MAX_CHANGES) return { ...overlay, capped: true };
  }
}
