/**
 * `workspace.import` (admin), in two modes. Bulk ops: an ordered list of branch creations, notes,
 * graph op batches and Record-Sync records applied in one transaction, so large stores are seeded in a
 * few calls instead of one call per entry (benchmarks, migrations from other memories). Records are
 * written exactly as create_record writes them (checkNewRecord and writeNewRecord, one project tick
 * each) by the pseudo-session `import`; no session is started or activated. Restore: the lines of a
 * workspace_export dump (`jsonl`), page by page, into an empty workspace (restore.ts, docs/export.md);
 * `abort_restore` gives up an unfinished restore.
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { defineCommand } from "../../commands/registry";
import { createBranch, refuseReservedName, requireBranch, sourcesOf } from "../../place/branches.store";
import { DEFAULT_DOCS } from "../../place/documents";
import { CommandError, fail } from "../../shared/errors";
import { nameSchema } from "../../shared/names";
import { advance } from "../../storage/clocks";
import { checkContentSize } from "../docs/docs.rules";
import { branchArg, contentFields, docSchema } from "../docs/docs.schema";
import { appendEntry } from "../docs/docs.store";
import { DEFAULT_GRAPH_DOC, graphDocSchema, graphOpSchema, MAX_GRAPH_OPS } from "../graph/graph.schema";
import { type AppliedCounts, applyOp } from "../graph/graph-apply";
import { checkNewRecord, writeNewRecord } from "../records/new-record";
import {
  metadataSchema,
  reasonSchema,
  recordBodySchema,
  recordIdSchema,
  recordSummarySchema,
  recordTitleSchema,
  recordTypeSchema,
  relatedSchema,
  stateSchema,
} from "../records/records.schema";
import { nextRecordNum, type RecordRow, requireRecord } from "../records/records.store";
import { abortRestore, type RestoreOutcome, restorePage } from "./restore";
import { isRestoreCall } from "./restore-state";

/** One call's worth of operations: enough to seed 100k notes in ~100 calls, well under the body cap. */
export const MAX_IMPORT_OPS = 2_000;
/** Graph ops per call, across all `graph` batches: bounds one transaction to about a second of writes. */
export const MAX_IMPORT_GRAPH_OPS = 5_000;
/**
 * The session id imported records, versions and activity entries carry (`modified_by_session`,
 * `by_session`): no session row has it, and real sessions are S001…, so it never matches one.
 */
export const IMPORT_SESSION = "import";
/** One restore page's text: the request body cap (1 MiB) bounds it first; export pages stay below 800,000. */
export const MAX_RESTORE_PAGE_CHARS = 1_000_000;
/** A label for a record within one import, so later record ops can name it as `parent_ref`. */
const importRefSchema = z.string().min(1).max(64);

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
  z.strictObject({
    op: z.literal("record"),
    ref: importRefSchema.optional().describe("Names this record for parent_ref of later record ops in the same import."),
    parent_id: recordIdSchema.optional().describe("The parent: a stored record (one imported earlier counts). Neither parent: a root."),
    parent_ref: importRefSchema.optional().describe("The parent: the record with this ref, earlier in the same import."),
    type: recordTypeSchema,
    title: recordTitleSchema,
    summary: recordSummarySchema.default(""),
    body: recordBodySchema.default(""),
    state: stateSchema.default("OPEN"),
    reason: reasonSchema.optional().describe("For an initial LATER or DISCARDED."),
    resolved_by: recordIdSchema.optional().describe("For an initial RESOLVED: a stored record."),
    related: relatedSchema.optional(),
    metadata: metadataSchema.optional(),
  }),
]);

type ImportOp = z.output<typeof importOp>;
type RecordOp = Extract<ImportOp, { op: "record" }>;

/** The parent a record op names: by id (stored), by ref (earlier in this import), or none (a root). */
function parentOf(ctx: CommandContext, op: RecordOp, refs: Map<string, RecordRow>): RecordRow | null {
  if (op.parent_id !== undefined && op.parent_ref !== undefined) {
    fail("INVALID_INPUT", "A record op names its parent by parent_id or by parent_ref, not both.", "Drop one of the two.", {
      fields: ["parent_id", "parent_ref"],
    });
  }
  if (op.parent_id !== undefined) return requireRecord(ctx.db, op.parent_id, "parent_id");
  if (op.parent_ref === undefined) return null;
  const parent = refs.get(op.parent_ref);
  if (parent) return parent;
  return fail(
    "RECORD_NOT_FOUND",
    `parent_ref "${op.parent_ref}" names no record imported earlier in this call.`,
    "A parent_ref must be the ref of a record op before this one in the same import; across imports, use parent_id.",
    { ref: op.parent_ref, field: "parent_ref" },
  );
}

/** Writes one record op as create_record would (one project tick), without a session; returns the row. */
function importRecord(ctx: CommandContext, op: RecordOp, refs: Map<string, RecordRow>): RecordRow {
  if (op.ref !== undefined && refs.has(op.ref)) {
    fail("INVALID_INPUT", `ref "${op.ref}" is used twice in this import.`, "Give each record op its own ref.", {
      ref: op.ref,
      field: "ref",
    });
  }
  const parent = parentOf(ctx, op, refs);
  const checked = checkNewRecord(ctx, parent, op);
  const num = nextRecordNum(ctx.db);
  const row = writeNewRecord(ctx, op, checked, parent, { num, tick: advance(ctx.db, "project_tick"), session_id: IMPORT_SESSION });
  if (op.ref !== undefined) refs.set(op.ref, row);
  return row;
}

/** A record op's failure, with the op's index in the import (as graph op failures carry theirs). */
function atOp(error: unknown, index: number): unknown {
  if (!(error instanceof CommandError)) return error;
  const { message, details } = error.error;
  return new CommandError({ ...error.error, message: `ops[${index}]: ${message}`, details: { ...details, op_index: index } });
}

type ImportResult = {
  branches_created: number;
  notes_imported: number;
  graph_ops_applied: number;
  first_seq: number | null;
  last_seq: number | null;
  records_imported: number;
  first_record_id: string | null;
  last_record_id: string | null;
  record_refs: Record<string, string>;
};

/** Bulk ops: every op in order, in the call's transaction; any failure rolls the whole import back. */
function importOps(ctx: CommandContext, ops: ImportOp[]): ImportResult {
  const graphOps = ops.reduce((total, op) => total + (op.op === "graph" ? op.ops.length : 0), 0);
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
  const refs = new Map<string, RecordRow>();
  let records = 0;
  let firstRecord: string | null = null;
  let lastRecord: string | null = null;
  for (const [index, op] of ops.entries()) {
    if (op.op === "record") {
      let row: RecordRow;
      try {
        row = importRecord(ctx, op, refs);
      } catch (error) {
        throw atOp(error, index);
      }
      firstRecord ??= row.id;
      lastRecord = row.id;
      records++;
      continue;
    }
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
  const recordsNote = records > 0 ? `, ${records} records (${firstRecord}…${lastRecord})` : "";
  ctx.journal({ target: "workspace", summary: `imported ${branches} branches, ${notes} notes, ${graphOps} graph ops${recordsNote}` });
  return {
    branches_created: branches,
    notes_imported: notes,
    graph_ops_applied: graphOps,
    first_seq: first,
    last_seq: last,
    records_imported: records,
    first_record_id: firstRecord,
    last_record_id: lastRecord,
    record_refs: Object.fromEntries([...refs].map(([ref, row]) => [ref, row.id])),
  };
}

/** Exactly one mode per call. */
function modeOf(args: { ops?: unknown; jsonl?: unknown; abort_restore?: unknown; idempotency_key?: unknown }): "ops" | "jsonl" | "abort" {
  const given = (["ops", "jsonl", "abort_restore"] as const).filter((field) => args[field] !== undefined);
  if (given.length !== 1) {
    fail(
      "INVALID_INPUT",
      given.length === 0
        ? "workspace_import needs ops, jsonl or abort_restore."
        : `workspace_import takes one of ops, jsonl and abort_restore, not ${given.join(" and ")}.`,
      "Pass ops to bulk-import, jsonl (a workspace_export page) to restore, or abort_restore: true to give up a restore.",
      { fields: given },
    );
  }
  if (given[0] !== "ops" && args.idempotency_key !== undefined) {
    fail(
      "INVALID_INPUT",
      "A restore call takes no idempotency_key: each line is applied once, and a repeated page is refused (RESTORE_OUT_OF_ORDER).",
      "Drop idempotency_key; to retry a failed page, send it again.",
      { field: "idempotency_key" },
    );
  }
  return given[0] === "ops" ? "ops" : given[0] === "jsonl" ? "jsonl" : "abort";
}

const restoreSchema = z
  .object({
    status: z.enum(["in_progress", "complete", "aborted"]),
    source_workspace: z.string().describe("The workspace the export came from."),
    first_line: z.number().nullable(),
    last_line: z.number().nullable(),
    lines_applied: z.number(),
    rows_applied: z.number(),
    next_line: z.number().nullable().describe("The line the next call must start with; null once complete or aborted."),
    tick: z.number().optional().describe("When complete: the restored workspace tick."),
    seq: z.number().optional().describe("When complete: the restored seq."),
  })
  .describe("Restore calls only.");

export const workspaceImport = defineCommand({
  name: "workspace.import",
  tool: "workspace_import",
  title: "Bulk import or restore (admin)",
  description: `Two modes, exactly one per call. ops: apply up to ${MAX_IMPORT_OPS} operations (create a branch, append a note, apply a batch of graph ops — at most ${MAX_IMPORT_GRAPH_OPS} graph ops in all —, create a Record-Sync record) in order, in one transaction: any failure rolls the whole import back. Records are written as create_record writes them (ids R001…, version 1, search index, activity, one project tick each) by the pseudo-session "import", without starting or activating a session; parent_ref names a record op earlier in the same import by its ref. jsonl: restore — the lines of a workspace_export dump, in order over as many calls as needed (one transaction each), into an empty workspace, with the same ids, seqs and ticks; until the trailer arrives every other write is refused (RESTORE_IN_PROGRESS); a page that does not start at the expected line is refused (RESTORE_OUT_OF_ORDER, details.expected_line). abort_restore: true gives up an unfinished restore and empties the workspace. Admin tokens only.`,
  kind: "write",
  requiresRole: "admin",
  // A restore page is the server's own stored rows: they come back byte for byte, placeholders included.
  verbatim: ["jsonl"],
  // Its hashes (a digest, a code slice's sha256) are over the stored text, redacted or not when first written.
  redaction: { keep: ["jsonl"] },
  isRestore: isRestoreCall,
  example: { ops: [{ op: "note", content: "Seeded note" }] },
  input: {
    ops: z.array(importOp).min(1).max(MAX_IMPORT_OPS).optional().describe("Bulk ops. Exactly one of ops, jsonl, abort_restore."),
    jsonl: z
      .string()
      .min(1)
      .max(MAX_RESTORE_PAGE_CHARS)
      .optional()
      .describe(
        "Restore: consecutive lines of a workspace_export dump (e.g. one page's jsonl, as returned), starting at the line the restore expects (0: the header).",
      ),
    abort_restore: z
      .literal(true)
      .optional()
      .describe("Give up an unfinished restore: every restored row goes, the workspace is empty again."),
  },
  output: {
    branches_created: z.number().optional(),
    notes_imported: z.number().optional(),
    graph_ops_applied: z.number().optional(),
    first_seq: z.number().nullable().optional(),
    last_seq: z.number().nullable().optional(),
    records_imported: z.number().optional(),
    first_record_id: z.string().nullable().optional().describe("The first record id imported (ids are given in op order)."),
    last_record_id: z.string().nullable().optional(),
    record_refs: z.record(z.string(), z.string()).optional().describe("Each ref given to a record op, and the id it got."),
    restore: restoreSchema.optional(),
  },
  handler: (ctx, args): ImportResult | { restore: RestoreOutcome } => {
    const mode = modeOf(args);
    if (mode === "jsonl") return { restore: restorePage(ctx, args.jsonl as string) };
    if (mode === "abort") return { restore: abortRestore(ctx) };
    return importOps(ctx, args.ops as ImportOp[]);
  },
});
