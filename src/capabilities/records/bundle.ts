/**
 * The context bundle of an activation (seed 004 "Context loading rules"), pure: the target and its
 * parent in full, OPEN children in full, the other children and the grandchildren as refs, and the
 * warnings — fitted to a character budget. Past the budget, OPEN children degrade to refs oldest
 * first, then refs are dropped oldest first (grandchildren, other children, then degraded OPEN
 * children); the target and the parent are always whole (reasoning needs them). Counts say what the
 * bundle holds and what it left out. No I/O, no clock.
 *
 * When even the OPEN children's refs overflow the budget, the outcome is known from those refs alone
 * (`bundleOfOverflowingRefs`): every step of the budget only shrinks the bundle, so every OPEN child
 * degrades and every other child and grandchild is dropped, whatever their sizes. Activation then
 * never reads the bodies of OPEN children nor the rows of the others.
 */
import type { BundleWarning, ContextBundle, RecordRef, RecordView } from "./records.schema";

/** What a bundle holds besides its lists: the records shown whole, the counts, the warnings, the budget. */
export interface BundleFrame {
  target: RecordView;
  parent: RecordView | null;
  openChildrenTotal: number;
  otherChildrenTotal: number;
  grandchildrenTotal: number;
  warnings: BundleWarning[];
  maxChars: number;
}

export interface BundleInput extends BundleFrame {
  /** OPEN children in number order (at most the loading bound). */
  openChildren: RecordView[];
  /** LATER / RESOLVED / DISCARDED children as refs, number order. */
  otherChildren: RecordRef[];
  grandchildren: RecordRef[];
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

function assemble(input: BundleFrame, lists: Lists, warnings: BundleWarning[]): ContextBundle {
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

  return finish(input, lists, shrunk);
}

/**
 * `buildBundle`'s answer when the OPEN children, all as refs and with nothing else, still exceed the
 * budget — computed from those refs (`openChildRefs`: the same children `buildBundle` would get, as
 * refs). The full bundle is then larger still (a record's JSON holds its ref's), so it shrinks; every
 * OPEN child degrades (each step makes the bundle smaller, and even the last state is over the limit);
 * every grandchild and other child is dropped (the bundle without them is still over the limit); and
 * refs go oldest first until the rest fits. Undefined when the refs fit: the caller builds the bundle
 * from the full lists.
 */
export function bundleOfOverflowingRefs(input: BundleFrame & { openChildRefs: RecordRef[] }): ContextBundle | undefined {
  const refs = [...input.openChildRefs];
  if (refs.length === 0) return undefined;
  const skeleton = size(assemble(input, { open: [], openRefs: [], other: [], grand: [] }, input.warnings));
  const sizes = refs.map(size);
  let sum = sizes.reduce((total, n) => total + n, 0);
  const total = () => skeleton + (refs.length === 0 ? 0 : sum + refs.length - 1);
  if (total() <= input.maxChars) return undefined;
  const limit = input.maxChars - BUDGET_WARNING_RESERVE;
  while (refs.length > 0 && total() > limit) {
    refs.shift();
    sum -= sizes.shift() as number;
  }
  return finish(input, { open: [], openRefs: refs, other: [], grand: [] }, true);
}

/** The bundle of the lists the budget left, with the budget warning when it shrank or left children out. */
function finish(input: BundleFrame, lists: Lists, shrunk: boolean): ContextBundle {
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
