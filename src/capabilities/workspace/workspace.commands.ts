/**
 * Bulk import (admin only): an ordered list of branch creations and notes applied in one
 * transaction, so large stores are seeded in a few calls instead of one call per entry (benchmarks,
 * migrations from other memories). Export and the full import format arrive with the operations work.
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { fail } from "../../shared/errors";
import { nameSchema } from "../../shared/names";
import { createBranch, refuseReservedName, requireBranch } from "../branches/branches.store";
import { checkContentSize } from "../docs/docs.rules";
import { branchArg, contentFields, DEFAULT_DOCS, docSchema } from "../docs/docs.schema";
import { appendEntry } from "../docs/docs.store";

/** One call's worth of operations: enough to seed 100k notes in ~100 calls, well under the body cap. */
export const MAX_IMPORT_OPS = 2_000;

const importOp = z.discriminatedUnion("op", [
  z.strictObject({ op: z.literal("branch"), name: nameSchema("New branch name."), from: branchArg.optional() }),
  z.strictObject({
    op: z.literal("note"),
    branch: branchArg.optional().describe("Default `main`."),
    doc: docSchema.optional(),
    content: contentFields.content,
    title: contentFields.title,
  }),
]);

export const workspaceImport = defineCommand({
  name: "workspace.import",
  tool: "workspace_import",
  title: "Bulk import (admin)",
  description: `Apply up to ${MAX_IMPORT_OPS} operations (create a branch, append a note) in order, in one transaction. Admin tokens only.`,
  kind: "write",
  requiresRole: "admin",
  input: { ops: z.array(importOp).min(1).max(MAX_IMPORT_OPS) },
  output: { branches_created: z.number(), notes_imported: z.number(), first_seq: z.number().nullable(), last_seq: z.number().nullable() },
  handler: (ctx, args) => {
    let branches = 0;
    let notes = 0;
    let first: number | null = null;
    let last: number | null = null;
    for (const op of args.ops) {
      if (op.op === "branch") {
        refuseReservedName(op.name);
        createBranch(ctx, op.name, requireBranch(ctx.db, op.from ?? "main"));
        branches++;
        continue;
      }
      checkContentSize(op.content, undefined);
      const row = appendEntry(ctx, {
        branch: requireBranch(ctx.db, op.branch ?? "main"),
        doc: op.doc ?? DEFAULT_DOCS.notes,
        kind: "note",
        title: op.title,
        content: op.content,
      });
      first ??= row.seq;
      last = row.seq;
      notes++;
    }
    if (branches + notes === 0) fail("INVALID_INPUT", "Nothing to import.", "Pass at least one op.");
    ctx.journal({ target: "workspace", summary: `imported ${branches} branches, ${notes} notes` });
    return { branches_created: branches, notes_imported: notes, first_seq: first, last_seq: last };
  },
});

export const WORKSPACE_COMMANDS = [workspaceImport];
