/**
 * Which cards are canon, pure (the original's rule, on this server's lanes): a card in the shared lane
 * that is pinned, tagged `v:canon`, or a decision, evidence or test — unless tagged `v:draft`. Canon
 * cards register the anchors they are tagged with; anchor snapshots list canon first. The rank orders a
 * snapshot: pinned, other `v:canon` cards, decisions, evidence, tests, then everything else.
 */
import { SHARED_LANE } from "../graph/lanes";

export const PINNED_TAG = "pinned";
export const CANON_TAG = "v:canon";
export const DRAFT_TAG = "v:draft";
/** Card types that are canon by themselves, in snapshot order. */
export const CANON_TYPES = ["decision", "evidence", "test"] as const;

export function isCanon(type: string, tags: readonly string[], lane: string): boolean {
  if (lane !== SHARED_LANE || tags.includes(DRAFT_TAG)) return false;
  return tags.includes(PINNED_TAG) || tags.includes(CANON_TAG) || (CANON_TYPES as readonly string[]).includes(type);
}

/** Snapshot rank (smaller first): 0 pinned, 1 v:canon, 2-4 decision/evidence/test, 5 the rest. */
export function canonRank(type: string, tags: readonly string[]): number {
  if (tags.includes(PINNED_TAG)) return 0;
  if (tags.includes(CANON_TAG)) return 1;
  const index = (CANON_TYPES as readonly string[]).indexOf(type);
  return index === -1 ? 2 + CANON_TYPES.length : 2 + index;
}
