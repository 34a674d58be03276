/**
 * A graph node as a card: the shape every card read returns (think slices and packs, resume views,
 * anchor snapshots, knowledge), with no tombstone flag (only live cards are shown) and its lane
 * spelled out. Which cards a caller may see is think's (`think/card-view.ts`). The card types and the
 * closed statuses are here, below think, because the graph's term index (migration 0017,
 * graph-terms.store.ts) is built from them.
 */
import { z } from "zod";
import { nodeSchema } from "./graph.schema";
import { toNode, type VersionRow } from "./graph.store";
import { laneOf } from "./lanes";

/** The node types that are cards. Migration 0017 writes this list into SQL (test/graph-terms.test.ts compares them). */
export const CARD_TYPES = ["frame", "hypothesis", "question", "test", "evidence", "decision", "note", "update"] as const;
export type CardType = (typeof CARD_TYPES)[number];

/** Card statuses that count as closed everywhere (engine, frontier, resume views, strict mode, the term index's `open`). */
export const CLOSED_STATUSES = ["done", "closed", "resolved", "rejected", "canceled", "superseded"] as const;
const CLOSED: ReadonlySet<string> = new Set(CLOSED_STATUSES);

/** A status that closes a card, compared as the term index's `open` filter compares it (exactly); no status is open. */
export function isClosedStatus(status: string | null | undefined): boolean {
  return status !== null && status !== undefined && CLOSED.has(status);
}

/** A graph node as a card: no tombstone flag (only live cards are shown), its lane spelled out. */
export const cardSchema = nodeSchema.omit({ deleted: true }).extend({ lane: z.string() });

export function toCard(row: VersionRow) {
  const node = toNode(row);
  const { lane: _lane, ...meta } = node.meta ?? {};
  return {
    id: node.id,
    type: node.type,
    ...(node.title !== undefined ? { title: node.title } : {}),
    ...(node.text !== undefined ? { text: node.text } : {}),
    ...(node.status !== undefined ? { status: node.status } : {}),
    tags: node.tags,
    lane: laneOf(row),
    ...(Object.keys(meta).length > 0 ? { meta } : {}),
    last_seq: node.last_seq,
    last_ts_ms: node.last_ts_ms,
  };
}

export type Card = ReturnType<typeof toCard>;
