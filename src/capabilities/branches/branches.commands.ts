/**
 * Branch commands (seed 001 Milestone 3): no-copy branch creation, listing, rename (names change, ids
 * do not) and safe delete. Checkout is vcs's; the branch rows themselves are the place module's.
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import {
  checkedOutBy,
  checkoutOf,
  childrenCount,
  createBranch,
  deleteBranchRows,
  findBranch,
  isCanonical,
  listBranches,
  MAIN,
  refuseReservedName,
  renameBranch,
  requireBranch,
} from "../../place/branches.store";
import { protectReasoningBranch } from "../../place/targets";
import { fail } from "../../shared/errors";
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT } from "../../shared/limits";
import { topPageBudget } from "../../shared/top-page";
import { branchArg } from "../docs/docs.schema";
import { branchSummarySchema, newBranchName, summarize } from "./branch-summary";

export const branchCreate = defineCommand({
  name: "vcs.branch.create",
  tool: "branch_create",
  title: "Create a branch",
  description:
    "Create a branch as a no-copy snapshot of `from` (default: your checkout) at the current seq. Later writes to `from` do not leak into it. Does not check it out.",
  kind: "write",
  input: {
    name: newBranchName,
    from: branchArg.optional().describe("Base branch; defaults to your checkout."),
  },
  output: { workspace: z.string(), branch: branchSummarySchema },
  handler: (ctx, args) => {
    refuseReservedName(args.name);
    const base = args.from === undefined ? checkoutOf(ctx.db, ctx.principal.agent_id) : requireBranch(ctx.db, args.from);
    const branch = createBranch(ctx, args.name, base);
    ctx.journal({
      target: branch.name,
      summary: `branch created from ${base.name}@${branch.base_seq}`,
    });
    return { workspace: ctx.workspace, branch: summarize(ctx, branch) };
  },
});

export const branchList = defineCommand({
  name: "vcs.branch.list",
  tool: "branch_list",
  title: "List branches",
  description:
    "Branches of the workspace by name, with base, cutoff, whether you have it checked out, and which agents have it checked out (checked_out_by, at most 50 each). Page with `cursor` = `next_cursor`.",
  kind: "read",
  input: {
    limit: z.number().int().min(1).max(MAX_LIST_LIMIT).default(DEFAULT_LIST_LIMIT),
    cursor: z.string().max(256).optional().describe("Continue after this branch name (from next_cursor)."),
  },
  output: {
    workspace: z.string(),
    checkout: z.string(),
    branches: z.array(
      branchSummarySchema
        .extend({
          depth: z.number(),
          children: z.number(),
          checked_out: z.boolean(),
          checked_out_by: z
            .array(z.string())
            .describe("Agents that checked this branch out, by id (at most 50); agents that never ran checkout are on main."),
        })
        .loose(),
    ),
    next_cursor: z.string().optional(),
    has_more: z.boolean(),
    truncated: z.boolean(),
  },
  budget: topPageBudget("branches", "name", ["id"]),
  handler: (ctx, args) => {
    const checkout = checkoutOf(ctx.db, ctx.principal.agent_id);
    const page = listBranches(ctx.db, args.limit, args.cursor);
    const branches = page.branches.map((branch) => ({
      ...summarize(ctx, branch),
      depth: branch.depth,
      children: childrenCount(ctx.db, branch.id),
      checked_out: branch.id === checkout.id,
      checked_out_by: checkedOutBy(ctx.db, branch),
    }));
    const last = branches[branches.length - 1];
    return {
      workspace: ctx.workspace,
      checkout: checkout.name,
      branches,
      ...(page.has_more && last ? { next_cursor: last.name } : {}),
      has_more: page.has_more,
      truncated: false,
    };
  },
});

export const branchRename = defineCommand({
  name: "vcs.branch.rename",
  tool: "branch_rename",
  title: "Rename a branch",
  description:
    "Rename a branch. Its id, entries, bases, tags and checkouts follow; merges stay idempotent. `main`, `task/*` and `plan/*` cannot be renamed.",
  kind: "write",
  input: { old: branchArg.describe("Current name."), new: newBranchName },
  output: { workspace: z.string(), previous: z.string(), current: z.string() },
  handler: (ctx, args) => {
    const branch = requireBranch(ctx.db, args.old);
    if (isCanonical(branch.name)) {
      fail("INVALID_INPUT", `"${branch.name}" cannot be renamed.`, "Create a new branch from it with `branch_create` instead.", {
        branch: branch.name,
      });
    }
    refuseReservedName(args.new);
    if (args.new === branch.name)
      return {
        workspace: ctx.workspace,
        previous: branch.name,
        current: branch.name,
      };
    if (findBranch(ctx.db, args.new)) {
      fail("ALREADY_EXISTS", `Branch "${args.new}" already exists.`, "Pick another name.", { branch: args.new });
    }
    renameBranch(ctx.db, branch, args.new);
    ctx.journal({ target: args.new, summary: `renamed from ${branch.name}` });
    return {
      workspace: ctx.workspace,
      previous: branch.name,
      current: args.new,
    };
  },
});

export const branchDelete = defineCommand({
  name: "vcs.branch.delete",
  tool: "branch_delete",
  title: "Delete a branch",
  description:
    "Delete a branch and what was written on it. Refused (BRANCH_IN_USE) while it is the base of another branch or anyone has it checked out; `main`, `kb/*` (knowledge cards) and the reasoning branch of an existing plan or task (task/TASK-001) cannot be deleted.",
  kind: "write",
  destructive: true,
  input: { name: branchArg.describe("Branch to delete.") },
  output: { workspace: z.string(), name: z.string(), deleted: z.boolean() },
  handler: (ctx, args) => {
    const branch = requireBranch(ctx.db, args.name);
    if (branch.name === MAIN) fail("INVALID_INPUT", "main cannot be deleted.", "Delete the branches you created instead.");
    protectReasoningBranch(ctx.db, branch.name);
    const children = childrenCount(ctx.db, branch.id);
    const holders = checkedOutBy(ctx.db, branch);
    if (children > 0 || holders.length > 0) {
      fail(
        "BRANCH_IN_USE",
        `Branch "${branch.name}" is in use: ${children} branch(es) are based on it, ${holders.length} agent(s) have it checked out.`,
        "Delete or merge the derived branches first, and have its users `checkout` another branch.",
        {
          branch: branch.name,
          derived_branches: children,
          checked_out_by: holders,
        },
      );
    }
    ctx.forgetBranch(branch.id);
    deleteBranchRows(ctx.db, branch);
    ctx.journal({ target: branch.name, summary: "branch deleted" });
    return { workspace: ctx.workspace, name: branch.name, deleted: true };
  },
});
