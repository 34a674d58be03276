/**
 * The 3-way merge decision for one key (seed 001 "Conflicts & merge back"), pure: no I/O, no clock.
 * States are compared semantically: an absent key equals a tombstone, and merge bookkeeping in meta
 * (`_merge`, `_meta`, `_meta_raw`) is ignored.
 */
import { canonicalJson } from "../../shared/json";

export interface KeyState {
  node_type?: string | null;
  title?: string | null;
  text?: string | null;
  status?: string | null;
  tags?: string[] | null;
  from_id?: string | null;
  rel?: string | null;
  to_id?: string | null;
  meta?: Record<string, unknown> | null;
  deleted: boolean;
}

export type MergeDecision = "same_as_base" | "same_as_ours" | "apply" | "conflict";

const IGNORED_META_KEYS = new Set(["_merge", "_meta", "_meta_raw"]);
const COMPARED_FIELDS = ["node_type", "title", "text", "status", "tags", "from_id", "rel", "to_id", "meta"] as const;

function semanticMeta(meta: Record<string, unknown> | null | undefined): string {
  if (!meta) return "{}";
  const kept = Object.fromEntries(Object.entries(meta).filter(([key]) => !IGNORED_META_KEYS.has(key)));
  return canonicalJson(kept);
}

function fieldValue(state: KeyState, field: (typeof COMPARED_FIELDS)[number]): string {
  if (field === "meta") return semanticMeta(state.meta);
  if (field === "tags") return canonicalJson(state.tags ?? []);
  return canonicalJson(state[field] ?? null);
}

/** Fields whose values differ (an absent or deleted state differs in `deleted` only). */
export function changedFields(a: KeyState | undefined, b: KeyState | undefined): string[] {
  const aLive = a !== undefined && !a.deleted;
  const bLive = b !== undefined && !b.deleted;
  if (!aLive && !bLive) return [];
  if (aLive !== bLive) return ["deleted"];
  return COMPARED_FIELDS.filter((field) => fieldValue(a as KeyState, field) !== fieldValue(b as KeyState, field));
}

export function sameState(a: KeyState | undefined, b: KeyState | undefined): boolean {
  return changedFields(a, b).length === 0;
}

/**
 * theirs equal to base or to ours → nothing to do; ours equal to base → apply theirs; otherwise both
 * sides changed the key differently since the base snapshot → conflict.
 */
export function decide(base: KeyState | undefined, theirs: KeyState, ours: KeyState | undefined): MergeDecision {
  if (sameState(theirs, base)) return "same_as_base";
  if (sameState(theirs, ours)) return "same_as_ours";
  if (sameState(base, ours)) return "apply";
  return "conflict";
}
