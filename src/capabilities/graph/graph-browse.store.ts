/**
 * The graph SQL of the browsing reads (`graph_edges`, `graph_node_show`): a node's versions as seen
 * from a branch (its own and its ancestors' up to their cutoffs, newest first, through the key index),
 * and the relation filter of an edge page. Everything else they need comes from `graph.store.ts` and
 * `graph-pages.store.ts`.
 */

import type { Source } from "../../place/branches.store";
import { inViewSql } from "../../place/views.store";
import type { Db } from "../../storage/db";
import { type VersionRow, versionsBySeq } from "./graph.store";
import type { Where } from "./graph-filters.store";

/**
 * A node's versions in a branch's lineage, newest first, below `before` when given: every version a
 * source of the view holds up to its cutoff, superseded ones included (the node's history). Bounded by
 * `limit`; `has_more` says whether older ones remain.
 */
export function nodeHistory(
  db: Db,
  sources: Source[],
  doc: string,
  id: string,
  options: { before?: number | undefined; limit: number },
): { rows: VersionRow[]; has_more: boolean } {
  const seqs = db
    .all<{ seq: number }>(
      `SELECT v.seq FROM graph_versions v INDEXED BY graph_versions_by_key
       WHERE v.doc = ? AND v.kind = 'node' AND v.key = ? AND (${inViewSql("v", sources)})${options.before === undefined ? "" : " AND v.seq < ?"}
       ORDER BY v.seq DESC LIMIT ?`,
      doc,
      id,
      ...(options.before === undefined ? [] : [options.before]),
      options.limit + 1,
    )
    .map((row) => row.seq);
  return { rows: versionsBySeq(db, seqs.slice(0, options.limit)), has_more: seqs.length > options.limit };
}

/** Only edges whose relation is one of `rels` (none given: every relation). */
export function relationWhere(rels: string[] | undefined): Where {
  if (rels === undefined || rels.length === 0) return { sql: "", params: [] };
  return { sql: " AND v.rel IN (SELECT value FROM json_each(?))", params: [JSON.stringify(rels)] };
}
