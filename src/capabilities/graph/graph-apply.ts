/**
 * Applying graph ops (seed 001 `graph_apply`), one new version per op, in order, inside the caller's
 * transaction: a later op sees what an earlier one wrote, and any failure rolls the whole batch back.
 * Deleting a node tombstones its live edges; an edge needs both endpoints live.
 *
 * A batch costs a few statements whatever its size: the effective versions of every key the ops
 * name are read in one statement up front, each write updates that picture in memory, and the new
 * versions are stored together at the end (`VersionBatch`). Only a node delete reads the database in
 * between (the node's edges), after storing what the batch wrote so far.
 */
import type { CommandContext } from "../../commands/context";
import type { Branch, Source } from "../../place/branches.store";
import { fail } from "../../shared/errors";
import { utf8Bytes } from "../../shared/json";
import { MAX_META_BYTES } from "../../shared/limits";
import { edgeKey, type GraphOp, isReservedNodeId, normalizeTags } from "./graph.schema";
import {
  type GraphKind,
  isLive,
  lookupVersion,
  lookupVersions,
  VersionBatch,
  type VersionFields,
  type VersionRow,
  versionKey,
} from "./graph.store";
import { edgesTouching } from "./graph-edges.store";
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

/** One batch in progress: the versions it wrote, and the effective version of every key it has looked at. */
interface BatchState {
  target: ApplyTarget;
  versions: VersionBatch;
  effective: Map<string, VersionRow | undefined>;
}

/** The effective version of a key as the batch sees it: its own writes first, then the view. */
function effectiveOf(state: BatchState, kind: GraphKind, key: string): VersionRow | undefined {
  const id = versionKey(kind, key);
  if (state.effective.has(id)) return state.effective.get(id);
  const { ctx, sources, doc } = state.target;
  const row = lookupVersion(ctx.db, sources, doc, kind, key);
  state.effective.set(id, row);
  return row;
}

function write(state: BatchState, fields: VersionFields): VersionRow {
  const row = state.versions.add(fields);
  state.effective.set(versionKey(fields.kind, fields.key), row);
  return row;
}

/** Every key an op looks up, so one statement can read them all before the batch starts. */
function keysOf(op: GraphOp): { kind: GraphKind; key: string }[] {
  switch (op.op) {
    case "node_upsert":
    case "node_delete":
      return [{ kind: "node", key: op.id }];
    case "edge_upsert":
      return [
        { kind: "node", key: op.from },
        { kind: "node", key: op.to },
      ];
    case "edge_delete":
      return [
        { kind: "node", key: op.from },
        { kind: "edge", key: edgeKey(op.from, op.rel, op.to) },
      ];
  }
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

function requireLiveNode(state: BatchState, id: string, index: number, role: string): VersionRow {
  const row = effectiveOf(state, "node", id);
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

/**
 * Applies `ops` in order as one batch and returns the version each op wrote (seqs assigned). `firstIndex`
 * is the index of the first op in what the caller received, for error messages (`ops[<index>]`).
 */
export function applyOps(target: ApplyTarget, ops: GraphOp[], counts: AppliedCounts, firstIndex = 0): VersionRow[] {
  const { ctx, sources, doc, branch } = target;
  const state: BatchState = {
    target,
    versions: new VersionBatch(ctx, branch, doc),
    effective: lookupVersions(ctx.db, sources, doc, ops.flatMap(keysOf)),
  };
  const written = ops.map((op, offset) => applyOne(state, op, firstIndex + offset, counts));
  state.versions.flush();
  return written;
}

/** One op as a batch of its own (the bulk import applies its graph items op by op). */
export function applyOp(target: ApplyTarget, op: GraphOp, index: number, counts: AppliedCounts): VersionRow {
  return applyOps(target, [op], counts, index)[0] as VersionRow;
}

function applyOne(state: BatchState, op: GraphOp, index: number, counts: AppliedCounts): VersionRow {
  const { ctx } = state.target;
  switch (op.op) {
    case "node_upsert": {
      refuseReserved(op.id, index);
      checkMeta(op.meta, index);
      const meta = laneChecked(state, op.id, op.meta);
      counts.nodes_upserted++;
      return write(state, {
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
      const node = requireLiveNode(state, op.id, index, "deleted");
      requireWritableLane(ctx, node);
      tombstoneEdgesOf(state, op.id, counts);
      counts.nodes_deleted++;
      return write(state, { kind: "node", key: op.id, node_type: node.node_type, deleted: true });
    }
    case "edge_upsert": {
      requireWritableLane(ctx, requireLiveNode(state, op.from, index, "from"));
      requireLiveNode(state, op.to, index, "to");
      checkMeta(op.meta, index);
      counts.edges_upserted++;
      return write(state, {
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
      const from = effectiveOf(state, "node", op.from);
      if (isLive(from)) requireWritableLane(ctx, from);
      if (!isLive(effectiveOf(state, "edge", key))) {
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
      return write(state, { kind: "edge", key, from_id: op.from, rel: op.rel, to_id: op.to, deleted: true });
    }
  }
}

/**
 * The meta a node_upsert writes, after the lane rules: no writing another agent's node or claiming its
 * lane, and an agent's draft keeps its lane when the new meta does not name one.
 */
function laneChecked(state: BatchState, id: string, meta: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const { ctx } = state.target;
  const existing = effectiveOf(state, "node", id);
  if (isLive(existing)) requireWritableLane(ctx, existing);
  if (meta !== undefined && "lane" in meta && !mayWriteLane(ctx, laneOfMeta(meta))) {
    fail("FORBIDDEN", `meta.lane "${String(meta.lane)}" is another agent's lane.`, 'Use "shared" or your own lane (agent/<your id>).', {
      id,
      lane: meta.lane,
    });
  }
  const lane = isLive(existing) ? laneOf(existing) : SHARED_LANE;
  if (lane !== SHARED_LANE && (meta === undefined || !("lane" in meta))) return { ...(meta ?? {}), lane };
  return meta;
}

/** Tombstones the node's live edges, reading them from the database after storing the batch so far. */
function tombstoneEdgesOf(state: BatchState, nodeId: string, counts: AppliedCounts): void {
  const { ctx, sources, doc } = state.target;
  for (;;) {
    state.versions.flush();
    const rows = edgesTouching(ctx.db, sources, doc, nodeId, EDGE_TOMBSTONE_ROUND);
    if (rows.length === 0) return;
    for (const edge of rows) {
      write(state, {
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
