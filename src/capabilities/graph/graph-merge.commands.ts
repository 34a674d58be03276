/**
 * Graph merge-back with first-class conflicts (seed 001 "Conflicts & merge back"): `graph_merge`
 * walks the keys `from` changed since branching (its own current versions, oldest first) and decides
 * each 3-way against the base snapshot and `into`; `graph_conflicts`, `graph_conflict_show` and
 * `graph_conflict_resolve` work the conflicts it records.
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { defineCommand } from "../../commands/registry";
import { type Branch, branchById, requireBranch } from "../../place/branches.store";
import { fail } from "../../shared/errors";
import { MAX_LIST_LIMIT } from "../../shared/limits";
import { topPageBudget } from "../../shared/top-page";
import { branchArg } from "../docs/docs.schema";
import { paginationSchema } from "../docs/paging";
import { conflictById, conflictPage, markResolved } from "./conflicts.store";
import { conflictSummarySchema, DEFAULT_GRAPH_DOC, graphDocSchema, graphMergeFields } from "./graph.schema";
import { fieldsOf, versionsBySeq, writeVersion } from "./graph.store";
import { MAX_MERGE_KEYS, mergeGraph } from "./graph-merge";

const conflictIdSchema = z.string().regex(/^CONFLICT-[0-9a-f]{32}$/, "conflict ids look like CONFLICT- followed by 32 hex digits");

function mergeTarget(ctx: CommandContext, from: Branch, into: string | undefined, toBase: boolean): Branch {
  if (from.base_id === null) {
    fail(
      "MERGE_NOT_SUPPORTED",
      `Branch "${from.name}" has no base: graph merges go back into the base.`,
      "Merge a derived branch into its base.",
      {
        from: from.name,
      },
    );
  }
  const base = branchById(ctx.db, from.base_id);
  if (into !== undefined && !toBase && requireBranch(ctx.db, into).id !== base.id) {
    fail(
      "MERGE_NOT_SUPPORTED",
      `Graph merges go back into the base only: "${from.name}" is based on "${base.name}", not "${into}".`,
      "Use merge_to_base=true, or set `into` to the base.",
      {
        from: from.name,
        into,
        base: base.name,
      },
    );
  }
  return base;
}

export const graphMerge = defineCommand({
  name: "graph.merge",
  tool: "graph_merge",
  title: "Merge a graph back",
  description:
    "3-way merge of the graph keys `from` changed since branching into its base (`into` must be the base; merge_to_base=true resolves it). Unchanged or already-equal keys are skipped, keys only `from` changed are applied, keys both changed become conflicts (deterministic ids; never duplicated, never resurrected once resolved). dry_run previews. Page with cursor = next_cursor.",
  kind: "write",
  idempotent: true,
  input: {
    from: branchArg.describe("Derived branch whose changes go back."),
    into: branchArg.optional().describe("Must be the base of `from`."),
    doc: graphDocSchema,
    cursor: z.number().int().min(0).optional().describe("Continue after this seq (from next_cursor)."),
    limit: z.number().int().min(1).max(MAX_MERGE_KEYS).default(MAX_MERGE_KEYS),
    dry_run: z.boolean().default(false),
    merge_to_base: z.boolean().default(false),
  },
  output: {
    from: z.string(),
    into: z.string(),
    doc: z.string(),
    ...graphMergeFields,
    diff_summary: z.object({
      nodes_changed: z.number(),
      edges_changed: z.number(),
      node_fields_changed: z.number(),
      edge_fields_changed: z.number(),
    }),
    dry_run: z.boolean(),
    pagination: paginationSchema,
  },
  handler: (ctx, args) => {
    const from = requireBranch(ctx.db, args.from);
    const into = mergeTarget(ctx, from, args.into, args.merge_to_base);
    const doc = args.doc ?? DEFAULT_GRAPH_DOC;
    return { from: from.name, into: into.name, doc, ...mergeGraph(ctx, from, into, doc, args) };
  },
});

export const graphConflicts = defineCommand({
  name: "graph.conflicts",
  tool: "graph_conflicts",
  title: "List merge conflicts",
  description:
    "Conflicts recorded for a merge destination, oldest first (by ordinal), optionally by status. Page with cursor = next_cursor.",
  kind: "read",
  input: {
    into: branchArg.describe("Merge destination."),
    doc: graphDocSchema,
    status: z.enum(["open", "resolved"]).optional(),
    cursor: z.number().int().positive().optional(),
    limit: z.number().int().min(1).max(MAX_LIST_LIMIT).default(50),
  },
  output: {
    into: z.string(),
    doc: z.string(),
    conflicts: z.array(
      conflictSummarySchema.extend({
        ordinal: z.number().describe("The conflict's place in creation order: a page continues after the last one (cursor)."),
        created_at_ms: z.number(),
      }),
    ),
    next_cursor: z.number().optional(),
    has_more: z.boolean(),
    truncated: z.boolean(),
  },
  budget: topPageBudget("conflicts", "ordinal", ["conflict_id", "status"]),
  handler: (ctx, args) => {
    const into = requireBranch(ctx.db, args.into);
    const doc = args.doc ?? DEFAULT_GRAPH_DOC;
    const page = conflictPage(ctx.db, into.id, doc, args.status, args.cursor, args.limit);
    const last = page.rows[page.rows.length - 1];
    return {
      into: into.name,
      doc,
      conflicts: page.rows.map((row) => ({
        conflict_id: row.conflict_id,
        kind: row.kind,
        key: row.key,
        status: row.status,
        ordinal: row.ordinal,
        created_at_ms: row.created_at_ms,
      })),
      ...(page.has_more && last ? { next_cursor: last.ordinal } : {}),
      has_more: page.has_more,
      truncated: false,
    };
  },
});

function requireConflict(ctx: CommandContext, id: string) {
  const row = conflictById(ctx.db, id);
  if (!row) fail("UNKNOWN_ID", `Unknown conflict "${id}".`, "Call graph_conflicts with the merge destination.", { conflict_id: id });
  return row;
}

export const graphConflictShow = defineCommand({
  name: "graph.conflict.show",
  tool: "graph_conflict_show",
  title: "Show a conflict",
  description: "One conflict with its base, theirs (from) and ours (into) snapshots.",
  kind: "read",
  input: { conflict_id: conflictIdSchema },
  output: { conflict: z.object({ conflict_id: z.string(), kind: z.string(), key: z.string(), status: z.string() }).loose() },
  handler: (ctx, args) => {
    const row = requireConflict(ctx, args.conflict_id);
    return {
      conflict: {
        conflict_id: row.conflict_id,
        kind: row.kind,
        key: row.key,
        from: branchById(ctx.db, row.from_branch_id).name,
        into: branchById(ctx.db, row.into_branch_id).name,
        doc: row.doc,
        status: row.status,
        base: JSON.parse(row.base_json ?? "null") as unknown,
        theirs: JSON.parse(row.theirs_json) as unknown,
        ours: JSON.parse(row.ours_json ?? "null") as unknown,
        created_at_ms: row.created_at_ms,
        ...(row.resolved_at_ms === null ? {} : { resolved_at_ms: row.resolved_at_ms, resolution: row.resolution }),
      },
    };
  },
});

export const graphConflictResolve = defineCommand({
  name: "graph.conflict.resolve",
  tool: "graph_conflict_resolve",
  title: "Resolve a conflict",
  description:
    "use_from writes the `from` snapshot into `into` as a new version; use_into keeps `into` as it is. Both mark the conflict resolved; resolving twice changes nothing.",
  kind: "write",
  idempotent: true,
  input: { conflict_id: conflictIdSchema, resolution: z.enum(["use_from", "use_into"]) },
  output: { conflict_id: z.string(), status: z.literal("resolved"), resolution: z.string(), applied: z.boolean() },
  handler: (ctx, args) => {
    const row = requireConflict(ctx, args.conflict_id);
    if (row.status === "resolved") {
      return { conflict_id: row.conflict_id, status: "resolved" as const, resolution: row.resolution ?? args.resolution, applied: false };
    }
    let applied = false;
    if (args.resolution === "use_from") {
      const theirs = versionsBySeq(ctx.db, [row.theirs_seq])[0];
      if (!theirs) throw new Error(`conflict ${row.conflict_id} names a missing version ${row.theirs_seq}`);
      const fields = fieldsOf(theirs);
      writeVersion(ctx, branchById(ctx.db, row.into_branch_id), row.doc, {
        ...fields,
        meta: {
          ...(fields.meta ?? {}),
          _merge: { from: branchById(ctx.db, row.from_branch_id).name, from_seq: theirs.seq, conflict: row.conflict_id },
        },
      });
      applied = true;
    }
    markResolved(ctx.db, row.conflict_id, args.resolution, ctx.nowMs);
    ctx.journal({ target: row.conflict_id, summary: `conflict resolved: ${args.resolution}` });
    return { conflict_id: row.conflict_id, status: "resolved" as const, resolution: args.resolution, applied };
  },
});
