/**
 * Bulk import (admin only): an ordered list of branch creations, notes and graph op batches applied
 * in one transaction, so large stores are seeded in a few calls instead of one call per entry (benchmarks,
 * migrations from other memories). Export and the full import format arrive with the operations work.
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { fail } from "../../shared/errors";
import { nameSchema } from "../../shared/names";
import { createBranch, refuseReservedName, requireBranch, sourcesOf } from "../branches/branches.store";
import { checkContentSize } from "../docs/docs.rules";
import { branchArg, contentFields, DEFAULT_DOCS, docSchema } from "../docs/docs.schema";
import { appendEntry } from "../docs/docs.store";
import { DEFAULT_GRAPH_DOC, graphDocSchema, graphOpSchema, MAX_GRAPH_OPS } from "../graph/graph.schema";
import { type AppliedCounts, applyOp } from "../graph/graph-apply";

/** One call's worth of operations: enough to seed 100k notes in ~100 calls, well under the body cap. */
export const MAX_IMPORT_OPS = 2_000;
/** Graph ops per call, across all `graph` batches: bounds one transaction to about a second of writes. */
export const MAX_IMPORT_GRAPH_OPS = 5_000;

const importOp = z.discriminatedUnion("op", [
  z.strictObject({ op: z.literal("branch"), name: nameSchema("New branch name."), from: branchArg.optional() }),
  z.strictObject({
    op: z.literal("note"),
    branch: branchArg.optional().describe("Default `main`."),
    doc: docSchema.optional(),
    content: contentFields.content,
    title: contentFields.title,
  }),
  z.strictObject({
    op: z.literal("graph"),
    branch: branchArg.optional().describe("Default `main`."),
    doc: graphDocSchema,
    ops: z.array(graphOpSchema).min(1).max(MAX_GRAPH_OPS),
  }),
]);

export const workspaceImport = defineCommand({
  name: "workspace.import",
  tool: "workspace_import",
  title: "Bulk import (admin)",
  description: `Apply up to ${MAX_IMPORT_OPS} operations (create a branch, append a note, apply a batch of graph ops; at most ${MAX_IMPORT_GRAPH_OPS} graph ops in all) in order, in one transaction. Admin tokens only.`,
  kind: "write",
  requiresRole: "admin",
  input: { ops: z.array(importOp).min(1).max(MAX_IMPORT_OPS) },
  output: {
    branches_created: z.number(),
    notes_imported: z.number(),
    graph_ops_applied: z.number(),
    first_seq: z.number().nullable(),
    last_seq: z.number().nullable(),
  },
  handler: (ctx, args) => {
    const graphOps = args.ops.reduce((total, op) => total + (op.op === "graph" ? op.ops.length : 0), 0);
    if (graphOps > MAX_IMPORT_GRAPH_OPS) {
      fail(
        "INVALID_INPUT",
        `${graphOps} graph ops in one import; the limit is ${MAX_IMPORT_GRAPH_OPS}.`,
        "Split the import over several calls.",
        {
          graph_ops: graphOps,
          max: MAX_IMPORT_GRAPH_OPS,
        },
      );
    }
    let branches = 0;
    let notes = 0;
    const applied: AppliedCounts = { nodes_upserted: 0, nodes_deleted: 0, edges_upserted: 0, edges_deleted: 0 };
    let first: number | null = null;
    let last: number | null = null;
    for (const op of args.ops) {
      if (op.op === "branch") {
        refuseReservedName(op.name);
        createBranch(ctx, op.name, requireBranch(ctx.db, op.from ?? "main"));
        branches++;
        continue;
      }
      if (op.op === "graph") {
        const branch = requireBranch(ctx.db, op.branch ?? "main");
        const target = { ctx, branch, sources: sourcesOf(ctx.db, branch), doc: op.doc ?? DEFAULT_GRAPH_DOC };
        op.ops.forEach((graphOp, index) => {
          const row = applyOp(target, graphOp, index, applied);
          first ??= row.seq;
          last = row.seq;
        });
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
    ctx.journal({ target: "workspace", summary: `imported ${branches} branches, ${notes} notes, ${graphOps} graph ops` });
    return { branches_created: branches, notes_imported: notes, graph_ops_applied: graphOps, first_seq: first, last_seq: last };
  },
});

export const WORKSPACE_COMMANDS = [workspaceImport];
