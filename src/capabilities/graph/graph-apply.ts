/**
 * Applying graph ops (seed 001 `graph_apply`), one new version per op, in order, inside the caller's
 * transaction: a later op sees what an earlier one wrote, and any failure rolls the whole batch back.
 * Deleting a node tombstones its live edges; an edge needs both endpoints live.
 */
import type { CommandContext } from "../../commands/context";
import { fail } from "../../shared/errors";
import { utf8Bytes } from "../../shared/json";
import { MAX_META_BYTES } from "../../shared/limits";
import type { Branch, Source } from "../branches/branches.store";
import { edgeKey, type GraphOp, isReservedNodeId, normalizeTags } from "./graph.schema";
import { edgesTouching, isLive, lookupVersion, type VersionRow, writeVersion } from "./graph.store";
import { laneOf, laneOfMeta, mayWriteLane, requireWritableLane, SHARED_LANE } from "./lanes";

export interface AppliedCounts {
  nodes_upserted: number;
  nodes_deleted: number;
  edges_upserted: number;
  edges_deleted: number;
}

/** Edges tombstoned per round while deleting a node; rounds repeat until none is left. */
const EDGE_TOMBSTONE_ROUND = 500;

export interface ApplyTarget {
  ctx: CommandContext;
  branch: Branch;
  sources: Source[];
  doc: string;
}

function checkMeta(meta: Record<string, unknown> | undefined, index: number): void {
  if (meta !== undefined && utf8Bytes(JSON.stringify(meta)) > MAX_META_BYTES) {
    fail(
      "PAYLOAD_TOO_LARGE",
      `ops[${index}].meta is larger than ${MAX_META_BYTES} bytes.`,
      "Keep meta small; put long text in a document.",
      {
        op_index: index,
      },
    );
  }
}

function refuseReserved(id: string, index: number): void {
  if (isReservedNodeId(id)) {
    fail(
      "INVALID_INPUT",
      `ops[${index}]: node id "${id}" uses a prefix reserved for the task projection (task:, step:).`,
      "Link to such nodes with edge_upsert; do not write them.",
      {
        op_index: index,
        id,
      },
    );
  }
}

function requireLiveNode(target: ApplyTarget, id: string, index: number, role: string): VersionRow {
  const row = lookupVersion(target.ctx.db, target.sources, target.doc, "node", id);
  if (!isLive(row)) {
    fail(
      "UNKNOWN_ID",
      `ops[${index}]: ${role} node "${id}" does not exist (or is deleted) on this branch.`,
      "Create it with node_upsert first (earlier in the same batch works).",
      {
        op_index: index,
        missing: id,
        role,
      },
    );
  }
  return row;
}

export function applyOp(target: ApplyTarget, op: GraphOp, index: number, counts: AppliedCounts): VersionRow {
  const { ctx, branch, doc } = target;
  switch (op.op) {
    case "node_upsert": {
      refuseReserved(op.id, index);
      checkMeta(op.meta, index);
      const meta = laneChecked(target, op.id, op.meta);
      counts.nodes_upserted++;
      return writeVersion(ctx, branch, doc, {
        kind: "node",
        key: op.id,
        node_type: op.type,
        title: op.title,
        text: op.text,
        status: op.status,
        tags: normalizeTags(op.tags),
        meta,
        deleted: false,
      });
    }
    case "node_delete": {
      refuseReserved(op.id, index);
      const node = requireLiveNode(target, op.id, index, "deleted");
      requireWritableLane(ctx, node);
      tombstoneEdgesOf(target, op.id, counts);
      counts.nodes_deleted++;
      return writeVersion(ctx, branch, doc, { kind: "node", key: op.id, node_type: node.node_type, deleted: true });
    }
    case "edge_upsert": {
      requireWritableLane(ctx, requireLiveNode(target, op.from, index, "from"));
      requireLiveNode(target, op.to, index, "to");
      checkMeta(op.meta, index);
      counts.edges_upserted++;
      return writeVersion(ctx, branch, doc, {
        kind: "edge",
        key: edgeKey(op.from, op.rel, op.to),
        from_id: op.from,
        rel: op.rel,
        to_id: op.to,
        meta: op.meta,
        deleted: false,
      });
    }
    case "edge_delete": {
      const key = edgeKey(op.from, op.rel, op.to);
      const from = lookupVersion(ctx.db, target.sources, doc, "node", op.from);
      if (isLive(from)) requireWritableLane(ctx, from);
      if (!isLive(lookupVersion(ctx.db, target.sources, doc, "edge", key))) {
        fail(
          "UNKNOWN_ID",
          `ops[${index}]: edge ${op.from} -${op.rel}-> ${op.to} does not exist (or is deleted) on this branch.`,
          "Query the node's edges with graph_query.",
          {
            op_index: index,
            missing: key,
          },
        );
      }
      counts.edges_deleted++;
      return writeVersion(ctx, branch, doc, { kind: "edge", key, from_id: op.from, rel: op.rel, to_id: op.to, deleted: true });
    }
  }
}

/**
 * The meta a node_upsert writes, after the lane rules: no writing another agent's node or claiming its
 * lane, and an agent's draft keeps its lane when the new meta does not name one.
 */
function laneChecked(target: ApplyTarget, id: string, meta: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const existing = lookupVersion(target.ctx.db, target.sources, target.doc, "node", id);
  if (isLive(existing)) requireWritableLane(target.ctx, existing);
  if (meta !== undefined && "lane" in meta && !mayWriteLane(target.ctx, laneOfMeta(meta))) {
    fail("FORBIDDEN", `meta.lane "${String(meta.lane)}" is another agent's lane.`, 'Use "shared" or your own lane (agent/<your id>).', {
      id,
      lane: meta.lane,
    });
  }
  const lane = isLive(existing) ? laneOf(existing) : SHARED_LANE;
  if (lane !== SHARED_LANE && (meta === undefined || !("lane" in meta))) return { ...(meta ?? {}), lane };
  return meta;
}

function tombstoneEdgesOf(target: ApplyTarget, nodeId: string, counts: AppliedCounts): void {
  for (;;) {
    const rows = edgesTouching(target.ctx.db, target.sources, target.doc, nodeId, EDGE_TOMBSTONE_ROUND);
    if (rows.length === 0) return;
    for (const edge of rows) {
      writeVersion(target.ctx, target.branch, target.doc, {
        kind: "edge",
        key: edge.key,
        from_id: edge.from_id,
        rel: edge.rel,
        to_id: edge.to_id,
        deleted: true,
      });
      counts.edges_deleted++;
    }
  }
}
