/**
 * A workspace's branch tree (`vcs.branch.list`, every page): each branch under its base, with the
 * cutoff it was made at (`base_seq`: later writes to the base do not reach it), its depth, and the
 * agents that have it checked out; links open its timeline and graph.
 */
import { read } from "../api";
import { badge, el } from "../dom";
import { plural } from "../format";
import { href } from "../router";
import type { ViewContext } from "./context";

interface BranchItem {
  name: string;
  id: string;
  base_branch: string | null;
  base_seq: number | null;
  depth: number;
  children: number;
  checked_out_by?: string[];
}

interface BranchPage {
  branches: BranchItem[];
  has_more: boolean;
  next_cursor?: string;
}

/** Branches drawn at most: 25 pages of the largest page; a tree that large is read through MCP. */
const MAX_BRANCHES = 5_000;
const PAGE = 200;

export async function loadBranches(workspace: string, signal: AbortSignal): Promise<{ branches: BranchItem[]; capped: boolean }> {
  const branches: BranchItem[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await read<BranchPage>("vcs.branch.list", workspace, { limit: PAGE, ...(cursor ? { cursor } : {}) }, signal);
    branches.push(...page.branches);
    if (!page.has_more || !page.next_cursor) return { branches, capped: false };
    if (branches.length >= MAX_BRANCHES) return { branches, capped: true };
    cursor = page.next_cursor;
  }
}

function branchLine(context: ViewContext, branch: BranchItem): HTMLElement {
  const cutoff = branch.base_branch === null ? "root" : `from ${branch.base_branch} at seq ${branch.base_seq ?? "?"}`;
  const holders = branch.checked_out_by ?? [];
  return el(
    "div",
    { class: "branch-line" },
    el("strong", { class: "branch-name" }, branch.name),
    " ",
    el(
      "span",
      { class: "muted" },
      `${branch.id} · ${cutoff} · depth ${branch.depth} · ${plural(branch.children, "child branch", "child branches")}`,
    ),
    " ",
    ...holders.map((agent) => badge(`checked out by ${agent}`, "checkout")),
    " ",
    el("a", { href: href("timeline", context.workspace, { branch: branch.name }) }, "timeline"),
    " · ",
    el("a", { href: href("graph", context.workspace, { branch: branch.name }) }, "graph"),
  );
}

export async function renderBranches(context: ViewContext): Promise<void> {
  const tree = el("ul", { class: "tree", testid: "branch-tree" });
  const status = el("p", { class: "muted", testid: "branches-status" });
  context.root.append(el("section", { testid: "branches-view" }, el("h2", {}, "Branches"), status, tree));

  const { branches, capped } = await loadBranches(context.workspace, context.signal);
  const children = new Map<string | null, BranchItem[]>();
  const names = new Set(branches.map((branch) => branch.name));
  for (const branch of branches) {
    // A base beyond the loaded pages is drawn as a root, so no branch goes missing.
    const parent = branch.base_branch !== null && names.has(branch.base_branch) ? branch.base_branch : null;
    children.set(parent, [...(children.get(parent) ?? []), branch]);
  }
  const grow = (parent: string | null, into: HTMLElement) => {
    for (const branch of children.get(parent) ?? []) {
      const item = el(
        "li",
        { testid: "branch-node", data: { branch: branch.name, base: branch.base_branch ?? "", cutoff: String(branch.base_seq ?? "") } },
        branchLine(context, branch),
      );
      const sub = el("ul");
      grow(branch.name, sub);
      if (sub.childElementCount > 0) item.append(sub);
      into.append(item);
    }
  };
  grow(null, tree);
  status.textContent = `${plural(branches.length, "branch", "branches")}${capped ? ` (the first ${branches.length} only)` : ""}.`;
}
