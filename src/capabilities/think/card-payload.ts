/**
 * A card id is written once (seed 001: "repeating the same `card_id` must be a no-op"; the original
 * BranchMind refused "card_id already exists with a different payload"). Helpers of `commitCard`
 * (cards.ts): what a call's card is compared with, and the refusal of a changed one.
 *
 * The payload is compared with the live card except for what other commands own, which the card keeps
 * unless the call names it: its status when the call gives none (`think_set_status`), the `pinned` tag
 * (`think_pin`), `step:` tags (the server, under a task) and `meta.merged_into` (`think_nominal_merge`).
 * So a repeated call stays a no-op after those commands ran. A changed payload is `ALREADY_EXISTS`,
 * whose actions are the explicit ways to change a card: `think_set_status`, `think_link`, and
 * `think_card` with `revise: true` (a new version, logged in the trace as a revision).
 */
import { fail } from "../../shared/errors";
import { type Suggestion, suggest } from "../../shared/suggestion";
import { PINNED_TAG } from "../anchors/canon";
import { normalizeTags } from "../graph/graph.schema";
import type { VersionFields } from "../graph/graph.store";
import { changedFields } from "../graph/merge";
import type { CardInput } from "./cards.parse";

const STEP_TAG_PREFIX = "step:";
/** Meta keys other commands set on a card. */
const OWNED_META_KEYS = ["merged_into"];
/** think_link actions in one refusal (the rest are counted in details.new_edges). */
const MAX_LINK_ACTIONS = 3;

/** Whether the raw card object gives a status (normalization defaults a missing or blank one to `open`). */
export function statusGivenIn(raw: Record<string, unknown>): boolean {
  return typeof raw.status === "string" && raw.status.trim().length > 0;
}

function isOwnedTag(tag: string): boolean {
  return tag === PINNED_TAG || tag.startsWith(STEP_TAG_PREFIX);
}

/** The card the call asks for, over a live card: the caller's fields, and what other commands own kept from the stored card. */
export function withOwnedFields(node: VersionFields, stored: VersionFields, card: CardInput, statusGiven: boolean): VersionFields {
  const storedMeta = stored.meta ?? {};
  const meta: Record<string, unknown> = { ...node.meta };
  for (const key of OWNED_META_KEYS) if (!(key in card.meta) && key in storedMeta) meta[key] = storedMeta[key];
  return {
    ...node,
    status: statusGiven ? node.status : stored.status,
    tags: normalizeTags([...card.tags, ...(stored.tags ?? []).filter(isOwnedTag)]),
    meta,
  };
}

/** The card's fields that differ, named as a card's (`type`, not `node_type`). */
export function revisedFields(stored: VersionFields, node: VersionFields): string[] {
  return changedFields(stored, node).map((field) => (field === "node_type" ? "type" : field));
}

export interface ChangedCard {
  id: string;
  branch: string;
  graphDoc: string;
  /** Fields of the card that differ from the live one. */
  changed: string[];
  /** Requested edges that are not live yet. */
  newEdges: { rel: string; to: string }[];
  card: CardInput;
  statusGiven: boolean;
  supports: string[];
  blocks: string[];
  /** The caller's scope arguments (target, or branch and docs), so each action lands where the call did. */
  scope: Record<string, unknown>;
}

/** The call as a revision: the same card, edges and scope, with `revise: true`. */
function revisionCall(changed: ChangedCard): Record<string, unknown> {
  const { card } = changed;
  const body: Record<string, unknown> = { id: changed.id, type: card.type };
  if (card.title !== undefined) body.title = card.title;
  if (card.text !== undefined) body.text = card.text;
  if (changed.statusGiven) body.status = card.status;
  if (card.tags.length > 0) body.tags = card.tags;
  if (Object.keys(card.meta).length > 0) body.meta = card.meta;
  return {
    ...changed.scope,
    card: body,
    ...(changed.supports.length > 0 ? { supports: changed.supports } : {}),
    ...(changed.blocks.length > 0 ? { blocks: changed.blocks } : {}),
    revise: true,
  };
}

/** ALREADY_EXISTS for a changed card under a live id, with the calls that change it explicitly. */
export function refuseChangedCard(changed: ChangedCard): never {
  const { id, scope } = changed;
  const actions: Suggestion[] = [];
  if (changed.changed.includes("status")) {
    actions.push(suggest("think_set_status", { ...scope, card_id: id, status: changed.card.status }, "Change only the card's status."));
  }
  for (const edge of changed.newEdges.slice(0, MAX_LINK_ACTIONS)) {
    actions.push(suggest("think_link", { ...scope, from: id, rel: edge.rel, to: edge.to }, "Add only this edge."));
  }
  actions.push(suggest("think_card", revisionCall(changed), "Write this card as a new version of it (a revision)."));
  const what = [...changed.changed, ...(changed.newEdges.length > 0 ? ["edges"] : [])].join(", ");
  fail(
    "ALREADY_EXISTS",
    `Card ${id} already exists with a different payload (${what}) in ${changed.branch}/${changed.graphDoc}.`,
    "A card id is written once: the same payload again is a no-op. Change the card with think_set_status, think_link or think_card with revise: true, or give a new card another id.",
    {
      card_id: id,
      branch: changed.branch,
      graph_doc: changed.graphDoc,
      changed: changed.changed,
      new_edges: changed.newEdges,
    },
    actions,
  );
}
