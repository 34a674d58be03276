/**
 * `think.idea.branch.merge` (seed 002, alias `idea.branch.merge`): merge an idea branch's findings back
 * into the narrative it branched from — its base. Notes as `merge` copies them (idempotent), the graph as
 * `graph_merge` decides it (3-way, conflicts recorded, never resolved silently), one page of each per
 * call. The idea branch is `from`, else the caller's checkout (where `macro_branch_note` left it).
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { branchById, checkoutOf, requireBranch } from "../../place/branches.store";
import { DEFAULT_DOCS } from "../../place/documents";
import { fail } from "../../shared/errors";
import { MAX_MERGE_PAGE } from "../../shared/limits";
import { branchArg, docSchema } from "../docs/docs.schema";
import { mergeNotes } from "../docs/notes-merge";
import { paginationSchema } from "../docs/paging";
import { DEFAULT_GRAPH_DOC, graphDocSchema, graphMergeFields } from "../graph/graph.schema";
import { MAX_MERGE_KEYS, mergeGraph } from "../graph/graph-merge";

export const ideaBranchMerge = defineCommand({
  name: "think.idea.branch.merge",
  tool: "idea_branch_merge",
  aliases: ["idea.branch.merge"],
  title: "Merge an idea branch back",
  description: `Merge an idea branch (from; default: your checkout) back into its base: its notes as merge copies them (idempotent; a second call copies nothing), its graph 3-way as graph_merge (keys both sides changed become conflicts to resolve with graph_conflict_resolve). One page of each per call (${MAX_MERGE_PAGE} notes, ${MAX_MERGE_KEYS} graph keys); while has_more, call again with notes_cursor and graph_cursor from the answer. dry_run only counts.`,
  kind: "write",
  idempotent: true,
  input: {
    from: branchArg.optional().describe("The idea branch; default: your checkout."),
    notes_doc: docSchema.optional().describe("Notes document; default `notes`."),
    graph_doc: graphDocSchema,
    notes_cursor: z.number().int().min(0).optional().describe("notes.pagination.next_cursor of the previous call."),
    graph_cursor: z.number().int().min(0).optional().describe("graph.pagination.next_cursor of the previous call."),
    dry_run: z.boolean().default(false),
  },
  output: {
    from: z.string(),
    into: z.string(),
    notes: z.object({ doc: z.string(), merged: z.number(), skipped: z.number(), pagination: paginationSchema }),
    graph: z.object({ doc: z.string(), ...graphMergeFields, pagination: paginationSchema }),
    has_more: z.boolean(),
    dry_run: z.boolean(),
  },
  handler: (ctx, args) => {
    const from = args.from === undefined ? checkoutOf(ctx.db, ctx.principal.agent_id) : requireBranch(ctx.db, args.from);
    if (from.base_id === null) {
      fail(
        "MERGE_NOT_SUPPORTED",
        `Branch "${from.name}" is not an idea branch: it has no base to merge back into.`,
        "Pass from: the idea branch (macro_branch_note with name creates one from your checkout), or check it out first.",
        { from: from.name },
      );
    }
    const into = branchById(ctx.db, from.base_id);
    const notesDoc = args.notes_doc ?? DEFAULT_DOCS.notes;
    const graphDoc = args.graph_doc ?? DEFAULT_GRAPH_DOC;
    const notes = mergeNotes(ctx, from, into, notesDoc, { cursor: args.notes_cursor, limit: MAX_MERGE_PAGE, dry_run: args.dry_run });
    const graph = mergeGraph(ctx, from, into, graphDoc, { cursor: args.graph_cursor, limit: MAX_MERGE_KEYS, dry_run: args.dry_run });
    const { dry_run: _notesDry, ...notesPart } = notes;
    const { dry_run: _graphDry, diff_summary: _summary, ...graphPart } = graph;
    return {
      from: from.name,
      into: into.name,
      notes: { doc: notesDoc, ...notesPart },
      graph: { doc: graphDoc, ...graphPart },
      has_more: notes.pagination.has_more || graph.pagination.has_more,
      dry_run: args.dry_run,
    };
  },
});
