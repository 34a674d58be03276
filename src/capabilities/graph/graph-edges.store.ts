/**
 * The edges of nodes in the effective view of a branch (edges between a set of nodes, edges touching
 * one node) and the number of live keys of a kind. Edges are found through the endpoint indexes and
 * graph_heads, so their cost follows a node's edges, not the graph's size; each row is kept only by
 * the source that sees it (graph-pages.store.ts says how a source contributes versions).
 *
 * Statements are few and stable: a Durable Object pays a fixed cost per statement. Bound values
 * compared with `=` are written `= +?` (see `limitSql` in seq-scans.ts for why).
 */

import type { Source } from "../../place/branches.store";
import { branchLiteral, inViewSql } from "../../place/views.store";
import type { Db, SqlValue } from "../../storage/db";
import { limitSql } from "../../storage/seq-scans";
import { type GraphKind, QUALIFIED_COLUMNS, type VersionRow, versionsBySeq } from "./graph.store";
import type { Where } from "./graph-filters.store";
import { asOfSql, notShadowedSql, scansOf } from "./graph-pages.store";

/**
 * Live effective edges matching `where`, newest first, in one statement over every source: the index
 * on an endpoint finds the few versions of those edges across branches, and each row is kept only by
 * the source that sees it (as of its cutoff, not shadowed by a nearer source).
 */
function effectiveEdges(
  db: Db,
  sources: Source[],
  doc: string,
  where: Where,
  index: "graph_edges_by_from" | "graph_edges_by_to",
  limit: number,
) {
  const bySource = scansOf(sources)
    .map(({ source, nearer }) => `(v.branch_id = ${branchLiteral(source.branch_id)}${asOfSql(source)}${notShadowedSql(nearer)})`)
    .join(" OR ");
  const seqs = db
    .all<{ seq: number }>(
      `SELECT v.seq FROM graph_versions v INDEXED BY ${index} WHERE v.doc = +? AND v.kind = 'edge' AND v.deleted = 0${where.sql} AND (${bySource})
       ORDER BY v.seq DESC${limitSql(limit + 1)}`,
      doc,
      ...where.params,
    )
    .map((row) => row.seq);
  return { rows: versionsBySeq(db, seqs.slice(0, limit)), has_more: seqs.length > limit };
}

/**
 * Live edges between nodes of `nodeIds`, newest first. The edges leaving a node are the keys with the
 * prefix `<id>|` (edge keys are `from|rel|to`, and ids and rels cannot hold `|`), listed from
 * graph_heads, which has one row per branch and key however many versions the edge has; the keys whose
 * target is in the set then resolve to their effective versions through the key index. So the cost
 * follows the number of edges of the page's nodes, not their versions or the graph's size.
 */
export function edgesBetween(
  db: Db,
  sources: Source[],
  doc: string,
  nodeIds: string[],
  limit: number,
): { rows: VersionRow[]; has_more: boolean } {
  const rows = db.all<VersionRow & Record<string, SqlValue>>(
    `WITH ids (id) AS (SELECT value FROM json_each(?)),
       edge_keys (key) AS (
         SELECT DISTINCT h.key FROM ids CROSS JOIN graph_heads h INDEXED BY graph_heads_by_key
           ON h.doc = +? AND h.kind = 'edge' AND h.key > ids.id || '|' AND h.key < ids.id || '}'
         WHERE (${inViewSql("h", sources, "first_seq")})
           AND ${edgeTargetSql("h.key", "ids.id")} IN (SELECT id FROM ids)
       ),
       effective (seq) AS (
         SELECT (SELECT v.seq FROM graph_versions v INDEXED BY graph_versions_by_key
                 WHERE v.doc = +? AND v.kind = 'edge' AND v.key = edge_keys.key AND (${inViewSql("v", sources)})
                 ORDER BY v.seq DESC LIMIT 1)
         FROM edge_keys
       )
       SELECT ${QUALIFIED_COLUMNS} FROM effective e JOIN graph_versions v ON v.seq = e.seq WHERE v.deleted = 0 ORDER BY v.seq DESC${limitSql(limit + 1)}`,
    JSON.stringify(nodeIds),
    doc,
    doc,
  );
  return { rows: rows.slice(0, limit), has_more: rows.length > limit };
}

/** The `to` part of an edge key `from|rel|to` whose `from` is `fromSql` (the text after the second `|`). */
function edgeTargetSql(keySql: string, fromSql: string): string {
  const rest = `substr(${keySql}, length(${fromSql}) + 2)`;
  return `substr(${rest}, instr(${rest}, '|') + 1)`;
}

/** Live edges that start or end at `nodeId` (at most `limit` of each). */
export function edgesTouching(db: Db, sources: Source[], doc: string, nodeId: string, limit: number): VersionRow[] {
  const outgoing = effectiveEdges(db, sources, doc, { sql: " AND v.from_id = +?", params: [nodeId] }, "graph_edges_by_from", limit);
  const incoming = effectiveEdges(db, sources, doc, { sql: " AND v.to_id = +?", params: [nodeId] }, "graph_edges_by_to", limit);
  const byKey = new Map([...outgoing.rows, ...incoming.rows].map((row) => [row.key, row]));
  return [...byKey.values()];
}

/**
 * The other ends of the live edges at each of `nodeIds`, as `edgesTouching` finds them node by node
 * (each node's newest `perNode` edges leaving it, then its newest `perNode` arriving, newest first),
 * in two statements for the whole set: a person's view of many cards asks for their neighbours at once.
 * Only the ends are read, not the versions.
 */
export function edgeEndsAround(db: Db, sources: Source[], doc: string, nodeIds: string[], perNode: number): Map<string, string[]> {
  const ends = new Map<string, string[]>(nodeIds.map((id) => [id, []]));
  if (nodeIds.length === 0) return ends;
  const bySource = scansOf(sources)
    .map(({ source, nearer }) => `(v.branch_id = ${branchLiteral(source.branch_id)}${asOfSql(source)}${notShadowedSql(nearer)})`)
    .join(" OR ");
  // Per node, the same seek edgesTouching makes (the endpoint index, newest first, at most perNode), as a
  // correlated subquery: a hub's further edges are never read.
  const direction = (at: "from_id" | "to_id", other: "from_id" | "to_id", index: "graph_edges_by_from" | "graph_edges_by_to") =>
    db.all<{ node: string; other: string }>(
      `SELECT ids.value AS node, e.${other} AS other FROM json_each(?) ids, graph_versions e
       WHERE e.seq IN (
         SELECT v.seq FROM graph_versions v INDEXED BY ${index}
         WHERE v.doc = +? AND v.kind = 'edge' AND v.deleted = 0 AND v.${at} = ids.value AND (${bySource})
         ORDER BY v.seq DESC${limitSql(perNode)})
       ORDER BY ids.key, e.seq DESC`,
      JSON.stringify([...ends.keys()]),
      doc,
    );
  for (const row of [...direction("from_id", "to_id", "graph_edges_by_from"), ...direction("to_id", "from_id", "graph_edges_by_to")]) {
    ends.get(row.node)?.push(row.other);
  }
  return ends;
}

/** Number of live effective keys of a kind (validate's stats). */
export function countLive(db: Db, sources: Source[], doc: string, kind: GraphKind): number {
  let total = 0;
  for (const { source, nearer } of scansOf(sources)) {
    total +=
      db.one<{ n: number }>(
        `SELECT COUNT(*) AS n FROM graph_versions v WHERE v.branch_id = +? AND v.doc = +? AND v.kind = +?${asOfSql(source)} AND v.deleted = 0${notShadowedSql(nearer)}`,
        source.branch_id,
        doc,
        kind,
      )?.n ?? 0;
  }
  return total;
}
