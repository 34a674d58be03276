/**
 * Reasoning documents (seed 001 Milestone 2-3): read a bounded tail of a document's effective view,
 * diff two branches, merge notes idempotently, export a resumption snapshot and list documents. Notes
 * are append-only (`vcs.notes.commit` writes them); nothing here rewrites history.
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { defineCommand } from "../../commands/registry";
import { type Branch, branchById, requireBranch, sourcesOf } from "../../place/branches.store";
import { DEFAULT_DOCS } from "../../place/documents";
import { reasoningScope, refuseDocWithTarget, targetBranch } from "../../place/scope";
import { targetSchema } from "../../place/target.schema";
import type { BudgetSpec } from "../../shared/budget";
import { fail } from "../../shared/errors";
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT, MAX_MERGE_PAGE, MAX_PAGE_LIMIT } from "../../shared/limits";
import { branchArg, docSchema, ENTRY_KEEP } from "./docs.schema";
import { diffPage, documentsOf, namer, toEntry } from "./docs.store";
import { entryView, entryViewSchema, pageView } from "./entry-view";
import { mergeNotes } from "./notes-merge";
import { cursorSchema, limitSchema, paginationSchema, repairPagination, tailPagination } from "./paging";
import { contentCap, readerLane, readTail } from "./tail";

/** Other agents' drafts (entries their card writes left in their lane) are left out unless asked for. */
const allLanesArg = z.boolean().default(false).describe("Every agent's drafts too, not only the shared lane and yours.");

/** A page of entries (show, diff): trimmed oldest-first, with a cursor back to what the budget dropped. */
const ENTRY_PAGE_OUTPUT = { entries: z.array(entryViewSchema), pagination: paginationSchema, truncated: z.boolean() };
const ENTRY_PAGE_BUDGET: BudgetSpec = { lists: ["entries"], keep: ENTRY_KEEP, repair: repairPagination("entries") };

function docFor(doc: string | undefined, docKind: "notes" | "trace" | undefined): string {
  return doc ?? DEFAULT_DOCS[docKind ?? "trace"];
}

export const show = defineCommand({
  name: "docs.show",
  tool: "show",
  title: "Read a document",
  description:
    "Bounded tail of a document's effective view (base snapshot + branch entries), oldest-first within the page. Aim it at a plan or task with target (default: your focus; its notes or trace doc by doc_kind), or at a branch (default: your checkout) and doc. `doc` defaults from `doc_kind` (default `trace`). Page with `cursor` = `next_cursor`.",
  kind: "read",
  input: {
    target: targetSchema.optional(),
    branch: branchArg.optional(),
    doc: docSchema.optional(),
    doc_kind: z.enum(["notes", "trace"]).optional(),
    cursor: cursorSchema,
    limit: limitSchema,
    all_lanes: allLanesArg,
  },
  output: { branch: z.string(), doc: z.string(), ...ENTRY_PAGE_OUTPUT },
  budget: ENTRY_PAGE_BUDGET,
  handler: (ctx, args) => {
    const scope = reasoningScope(ctx, args, "read");
    refuseDocWithTarget(scope, args.doc, "Drop doc and pick notes or trace with doc_kind.");
    const branch = scope.branch;
    const doc = scope.ref ? (args.doc_kind === "notes" ? scope.ref.notes_doc : scope.ref.trace_doc) : docFor(args.doc, args.doc_kind);
    return {
      branch: branch.name,
      doc,
      ...pageView(readTail(ctx, branch, doc, args.cursor, args.limit, undefined, args.all_lanes), { branch: branch.name, doc }),
      truncated: false,
    };
  },
});

export const diff = defineCommand({
  name: "docs.diff",
  tool: "diff",
  title: "Diff two branches",
  description:
    "Entries present in the effective view of `to` but not of `from` (directional; reverse the arguments for the other side). A merged copy counts as present, so a diff is empty after a merge.",
  kind: "read",
  input: {
    from: nameSchemaFor("Branch to compare against."),
    to: nameSchemaFor("Branch whose extra entries are listed."),
    doc: docSchema.optional().describe("Document; default `notes`."),
    cursor: cursorSchema,
    limit: limitSchema,
    all_lanes: allLanesArg,
  },
  output: { from: z.string(), to: z.string(), doc: z.string(), ...ENTRY_PAGE_OUTPUT },
  budget: ENTRY_PAGE_BUDGET,
  handler: (ctx, args) => {
    const from = requireBranch(ctx.db, args.from);
    const to = requireBranch(ctx.db, args.to);
    const doc = args.doc ?? DEFAULT_DOCS.notes;
    const toSources = sourcesOf(ctx.db, to);
    const page = diffPage(ctx.db, sourcesOf(ctx.db, from), toSources, doc, {
      before: args.cursor,
      limit: args.limit,
      order: "newest",
      contentChars: contentCap(ctx),
      lane: readerLane(ctx, args.all_lanes),
    });
    const name = namer(ctx.db, toSources);
    const entries = page.rows.reverse().map((row) => toEntry(row, name(row.branch_id)));
    return {
      from: from.name,
      to: to.name,
      doc,
      entries: entries.map((entry) => entryView(entry, { branch: to.name, doc })),
      pagination: tailPagination(
        entries.map((entry) => entry.seq),
        page.has_more,
        args.cursor,
        args.limit,
      ),
      truncated: false,
    };
  },
});

function nameSchemaFor(description: string) {
  return branchArg.describe(description);
}

export const merge = defineCommand({
  name: "docs.merge",
  tool: "merge",
  title: "Merge notes",
  description:
    "Copy the notes of `from` that `into` lacks (idempotent: a second merge copies nothing). `into` defaults to `from`'s base. Walks oldest-first; when `has_more`, call again with `cursor` = `next_cursor`. `dry_run` only counts.",
  kind: "write",
  idempotent: true,
  input: {
    from: branchArg.describe("Branch whose notes are copied."),
    into: branchArg.optional().describe("Destination; default the base of `from`."),
    doc: docSchema.optional().describe("Document; default `notes`."),
    cursor: z.number().int().min(0).optional().describe("Continue after this seq (from next_cursor)."),
    limit: z.number().int().min(1).max(MAX_MERGE_PAGE).default(MAX_MERGE_PAGE).describe("Entries examined per call."),
    dry_run: z.boolean().default(false),
    merge_to_base: z.boolean().default(false).describe("Merge into the base of `from` (explicit merge-back)."),
  },
  output: {
    from: z.string(),
    into: z.string(),
    doc: z.string(),
    merged: z.number(),
    skipped: z.number(),
    dry_run: z.boolean(),
    pagination: paginationSchema,
  },
  handler: (ctx, args) => {
    const from = requireBranch(ctx.db, args.from);
    const into = mergeDestination(ctx, from, args.into, args.merge_to_base);
    const doc = args.doc ?? DEFAULT_DOCS.notes;
    return { from: from.name, into: into.name, doc, ...mergeNotes(ctx, from, into, doc, args) };
  },
});

function mergeDestination(ctx: CommandContext, from: Branch, into: string | undefined, toBase: boolean): Branch {
  const baseBranch = from.base_id === null ? undefined : branchById(ctx.db, from.base_id);
  if (toBase || into === undefined) {
    if (!baseBranch) {
      fail("INVALID_INPUT", `Branch "${from.name}" has no base to merge into.`, "Pass `into` explicitly.", { from: from.name });
    }
    if (into !== undefined && into !== baseBranch.name) {
      fail("MERGE_NOT_SUPPORTED", `merge_to_base merges into "${baseBranch.name}", not "${into}".`, "Omit `into`, or drop merge_to_base.", {
        base: baseBranch.name,
        into,
      });
    }
    return baseBranch;
  }
  const target = requireBranch(ctx.db, into);
  if (target.id === from.id) fail("INVALID_INPUT", "A branch cannot be merged into itself.", "Pick another `into` branch.");
  return target;
}

export const exportSnapshot = defineCommand({
  name: "docs.export",
  tool: "export",
  title: "Export a resumption snapshot",
  description:
    "Bounded snapshot for resuming work: the reasoning refs of a plan or task (target; default: your focus) or of a branch (default: your checkout), and the tails of its notes and trace.",
  kind: "read",
  input: {
    target: targetSchema.optional(),
    branch: branchArg.optional(),
    notes_limit: z.number().int().min(1).max(MAX_PAGE_LIMIT).default(20),
    trace_limit: z.number().int().min(1).max(MAX_PAGE_LIMIT).default(50),
    all_lanes: allLanesArg,
  },
  output: {
    target: z.string().nullable(),
    branch: z.string(),
    reasoning_ref: z.object({
      branch: z.string(),
      notes_doc: z.string(),
      trace_doc: z.string(),
      graph_doc: z.string(),
    }),
    notes: z.object({
      entries: z.array(entryViewSchema),
      pagination: paginationSchema,
    }),
    trace: z.object({
      entries: z.array(entryViewSchema),
      pagination: paginationSchema,
    }),
    truncated: z.boolean(),
  },
  budget: { lists: ["trace.entries", "notes.entries"], keep: ENTRY_KEEP },
  handler: (ctx, args) => {
    const scope = reasoningScope(ctx, args, "read");
    const branch = scope.branch;
    const ref = scope.ref ?? {
      branch: branch.name,
      notes_doc: DEFAULT_DOCS.notes,
      trace_doc: DEFAULT_DOCS.trace,
      graph_doc: DEFAULT_DOCS.graph,
    };
    return {
      target: scope.target ?? null,
      branch: branch.name,
      reasoning_ref: ref,
      notes: pageView(readTail(ctx, branch, ref.notes_doc, undefined, args.notes_limit, undefined, args.all_lanes), {
        branch: ref.branch,
        doc: ref.notes_doc,
      }),
      trace: pageView(readTail(ctx, branch, ref.trace_doc, undefined, args.trace_limit, undefined, args.all_lanes), {
        branch: ref.branch,
        doc: ref.trace_doc,
      }),
      truncated: false,
    };
  },
});

export const docsList = defineCommand({
  name: "docs.list",
  tool: "docs_list",
  title: "List documents",
  description:
    "Documents visible on a branch: its own and those inherited from its bases (written before the cutoff), each with the nearest branch it was written on.",
  kind: "read",
  input: {
    ref: branchArg.optional().describe("Branch; defaults to your checkout."),
    limit: z.number().int().min(1).max(MAX_LIST_LIMIT).default(DEFAULT_LIST_LIMIT),
  },
  output: {
    branch: z.string(),
    docs: z.array(z.object({ doc: z.string(), branch: z.string() })),
  },
  budget: { lists: ["docs"], keep: ["doc"] },
  handler: (ctx, args) => {
    const branch = targetBranch(ctx, args.ref);
    const name = namer(ctx.db);
    const docs = documentsOf(ctx.db, sourcesOf(ctx.db, branch), args.limit).map((doc) => ({ doc: doc.doc, branch: name(doc.branch_id) }));
    return { branch: branch.name, docs };
  },
});
