/**
 * Thinking cards (seed 001 Milestone 4.1) on top of the graph and the trace: a card is a graph node
 * (id, type, title, text, status, tags, meta) plus a note in the trace doc that records when it was
 * written, and `supports` / `blocks` edges to other cards. One call writes all of it in the caller's
 * transaction, or nothing when the card and its edges are already in that state (idempotent). A card id
 * is written once: a changed card under a live id is refused, unless the caller revises it explicitly
 * (card-payload.ts); the trace note of a new version says `revision: true`.
 *
 * Lanes (DESIGN §6): a card's lane is fixed when it is created, `shared` (default) or `agent/<id>` (a
 * draft of its author), and kept in `meta.lane`. Nobody writes a card in another agent's lane; reads
 * show the shared lane and the caller's own unless they ask for every lane.
 */
import type { CommandContext } from "../../commands/context";
import { type Branch, type Source, sourcesOf } from "../../place/branches.store";
import { fail } from "../../shared/errors";
import { utf8Bytes } from "../../shared/json";
import { MAX_META_BYTES } from "../../shared/limits";
import { advance } from "../../storage/clocks";
import { linkCardAnchors } from "../anchors/anchor-links.store";
import { requireCardCodeRefs } from "../code-refs/code-refs";
import { appendEntry } from "../docs/docs.store";
import { edgeKey, isReservedNodeId, MAX_NODE_ID_CHARS, normalizeTags } from "../graph/graph.schema";
import { fieldsOf, isLive, lookupVersion, type VersionFields, type VersionRow, writeVersion } from "../graph/graph.store";
import { agentLane, laneOf, requireWritableLane, SHARED_LANE } from "../graph/lanes";
import { sameState } from "../graph/merge";
import { refuseChangedCard, revisedFields, withOwnedFields } from "./card-payload";
import type { CardInput } from "./cards.parse";

export { agentLane, laneOf, requireWritableLane, SHARED_LANE };

/** Auto ids skip ids already taken in the view; this many tries at most before giving up. */
const MAX_AUTO_ID_TRIES = 100;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to reject control characters.
const CARD_ID = /^[^|\x00-\x1f\x7f]+$/;

export type LaneChoice = "shared" | "agent";

export interface CardTarget {
  ctx: CommandContext;
  branch: Branch;
  sources: Source[];
  traceDoc: string;
  graphDoc: string;
}

export function cardTarget(ctx: CommandContext, branch: Branch, traceDoc: string, graphDoc: string): CardTarget {
  return { ctx, branch, sources: sourcesOf(ctx.db, branch), traceDoc, graphDoc };
}

/** A live card of the view, or UNKNOWN_ID naming it. */
export function requireCard(target: CardTarget, id: string, role = "card"): VersionRow {
  const row = lookupVersion(target.ctx.db, target.sources, target.graphDoc, "node", id);
  if (!isLive(row)) {
    fail(
      "UNKNOWN_ID",
      `No ${role} "${id}" in ${target.branch.name}/${target.graphDoc}.`,
      "List cards with `think_query` or `think_context`.",
      {
        id,
        branch: target.branch.name,
        graph_doc: target.graphDoc,
      },
    );
  }
  return row;
}

/**
 * A card the caller may change: a live node of the view that is not part of the task projection
 * (`task:` / `step:`, which only task commands write) and not in another agent's lane.
 */
export function requireOwnCard(target: CardTarget, id: string, role = "card"): VersionRow {
  if (isReservedNodeId(id)) {
    fail("INVALID_INPUT", `${id} belongs to the task projection; task commands write it.`, "Link to it from your own card instead.", {
      id,
    });
  }
  const row = requireCard(target, id, role);
  requireWritableLane(target.ctx, row);
  return row;
}

function checkCardId(id: string): void {
  if (id.length > MAX_NODE_ID_CHARS || !CARD_ID.test(id) || isReservedNodeId(id)) {
    fail(
      "INVALID_INPUT",
      `"${id.slice(0, 80)}" is not a usable card id.`,
      `Use up to ${MAX_NODE_ID_CHARS} characters, no '|' or control characters, not task:/step:.`,
      {
        field: "card.id",
      },
    );
  }
}

function autoId(target: CardTarget): string {
  for (let tries = 0; tries < MAX_AUTO_ID_TRIES; tries++) {
    const id = `CARD-${advance(target.ctx.db, "card")}`;
    if (lookupVersion(target.ctx.db, target.sources, target.graphDoc, "node", id) === undefined) return id;
  }
  fail("CONFLICT", "Could not find a free CARD-<n> id.", "Pass card.id explicitly.", { field: "card.id" });
}

/**
 * What a changed card under a live id does: `refuse` (ALREADY_EXISTS, the default), `revise` (a new
 * version; what other commands own is kept, see card-payload.ts) or `replace` (the card as given, whole:
 * publish's copy, knowledge).
 */
export type OnExisting = "refuse" | "revise" | "replace";

export interface CardWrite {
  card: CardInput;
  supports: string[];
  blocks: string[];
  lane?: LaneChoice | undefined;
  /** Tags the server adds to a new card (e.g. the step tag under a task's step focus). */
  extraTags?: string[];
  onExisting?: OnExisting;
  /** False when the caller left the status to its default: a live card keeps its own. Default true. */
  statusGiven?: boolean;
  /** The caller's scope arguments, for the suggested calls of a refusal (default: branch and docs). */
  scope?: Record<string, unknown>;
}

export interface CardResult {
  card_id: string;
  /** A new card was written. */
  inserted: boolean;
  /** A new version of a live card was written (a revision). */
  updated: boolean;
  lane: string;
  graph_applied: { nodes_upserted: number; edges_upserted: number };
  last_seq?: number;
}

function edgeFields(from: string, rel: string, to: string): VersionFields {
  return { kind: "edge", key: edgeKey(from, rel, to), from_id: from, rel, to_id: to, deleted: false };
}

function requireRevisable(target: CardTarget, write: CardWrite, live: VersionRow | undefined): void {
  if (write.card.id === undefined)
    fail("INVALID_INPUT", "revise needs the id of the card to revise.", "Pass card.id, or drop revise to write a new card.", {
      field: "card.id",
    });
  if (live === undefined)
    fail(
      "UNKNOWN_ID",
      `No card "${write.card.id}" to revise in ${target.branch.name}/${target.graphDoc}.`,
      "Drop revise to write it as a new card.",
      { id: write.card.id, branch: target.branch.name, graph_doc: target.graphDoc },
    );
}

/** Writes a card (node, edges, trace note) unless it is already in that state; see OnExisting for a changed one. */
export function commitCard(target: CardTarget, write: CardWrite): CardResult {
  const { ctx } = target;
  const onExisting = write.onExisting ?? "refuse";
  if (onExisting === "revise" && write.card.id === undefined) requireRevisable(target, write, undefined);
  const id = write.card.id ?? autoId(target);
  checkCardId(id);
  requireCardCodeRefs(ctx, write.card.meta);
  const existing = lookupVersion(ctx.db, target.sources, target.graphDoc, "node", id);
  const live = isLive(existing) ? existing : undefined;
  if (onExisting === "revise") requireRevisable(target, write, live);
  if (live) requireWritableLane(ctx, live);
  const requested = write.lane === undefined ? undefined : write.lane === "agent" ? agentLane(ctx.principal.agent_id) : SHARED_LANE;
  const lane = live ? laneOf(live) : (requested ?? SHARED_LANE);
  if (live && requested !== undefined && requested !== lane) {
    fail(
      "INVALID_INPUT",
      `Card ${id} is in ${lane}; a card's lane is fixed when it is created.`,
      "Drop lane, or publish the card (think_publish) to share a draft.",
      {
        card_id: id,
        lane,
      },
    );
  }
  const meta = { ...write.card.meta, lane };
  if (utf8Bytes(JSON.stringify(meta)) > MAX_META_BYTES) {
    fail("PAYLOAD_TOO_LARGE", `card.meta is larger than ${MAX_META_BYTES} bytes.`, "Keep meta small; put long text in card.text.", {
      card_id: id,
    });
  }
  const given: VersionFields = {
    kind: "node",
    key: id,
    node_type: write.card.type,
    title: write.card.title ?? null,
    text: write.card.text ?? null,
    status: write.card.status,
    tags: normalizeTags([...write.card.tags, ...(live && onExisting !== "replace" ? [] : (write.extraTags ?? []))]),
    meta,
    deleted: false,
  };
  const stored = live ? fieldsOf(live) : undefined;
  const node = stored && onExisting !== "replace" ? withOwnedFields(given, stored, write.card, write.statusGiven ?? true) : given;
  const nodeChanged = !(stored && sameState(stored, node));
  const edges = [...write.supports.map((to) => edgeFields(id, "supports", to)), ...write.blocks.map((to) => edgeFields(id, "blocks", to))];
  const newEdges = edges.filter((edge) => {
    const current = lookupVersion(ctx.db, target.sources, target.graphDoc, "edge", edge.key);
    return !(isLive(current) && sameState(fieldsOf(current), edge));
  });
  if (!nodeChanged && newEdges.length === 0) {
    return { card_id: id, inserted: false, updated: false, lane, graph_applied: { nodes_upserted: 0, edges_upserted: 0 } };
  }
  for (const edge of newEdges) requireCard(target, edge.to_id as string, `card (${edge.rel} target)`);
  const changed = stored && nodeChanged ? revisedFields(stored, node) : [];
  if (stored && onExisting === "refuse") {
    refuseChangedCard({
      id,
      branch: target.branch.name,
      graphDoc: target.graphDoc,
      changed,
      newEdges: newEdges.map((edge) => ({ rel: edge.rel as string, to: edge.to_id as string })),
      card: write.card,
      statusGiven: write.statusGiven ?? true,
      supports: write.supports,
      blocks: write.blocks,
      scope: write.scope ?? { branch: target.branch.name, trace_doc: target.traceDoc, graph_doc: target.graphDoc },
    });
  }
  let last: VersionRow | undefined;
  if (nodeChanged) last = writeVersion(ctx, target.branch, target.graphDoc, node);
  for (const edge of newEdges) last = writeVersion(ctx, target.branch, target.graphDoc, edge);
  const entry = appendEntry(ctx, {
    branch: target.branch,
    doc: target.traceDoc,
    kind: "note",
    title: write.card.title ?? write.card.type,
    content: write.card.text ?? write.card.title ?? "",
    meta: {
      card_id: id,
      card_type: write.card.type,
      status: node.status,
      lane,
      supports: write.supports,
      blocks: write.blocks,
      ...(stored ? { revision: true, revised: [...changed, ...(newEdges.length > 0 ? ["edges"] : [])] } : {}),
    },
  });
  ctx.journal({ target: `${target.branch.name}/${target.graphDoc}`, summary: `card ${id}${stored ? " revised" : ""}` });
  linkCardAnchors(ctx, target.branch.id, target.graphDoc, node, lane);
  return {
    card_id: id,
    inserted: !stored,
    updated: stored !== undefined,
    lane,
    graph_applied: { nodes_upserted: nodeChanged ? 1 : 0, edges_upserted: newEdges.length },
    last_seq: Math.max(entry.seq, last?.seq ?? 0),
  };
}

/**
 * The upsert that knowledge and anchor notes call: a changed card replaces the live one whole, and
 * `inserted` means "something was written" (knowledge-write.ts reads it so). Think commands call commitCard.
 */
export function writeCard(target: CardTarget, write: CardWrite): CardResult {
  const result = commitCard(target, { ...write, onExisting: "replace" });
  return { ...result, inserted: result.inserted || result.updated };
}

/** Rewrites a live card with some fields changed (status, tags), keeping its lane and the rest. */
export function rewriteCard(target: CardTarget, row: VersionRow, change: Partial<VersionFields>): VersionRow | undefined {
  requireWritableLane(target.ctx, row);
  const next: VersionFields = { ...fieldsOf(row), ...change };
  if (sameState(fieldsOf(row), next)) return undefined;
  return writeVersion(target.ctx, target.branch, target.graphDoc, next);
}

/** Adds the edge `from -rel-> to` unless it is live already; true when written. */
export function linkCards(target: CardTarget, from: string, rel: string, to: string): boolean {
  const edge = edgeFields(from, rel, to);
  const current = lookupVersion(target.ctx.db, target.sources, target.graphDoc, "edge", edge.key);
  if (isLive(current) && sameState(fieldsOf(current), edge)) return false;
  writeVersion(target.ctx, target.branch, target.graphDoc, edge);
  target.ctx.journal({ target: `${target.branch.name}/${target.graphDoc}`, summary: `link ${from} ${rel} ${to}` });
  return true;
}
