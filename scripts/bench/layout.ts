/**
 * The benchmark's store layout, as pure data: which notes and branches a store of a given size holds,
 * in which order, and which page `show` must therefore return on a branch. Kept apart from the server
 * so the layout and its expected pages can be reasoned about (and tested) without one.
 *
 * Layout: most notes on `main`, then a chain `chain/1` … `chain/<depth>` with notes on each chain
 * branch and notes on `main` after each branch was created, then late notes on the chain after the
 * whole chain exists (so the cutoffs of the effective views matter).
 */

/** The branch depths whose reads the notes suite measures (`--depths`); the chain is built to the deepest. */
export const DEFAULT_DEPTHS = [1, 10, 30];

/** The chain branch at `depth` (1 = branched from `main`). */
export const chainBranchName = (depth: number): string => `chain/${depth}`;
/** Notes on each chain branch before the next branch is made, and after the whole chain exists. */
export const CHAIN_NOTES_BEFORE = 2;
export const CHAIN_NOTES_AFTER = 3;
/** Entries per `show` page, in checks and measurements alike. */
export const PAGE_LIMIT = 20;

export type ImportOp = { op: "note"; branch?: string; content: string; title?: string } | { op: "branch"; name: string; from?: string };

export interface Layout {
  ops: ImportOp[];
  notes: number;
  branches: number;
  /** Note seq → branch name (seqs are 1..notes in op order in a fresh workspace). */
  noteBranch: string[];
  /** Branch name → base name and base seq (the seq counter when it was created). */
  bases: Map<string, { base: string; baseSeq: number }>;
}

const WORDS = [
  "branch",
  "merge",
  "note",
  "cutoff",
  "durable",
  "object",
  "sqlite",
  "worker",
  "latency",
  "median",
  "index",
  "scan",
  "view",
  "snapshot",
  "append",
  "journal",
  "budget",
  "token",
  "agent",
  "memory",
  "decision",
  "evidence",
  "hypothesis",
  "plan",
];

/** Deterministic filler text of 100-200 characters. */
export function noteText(seed: number, label: string): string {
  let state = Math.imul(seed, 2654435761) >>> 0;
  const next = (): number => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state;
  };
  const length = 100 + (next() % 101);
  let text = `${label} #${seed}:`;
  while (text.length < length) text += ` ${WORDS[next() % WORDS.length] ?? "note"}`;
  return text.slice(0, length);
}

function mainNotesAfterEachBranch(size: number): number {
  return Math.max(1, Math.floor(size / 100));
}

/** Notes written on `main` before the chain: the rest of the store. */
export function mainNotesFirst(size: number, chainDepth: number): number {
  return size - chainDepth * (CHAIN_NOTES_BEFORE + CHAIN_NOTES_AFTER + mainNotesAfterEachBranch(size));
}

export function buildLayout(size: number, chainDepth: number): Layout {
  const mainAfterEachBranch = mainNotesAfterEachBranch(size);
  const mainFirst = mainNotesFirst(size, chainDepth);
  if (mainFirst < 1) throw new Error(`store size ${size} is too small for a chain of depth ${chainDepth}`);
  const ops: ImportOp[] = [];
  const noteBranch: string[] = [];
  const bases = new Map<string, { base: string; baseSeq: number }>();
  const note = (branch: string): void => {
    const seq = noteBranch.length + 1;
    const op: ImportOp = { op: "note", content: noteText(seq, branch) };
    if (branch !== "main") op.branch = branch;
    if (seq % 8 === 0) op.title = `note ${seq}`;
    ops.push(op);
    noteBranch.push(branch);
  };
  for (let i = 0; i < mainFirst; i++) note("main");
  let previous = "main";
  for (let depth = 1; depth <= chainDepth; depth++) {
    const name = chainBranchName(depth);
    const op: ImportOp = { op: "branch", name };
    if (previous !== "main") op.from = previous;
    ops.push(op);
    bases.set(name, { base: previous, baseSeq: noteBranch.length });
    for (let i = 0; i < CHAIN_NOTES_BEFORE; i++) note(name);
    for (let i = 0; i < mainAfterEachBranch; i++) note("main");
    previous = name;
  }
  for (let depth = 1; depth <= chainDepth; depth++) {
    for (let i = 0; i < CHAIN_NOTES_AFTER; i++) note(chainBranchName(depth));
  }
  return { ops, notes: noteBranch.length, branches: chainDepth, noteBranch, bases };
}

/** Seqs of the newest `limit` notes of `branch`'s effective view, oldest first (what `show` must return). */
export function expectedTail(layout: Layout, branch: string, limit: number): number[] {
  const cutoffs = new Map<string, number | null>([[branch, null]]);
  let current = branch;
  let cutoff: number | null = null;
  for (let hops = 0; hops <= layout.bases.size; hops++) {
    const base = layout.bases.get(current);
    if (base === undefined) break;
    cutoff = cutoff === null ? base.baseSeq : Math.min(cutoff, base.baseSeq);
    cutoffs.set(base.base, cutoff);
    current = base.base;
  }
  const seqs: number[] = [];
  for (let seq = layout.noteBranch.length; seq >= 1 && seqs.length < limit; seq--) {
    const owner = layout.noteBranch[seq - 1] ?? "";
    if (!cutoffs.has(owner)) continue;
    const limitSeq = cutoffs.get(owner);
    if (limitSeq === null || limitSeq === undefined || seq <= limitSeq) seqs.push(seq);
  }
  return seqs.reverse();
}
