/**
 * Branches: immutable ids (`BR-0001`), renameable names, and a base (branch id + seq cutoff) that
 * gives a derived branch a no-copy snapshot of its base. The effective sources of a branch are the
 * branch itself plus each ancestor up to the smallest cutoff on the path (depth ≤ 32, cycles refused).
 * Checkout is per agent, falling back to `main`.
 */
import type { CommandContext } from "../commands/context";
import type { WriteGuard } from "../commands/workspace-hooks";
import { fail } from "../shared/errors";
import { DEFAULT_LIST_LIMIT, MAX_BRANCH_DEPTH } from "../shared/limits";
import { suggest } from "../shared/suggestion";
import { advance, read } from "../storage/clocks";
import type { Db } from "../storage/db";

export const MAIN = "main";

export interface Branch {
  id: string;
  name: string;
  base_id: string | null;
  base_seq: number | null;
  depth: number;
  created_seq: number;
  created_at_ms: number;
  created_by: string;
}

/** One part of an effective view: the entries of `branch_id` with seq ≤ cutoff (null: no cutoff). */
export interface Source {
  branch_id: string;
  /** Current name of the branch (names can change; ids cannot). */
  name: string;
  cutoff: number | null;
}

const COLUMNS = "id, name, base_id, base_seq, depth, created_seq, created_at_ms, created_by";

/** Before the first write a workspace has no rows; reads see an empty `main`. */
const VIRTUAL_MAIN: Branch = {
  id: "BR-0001",
  name: MAIN,
  base_id: null,
  base_seq: null,
  depth: 0,
  created_seq: 0,
  created_at_ms: 0,
  created_by: "system",
};

function branchId(n: number): string {
  return `BR-${String(n).padStart(4, "0")}`;
}

/** A link of a branch's base chain: the branch (level 0) or an ancestor. */
type ChainRow = Branch & { level: number } & Record<string, string | number | null>;

/**
 * Chains read together with their branch by `findBranch`, for `sourcesOf`: a branch found by name is
 * nearly always read for its view next, and a Durable Object pays a fixed cost per statement. Chains
 * never change (a base is fixed at creation) and a Branch object lives for one call.
 */
const chainsRead = new WeakMap<Branch, ChainRow[]>();

/**
 * The branch and its ancestors, nearest first, from `start` (`WHERE …` on `branches`): one recursive
 * query, bounded one level past the depth limit so a cycle cannot loop.
 */
function chainSql(start: string): string {
  return `WITH RECURSIVE chain (${COLUMNS}, level) AS (
       SELECT ${COLUMNS}, 0 FROM branches WHERE ${start}
       UNION ALL
       SELECT ${COLUMNS.split(", ")
         .map((column) => `b.${column}`)
         .join(", ")}, chain.level + 1 FROM branches b JOIN chain ON b.id = chain.base_id
       WHERE chain.level <= ${MAX_BRANCH_DEPTH}
     )
     SELECT ${COLUMNS}, level FROM chain ORDER BY level`;
}

// `= +?`: a bare parameter compared with `=` in a sorting statement is recompiled at every call (seq-scans.ts).
const CHAIN_BY_NAME = chainSql("name = +?");
const CHAIN_BY_ID = chainSql("id = +?");

function branchOf(row: ChainRow): Branch {
  const { level: _level, ...branch } = row;
  return branch;
}

/** The branch of that name with its base chain (one statement), or the virtual `main` of an empty workspace. */
export function findBranch(db: Db, name: string): Branch | undefined {
  const chain = db.all<ChainRow>(CHAIN_BY_NAME, name);
  const first = chain[0];
  if (first !== undefined) {
    const branch = branchOf(first);
    chainsRead.set(branch, chain);
    return branch;
  }
  if (name === MAIN && !hasBranches(db)) return VIRTUAL_MAIN;
  return undefined;
}

/** A stored branch of that name (the virtual `main` of an empty workspace does not count). */
export function branchExists(db: Db, name: string): boolean {
  return db.one("SELECT 1 AS one FROM branches WHERE name = ?", name) !== undefined;
}

export function branchById(db: Db, id: string): Branch {
  const row = db.one<Branch & Record<string, string | number | null>>(`SELECT ${COLUMNS} FROM branches WHERE id = ?`, id);
  if (row) return row;
  if (id === VIRTUAL_MAIN.id) return VIRTUAL_MAIN;
  throw new Error(`branch id ${id} is referenced but missing`);
}

function hasBranches(db: Db): boolean {
  return db.one("SELECT 1 AS one FROM branches LIMIT 1") !== undefined;
}

export function unknownBranch(name: string): never {
  return fail(
    "UNKNOWN_ID",
    `Unknown branch "${name}".`,
    "Call `branch_list` to see the branches of this workspace.",
    {
      branch: name,
    },
    [suggest("branch_list", {}, "list the branches that exist")],
  );
}

export function requireBranch(db: Db, name: string): Branch {
  return findBranch(db, name) ?? unknownBranch(name);
}

/**
 * Creates `main` on the first write of a workspace (journaled with that write). `exists` is whether any
 * branch is stored, when the caller has read it already (the write guard, with the other guards' probes).
 */
export function ensureMain(ctx: CommandContext, exists: boolean = hasBranches(ctx.db)): void {
  if (exists) return;
  const id = branchId(advance(ctx.db, "branch"));
  ctx.db.run(`INSERT INTO branches (${COLUMNS}) VALUES (?, ?, NULL, NULL, 0, 0, ?, ?)`, id, MAIN, ctx.nowMs, ctx.principal.agent_id);
  ctx.journal({ target: MAIN, summary: "bootstrapped branch main" });
}

/** The write guard that bootstraps `main` on a workspace's first write (registered in the catalog). */
export const MAIN_BRANCH_GUARD: WriteGuard = {
  probe: "SELECT EXISTS (SELECT 1 FROM branches)",
  beforeHandler: (ctx, write) => ensureMain(ctx, write.probe === 1),
};

/** How many branches the workspace stores (main once written), for the Directory's summary. */
export function countBranches(db: Db): number {
  return db.one<{ n: number }>("SELECT COUNT(*) AS n FROM branches")?.n ?? 0;
}

/** Creates a branch with no base (its view holds only what is written on it), like `main`. */
export function createRootBranch(ctx: CommandContext, name: string): Branch {
  if (findBranch(ctx.db, name)) {
    fail("ALREADY_EXISTS", `Branch "${name}" already exists.`, "Pick another name, or `checkout` the existing branch.", { branch: name });
  }
  const branch: Branch = {
    id: branchId(advance(ctx.db, "branch")),
    name,
    base_id: null,
    base_seq: null,
    depth: 0,
    created_seq: read(ctx.db, "seq"),
    created_at_ms: ctx.nowMs,
    created_by: ctx.principal.agent_id,
  };
  ctx.db.run(
    `INSERT INTO branches (${COLUMNS}) VALUES (?, ?, NULL, NULL, 0, ?, ?, ?)`,
    branch.id,
    branch.name,
    branch.created_seq,
    branch.created_at_ms,
    branch.created_by,
  );
  return branch;
}

export function createBranch(ctx: CommandContext, name: string, base: Branch): Branch {
  if (findBranch(ctx.db, name)) {
    fail("ALREADY_EXISTS", `Branch "${name}" already exists.`, "Pick another name, or `checkout` the existing branch.", {
      branch: name,
    });
  }
  if (base.depth + 1 > MAX_BRANCH_DEPTH) {
    fail(
      "INVALID_INPUT",
      `Branch "${base.name}" is already ${base.depth} levels deep; the limit is ${MAX_BRANCH_DEPTH}.`,
      "Merge work back toward main, or branch from a shallower branch.",
      { base: base.name, depth: base.depth, max_depth: MAX_BRANCH_DEPTH },
    );
  }
  const branch: Branch = {
    id: branchId(advance(ctx.db, "branch")),
    name,
    base_id: base.id,
    base_seq: read(ctx.db, "seq"),
    depth: base.depth + 1,
    created_seq: read(ctx.db, "seq"),
    created_at_ms: ctx.nowMs,
    created_by: ctx.principal.agent_id,
  };
  ctx.db.run(
    `INSERT INTO branches (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    branch.id,
    branch.name,
    branch.base_id,
    branch.base_seq,
    branch.depth,
    branch.created_seq,
    branch.created_at_ms,
    branch.created_by,
  );
  return branch;
}

/**
 * The branch itself plus each ancestor, with the smallest cutoff seen so far on the path (the chain
 * `findBranch` read with the branch, or one recursive query).
 */
export function sourcesOf(db: Db, branch: Branch): Source[] {
  // A branch without a base (main) is its own whole view: no statement needed.
  if (branch.base_id === null) return [{ branch_id: branch.id, name: branch.name, cutoff: null }];
  const chain = chainsRead.get(branch) ?? db.all<ChainRow>(CHAIN_BY_ID, branch.id);
  if (chain.length === 0) return [{ branch_id: branch.id, name: branch.name, cutoff: null }];
  if (chain.length > MAX_BRANCH_DEPTH + 1) {
    fail("INVALID_INPUT", `Branch "${branch.name}" has a base chain deeper than ${MAX_BRANCH_DEPTH}.`, "Branch from a shallower base.");
  }
  if (new Set(chain.map((row) => row.id)).size !== chain.length) {
    fail("INVALID_INPUT", `Branch "${branch.name}" has a cyclic base chain.`, "Report this workspace to the operators.");
  }
  const sources: Source[] = [];
  let cutoff: number | null = null;
  chain.forEach((row, level) => {
    if (level > 0) {
      const baseSeq = chain[level - 1]?.base_seq ?? 0;
      cutoff = cutoff === null ? baseSeq : Math.min(cutoff, baseSeq);
    }
    sources.push({ branch_id: row.id, name: row.name, cutoff });
  });
  return sources;
}

export function listBranches(db: Db, limit: number, after: string | undefined): { branches: Branch[]; has_more: boolean } {
  if (!hasBranches(db)) return { branches: [VIRTUAL_MAIN], has_more: false };
  const rows = db.all<Branch & Record<string, string | number | null>>(
    `SELECT ${COLUMNS} FROM branches WHERE name > ? ORDER BY name LIMIT ?`,
    after ?? "",
    limit + 1,
  );
  return { branches: rows.slice(0, limit), has_more: rows.length > limit };
}

export function childrenCount(db: Db, branchIdValue: string): number {
  return db.one<{ n: number }>("SELECT COUNT(*) AS n FROM branches WHERE base_id = ?", branchIdValue)?.n ?? 0;
}

export function checkoutOf(db: Db, agentId: string): Branch {
  const row = db.one<{ branch_id: string }>("SELECT branch_id FROM checkouts WHERE agent_id = ?", agentId);
  return row ? branchById(db, row.branch_id) : requireBranch(db, MAIN);
}

export function setCheckout(ctx: CommandContext, branch: Branch): void {
  ctx.db.run(
    `INSERT INTO checkouts (agent_id, branch_id, updated_at_ms) VALUES (?, ?, ?)
     ON CONFLICT (agent_id) DO UPDATE SET branch_id = excluded.branch_id, updated_at_ms = excluded.updated_at_ms`,
    ctx.principal.agent_id,
    branch.id,
    ctx.nowMs,
  );
}

/** Agents (other than `exceptAgent`) whose checkout is this branch, bounded. */
export function checkedOutBy(db: Db, branch: Branch): string[] {
  return db
    .all<{ agent_id: string }>(
      "SELECT agent_id FROM checkouts WHERE branch_id = ? ORDER BY agent_id LIMIT ?",
      branch.id,
      DEFAULT_LIST_LIMIT,
    )
    .map((row) => row.agent_id);
}

export function renameBranch(db: Db, branch: Branch, newName: string): void {
  db.run("UPDATE branches SET name = ? WHERE id = ?", newName, branch.id);
}

/**
 * Removes the branch row and its checkouts. The branch command first has every other store forget the
 * branch (`ctx.forgetBranch`: notes, refs, graph, anchor links), since their rows point at this one.
 */
export function deleteBranchRows(db: Db, branch: Branch): void {
  db.run("DELETE FROM checkouts WHERE branch_id = ?", branch.id);
  db.run("DELETE FROM branches WHERE id = ?", branch.id);
}

/** New branch names may not take a server-owned name (main, task/*, plan/*, kb/* — the knowledge branch). */
export function refuseReservedName(name: string): void {
  if (isCanonical(name)) {
    fail("INVALID_NAME", `"${name}" is reserved (main and task/*, plan/*, kb/* branches belong to the server).`, "Choose another name.", {
      name,
    });
  }
}

/** Knowledge cards live on `kb/main` (the knowledge capability); the server owns every `kb/` branch. */
export const KNOWLEDGE_BRANCH_PREFIX = "kb/";

export function isCanonical(name: string): boolean {
  return name === MAIN || name.startsWith("task/") || name.startsWith("plan/") || name.startsWith(KNOWLEDGE_BRANCH_PREFIX);
}
