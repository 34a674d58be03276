/**
 * How a branch is shown in answers (its name, id, base and base seq) and how a new branch's name is
 * asked for: shared by the branch commands and the idea-branch macro (think/idea-branch.commands.ts).
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { type Branch, branchById } from "../../place/branches.store";
import { nameSchema } from "../../shared/names";

export const newBranchName = nameSchema("Name of the new branch, e.g. `try/cache-layer`.");

export const branchSummarySchema = z.object({
  name: z.string(),
  id: z.string(),
  base_branch: z.string().nullable(),
  base_seq: z.number().nullable(),
});

export function summarize(ctx: CommandContext, branch: Branch) {
  return {
    name: branch.name,
    id: branch.id,
    base_branch: branch.base_id === null ? null : branchById(ctx.db, branch.base_id).name,
    base_seq: branch.base_seq,
  };
}
