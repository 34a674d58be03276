/**
 * The agent-facing help: protocol semantics in short sections, so the budget can drop later sections
 * whole. The single place that explains conventions, so responses need not repeat them. Also the
 * golden path that `help` and `status` give as suggested calls.
 */
import { MIN_BUDGET_CHARS } from "../../shared/limits";
import { fill, type Suggestion, suggest } from "../../shared/suggestion";

export const HELP_SECTIONS: { title: string; text: string }[] = [
  {
    title: "What this is",
    text: "BranchMind is a durable, branchable working memory. A workspace holds append-only documents (notes, trace) on git-like branches. Nothing you write is rewritten; reads are bounded.",
  },
  {
    title: "Portals",
    text: 'The default toolset has one tool per portal: status, open, workspace, tasks, jobs, think, graph, vcs, docs, system, records. Each takes {workspace?, op, cmd?, args, budget_profile?, view?}: op is a golden op of the portal (e.g. vcs op notes.commit) or "call" with cmd naming any command (e.g. cmd tasks.step.lease.claim; on the read-only status and open portals, reads only). `system` op schema.get {cmd} gives a command\'s args and a valid example call; op cmd.list lists commands; op migration.lookup maps old tool names. Every portal answer carries capsule {where, why, next: action + backup}: paste next.action to go on; where.writes says where your next note (focus first) and card (checkout) land. Reads default to the portal profile (6,000 characters).',
  },
  {
    title: "Open by ref",
    text: "`open {id}` reads any artifact by its stable ref and changes nothing: CARD-*, <doc>@<seq> (notes@12), TASK-*/PLAN-* (read-only capsule; focus unchanged), STEP-*, JOB-*[@<event>], a:<slug> (the anchor's cards, canon first), code:<path>#L<a>-L<b>[@sha256:<hex>] (a stored slice; pass current_text to learn whether it is stale).",
  },
  {
    title: "Golden path",
    text: "1) `status` to see your checkout and the next action. 2) Start an idea on its own branch with a first note. 3) Commit notes as you go. 4) `show` the notes, or export them, to resume. 5) `diff` then merge the branch back (merge_to_base=true). golden_path gives each step as a call made for your connection.",
  },
  {
    title: "Workspaces",
    text: "Every call works in one workspace: the `/w/<workspace>/mcp` URL, else the `workspace` argument, else the only workspace your token names. `init` may store a project_guard; calls carrying a different guard are refused.",
  },
  {
    title: "Branches",
    text: "A branch is a no-copy snapshot of its base at a seq cutoff, plus its own entries; later writes to the base do not leak in. Checkout is per agent. Names can change, ids (`BR-0001`) never do. main, task/* and plan/* are reserved.",
  },
  {
    title: "Diff and merge",
    text: "`diff from to` lists entries of `to` missing from `from`. `merge` copies notes (not trace events) idempotently; a merged copy counts as present, so the diff empties and a second merge copies nothing. Page large merges with `cursor` = `next_cursor`.",
  },
  {
    title: "VCS helpers",
    text: "`commit` appends a note and moves the branch head; `log` walks notes up to the head; `reset` moves the head; `reflog` lists movements; tags name commits. Refs never change what `show` returns.",
  },
  {
    title: "Budgets",
    text: `Every read takes max_chars (alias context_budget), max_bytes, max_lines, limit and cursor, and reports budget {max_chars, used_chars, truncated}. Trimming keeps ids over bodies, then drops oldest items (BUDGET_TRUNCATED); BUDGET_MINIMAL means only a minimal answer fit; BUDGET_MIN_CLAMPED means your budget was raised to the minimum (${MIN_BUDGET_CHARS}); BUDGET_ITEM_TOO_LARGE means a page's next item does not fit (no next_cursor until it does). A cut's recovery names the budget that gives more.`,
  },
  {
    title: "Writes",
    text: "Every write is atomic: it lands whole or not at all. Pass idempotency_key to make a retry safe: a replay returns the first result; the same key with other arguments fails IDEMPOTENCY_KEY_REUSED.",
  },
  {
    title: "Errors",
    text: "Errors are {error: {code, message, recovery_hint, details?, actions?}}. Follow recovery_hint; an action is a ready-to-send call.",
  },
];

/** The daily loop in order, as calls (made per answer: suggestions are rendered for the connection). */
export function goldenPath(): Suggestion[] {
  const branch = fill("branch name");
  return [
    suggest("system.status", {}, "1. where you are"),
    suggest("think.idea.branch.create", { name: branch, goal: fill("what you try") }, "2. an idea on its own branch"),
    suggest("vcs.notes.commit", { content: fill("what you learned") }, "3. notes as you go"),
    suggest("docs.show", { doc_kind: "notes" }, "4. read them back"),
    suggest("docs.merge", { from: branch, merge_to_base: true }, "5. merge the branch back"),
  ];
}
