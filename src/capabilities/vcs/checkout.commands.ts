/**
 * `vcs.checkout` (seed 001 Milestone 3): set the caller's own current branch; other agents keep theirs.
 * Reads and writes that name no branch use it (the place module's `checkoutOf`).
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { checkoutOf, requireBranch, setCheckout } from "../../place/branches.store";
import { branchArg } from "../docs/docs.schema";

export const checkout = defineCommand({
  name: "vcs.checkout",
  tool: "checkout",
  title: "Check out a branch",
  description: "Set YOUR current branch (per agent: other agents keep theirs). Reads and writes without an explicit branch use it.",
  kind: "write",
  idempotent: true,
  input: { ref: branchArg.describe("Branch to check out.") },
  output: {
    workspace: z.string(),
    previous: z.string().nullable(),
    current: z.string(),
  },
  handler: (ctx, args) => {
    const target = requireBranch(ctx.db, args.ref);
    const previous = checkoutOf(ctx.db, ctx.principal.agent_id);
    if (previous.id !== target.id) {
      setCheckout(ctx, target);
      ctx.journal({
        target: target.name,
        summary: `checkout by ${ctx.principal.agent_id}`,
      });
    }
    return {
      workspace: ctx.workspace,
      previous: previous.name,
      current: target.name,
    };
  },
});
