/**
 * The context bundle of an activation (seed 004 "Context loading rules"), pure: the target and its
 * parent in full, OPEN children in full, the other children and the grandchildren as refs, and the
 * warnings — fitted to a character budget. Past the budget, OPEN children degrade to refs oldest
 * first, then refs are dropped oldest first (grandchildren, other children, then degraded OPEN
 * children); the target and the parent are always whole (reasoning needs them). Counts say what the
 * bundle holds and what it left out. No I/O, no clock.
 */
import type { BundleWarning, ContextBundle, RecordRef, RecordView } from "./records.schema";

export interface BundleInput {
  target: RecordView;
  parent: RecordView | null;
  /** OPEN children in number order (at most the loading bound). */
  openChildren: RecordView[];
  openChildrenTotal: number;
  /** LATER / RESOLVED / DISCARDED children as refs, number order. */
  otherChildren: RecordRef[];
  otherChildrenTotal: number;
  grandchildren: RecordRef[];
  grandchildrenTotal: number;
  warnings: BundleWarning[];
  maxChars: number;
}

/** Characters kept free for the budget warning itself when the bundle had to shrink. */
const BUDGET_WARNING_RESERVE = 400;

export function refOfRecord(record: RecordView): RecordRef {
  return {
    id: record.id,
    type: record.type,
    title: record.title,
    summary: record.summary,
    state: record.state,
    parent_id: record.parent_id,
    children_count: record.children_count,
    open_children_count: record.open_children_count,
  };
}

const size = (value: unknown): number => JSON.stringify(value).length;

interface Lists {
  open: RecordView[];
  openRefs: RecordRef[];
  other: RecordRef[];
  grand: RecordRef[];
}

function assemble(input: BundleInput, lists: Lists, warnings: BundleWarning[]): ContextBundle {
  const shown = lists.open.length + lists.openRefs.length + lists.other.length + lists.grand.length;
  const total = input.openChildrenTotal + input.otherChildrenTotal + input.grandchildrenTotal;
  const bundle: ContextBundle = {
    target: input.target,
    parent: input.parent,
    children: { open: lists.open, open_refs: lists.openRefs, other: lists.other },
    grandchildren: lists.grand,
    counts: {
      open_children: input.openChildrenTotal,
      other_children: input.otherChildrenTotal,
      grandchildren: input.grandchildrenTotal,
      omitted: Math.max(total - shown, 0),
    },
  };
  if (warnings.length > 0) bundle.warnings = warnings;
  return bundle;
}

export function buildBundle(input: BundleInput): ContextBundle {
  const lists: Lists = { open: [...input.openChildren], openRefs: [], other: [...input.otherChildren], grand: [...input.grandchildren] };
  const skeleton = size(assemble(input, { open: [], openRefs: [], other: [], grand: [] }, input.warnings));
  // Each list's item sizes (in step with the list) and their sum, kept as items move, so the total is
  // computed in constant time however many items the budget moves (a 1k-children record moves hundreds).
  const sizes: Record<keyof Lists, number[]> = {
    open: lists.open.map(size),
    openRefs: [],
    other: lists.other.map(size),
    grand: lists.grand.map(size),
  };
  const sums: Record<keyof Lists, number> = { open: 0, openRefs: 0, other: 0, grand: 0 };
  for (const key of ["open", "other", "grand"] as const) sums[key] = sizes[key].reduce((sum, n) => sum + n, 0);
  const chars = (key: keyof Lists): number => (sizes[key].length === 0 ? 0 : sums[key] + sizes[key].length - 1);
  const total = () => skeleton + chars("open") + chars("openRefs") + chars("other") + chars("grand");
  const dropFirst = (key: keyof Lists): void => {
    lists[key].shift();
    sums[key] -= sizes[key].shift() as number;
  };

  let shrunk = false;
  if (total() > input.maxChars) {
    shrunk = true;
    const limit = input.maxChars - BUDGET_WARNING_RESERVE;
    // 1. OPEN children degrade to refs, oldest first.
    while (lists.open.length > 0 && total() > limit) {
      const child = lists.open[0] as RecordView;
      dropFirst("open");
      const ref = refOfRecord(child);
      const refSize = size(ref);
      lists.openRefs.push(ref);
      sizes.openRefs.push(refSize);
      sums.openRefs += refSize;
    }
    // 2. Then refs are dropped, oldest first: grandchildren, other children, degraded OPEN children.
    for (const key of ["grand", "other", "openRefs"] as const) {
      while (lists[key].length > 0 && total() > limit) dropFirst(key);
    }
  }

  const shown = lists.open.length + lists.openRefs.length + lists.other.length + lists.grand.length;
  const omitted = input.openChildrenTotal + input.otherChildrenTotal + input.grandchildrenTotal - shown;
  const warnings = [...input.warnings];
  if (shrunk || omitted > 0) {
    warnings.push({
      type: "budget",
      message: shrunk
        ? `The bundle was fitted to ${input.maxChars} characters: ${lists.openRefs.length} OPEN children shown as refs, ${Math.max(omitted, 0)} children or grandchildren left out.`
        : `${omitted} children or grandchildren are past the bundle's bounds and left out.`,
      details: {
        max_chars: input.maxChars,
        open_children: input.openChildrenTotal,
        open_children_full: lists.open.length,
        open_children_as_refs: lists.openRefs.length,
        other_children_shown: lists.other.length,
        grandchildren_shown: lists.grand.length,
        omitted: Math.max(omitted, 0),
        see: "list_records with parent_id and depth pages every child and grandchild.",
      },
    });
  }
  return assemble(input, lists, warnings);
}
