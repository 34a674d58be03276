/**
 * Trace tools (seed 001 "Trace tools (v0.2)"): append structured steps to a trace document, number
 * steps within named sequences, read a bounded compact slice for resumption and check a window of
 * the trace against its invariants. Steps are ordinary append-only note entries whose `meta.trace`
 * holds the step's structure, so show, diff, merge and export see them like any other entry.
 *
 * Aim (seed 001 think/trace defaults): an explicit `target` (its trace doc on its reasoning branch;
 * branch and doc must then be omitted) > an explicit `branch` (+ `doc`, default `trace`) > the
 * caller's checkout. Trace tools never fall back to the focus.
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { defineCommand } from "../../commands/registry";
import { type Branch, sourcesOf } from "../../place/branches.store";
import { DEFAULT_DOCS } from "../../place/documents";
import { reasoningScope, refuseDocWithTarget } from "../../place/scope";
import type { TargetArg } from "../../place/target.schema";
import { fail } from "../../shared/errors";
import { toEntry } from "../docs/docs.store";
import { entryView, entryViewSchema } from "../docs/entry-view";
import { cursorSchema, paginationSchema, repairPagination, tailPagination } from "../docs/paging";
import { refuseReservedMeta } from "../docs/reserved-meta";
import { writeNote } from "../vcs/note-write";
import { compactPage, sequenceHeads, validationWindow } from "./trace.reads";
import { numberStep, sequencesNeeded, validateTrace } from "./trace.rules";
import {
  COMPACT_ENTRY_KEEP,
  compactEntrySchema,
  DEFAULT_MAX_ERRORS,
  DEFAULT_SEQUENCE,
  DEFAULT_VALIDATE_WINDOW,
  hydrateLimitSchema,
  MAX_MAX_ERRORS,
  MAX_VALIDATE_WINDOW,
  SEQUENCE_LOOKBACK,
  sequenceNameSchema,
  sequenceSummarySchema,
  stepFields,
  stepNumberSchema,
  TRACE_PREVIEW_CHARS,
  traceAimFields,
  traceErrorSchema,
} from "./trace.schema";

interface TraceScope {
  branch: Branch;
  doc: string;
  target: string | null;
}

function traceScope(
  ctx: CommandContext,
  args: {
    target?: TargetArg | undefined;
    branch?: string | undefined;
    doc?: string | undefined;
  },
  access: "read" | "write",
): TraceScope {
  const scope = reasoningScope(ctx, args, access, { useFocus: false });
  refuseDocWithTarget(scope, args.doc, "Drop doc: a target's steps live in its trace doc.");
  return { branch: scope.branch, doc: scope.ref?.trace_doc ?? args.doc ?? DEFAULT_DOCS.trace, target: scope.target ?? null };
}

interface StepArgs {
  step: string;
  content?: string | undefined;
  message?: string | undefined;
  kind?: string | undefined;
  format?: string | undefined;
  meta?: Record<string, unknown> | undefined;
}

/** Appends one step (sizes checked by writeNote) with `meta = { trace, ...user meta }` and journals it. */
function appendStep(ctx: CommandContext, scope: TraceScope, args: StepArgs, trace: Record<string, unknown>) {
  if (args.content !== undefined && args.message !== undefined) {
    fail("INVALID_INPUT", "content and message are the same field; give one of them.", "Drop message (or content).", {
      fields: ["content", "message"],
    });
  }
  if (args.meta !== undefined && "trace" in args.meta) {
    fail("INVALID_INPUT", "meta.trace is reserved for the step's own fields.", "Rename that meta key; pass step fields as arguments.", {
      fields: ["meta.trace"],
    });
  }
  refuseReservedMeta(args.meta);
  const row = writeNote(ctx, scope.branch, {
    doc: scope.doc,
    title: args.step,
    format: args.format,
    meta: { trace: args.kind === undefined ? trace : { ...trace, kind: args.kind }, ...args.meta },
    content: args.content ?? args.message ?? "",
  });
  ctx.journal({ target: `${scope.branch.name}/${scope.doc}`, summary: `trace step ${row.seq}` });
  return entryView(toEntry(row, scope.branch.name));
}

export const traceStep = defineCommand({
  name: "think.trace.step",
  tool: "trace_step",
  title: "Append a trace step",
  description:
    "Append one structured step (title `step`, text `content` or `message`, optional `kind` such as action/observation/result, small `meta`) to a trace doc. Aim: target (a plan's or task's trace doc; omit branch/doc) > branch + doc (default `trace`) > your checkout; the focus is not used. Append-only; returns the entry with its seq.",
  kind: "write",
  input: { ...traceAimFields, ...stepFields },
  output: { entry: entryViewSchema },
  handler: (ctx, args) => {
    const scope = traceScope(ctx, args, "write");
    return { entry: appendStep(ctx, scope, args, { type: "step" }) };
  },
});

export const traceSequentialStep = defineCommand({
  name: "think.trace.sequential_step",
  tool: "trace_sequential_step",
  title: "Append a numbered trace step",
  description: `Append a step numbered within a named sequence (default \`${DEFAULT_SEQUENCE}\`) of a trace doc. A plain step is last + 1 (omit step_number, or pass exactly that). A revision (revises_step r ≤ last) carries number r and leaves last unchanged. A branch (branch_from_step b, branch_from_sequence default \`${DEFAULT_SEQUENCE}\`) starts a new sequence at b + 1. The last number is read from the newest step of the sequence among the newest ${SEQUENCE_LOOKBACK} entries; beyond that it is unknown and a plain step needs an explicit step_number (a re-anchor). Aim as trace_step.`,
  kind: "write",
  input: {
    ...traceAimFields,
    ...stepFields,
    sequence: sequenceNameSchema.default(DEFAULT_SEQUENCE).describe(`Name of the sequence; default \`${DEFAULT_SEQUENCE}\`.`),
    step_number: stepNumberSchema.optional().describe("Default: last + 1 (a revision: revises_step; a branch: branch_from_step + 1)."),
    total_steps: stepNumberSchema.optional().describe("Current estimate of the sequence's length; may change from step to step."),
    next_step_needed: z.boolean().optional().describe("False when this step ends the sequence."),
    revises_step: stepNumberSchema.optional().describe("Restate step r (1 ≤ r ≤ last) of this sequence."),
    branch_from_step: stepNumberSchema.optional().describe("Start this new sequence after step b of branch_from_sequence."),
    branch_from_sequence: sequenceNameSchema.optional().describe(`Sequence a branch forks from; default \`${DEFAULT_SEQUENCE}\`.`),
  },
  output: {
    entry: entryViewSchema,
    sequence: z.string(),
    step_number: z.number(),
    last_step_number: z.number().describe("The sequence's last number once this step is written."),
    previous_last_step_number: z.number().nullable().describe("Its last number before (null: unknown, a re-anchor)."),
    next_step_number: z.number(),
    reanchored: z.boolean().optional(),
  },
  handler: (ctx, args) => {
    const scope = traceScope(ctx, args, "write");
    const heads = sequenceHeads(ctx.db, sourcesOf(ctx.db, scope.branch), scope.doc, sequencesNeeded(args));
    const numbered = numberStep(args, heads);
    const trace: Record<string, unknown> = {
      type: "sequential",
      sequence: args.sequence,
      step_number: numbered.step_number,
      sequence_last: numbered.sequence_last,
    };
    if (args.total_steps !== undefined) trace.total_steps = args.total_steps;
    if (args.next_step_needed !== undefined) trace.next_step_needed = args.next_step_needed;
    if (args.revises_step !== undefined) trace.revises_step = args.revises_step;
    if (args.branch_from_step !== undefined) {
      trace.branch_from_step = args.branch_from_step;
      trace.branch_from_sequence = args.branch_from_sequence ?? DEFAULT_SEQUENCE;
    }
    if (numbered.reanchored) trace.reanchored = true;
    const entry = appendStep(ctx, scope, args, trace);
    return {
      entry,
      sequence: args.sequence,
      step_number: numbered.step_number,
      last_step_number: numbered.sequence_last,
      previous_last_step_number: numbered.previous_last,
      next_step_number: numbered.sequence_last + 1,
      ...(numbered.reanchored ? { reanchored: true } : {}),
    };
  },
});

export const traceHydrate = defineCommand({
  name: "think.trace.hydrate",
  tool: "trace_hydrate",
  title: "Read a trace slice for resumption",
  description: `Bounded slice of a trace doc to resume from: the newest \`limit\` entries (default 20, max 200), oldest-first, each compact (seq, ts_ms, kind, title, content cut to ${TRACE_PREVIEW_CHARS} characters with content_truncated, and meta.trace). Page older with cursor = next_cursor; a budget drops the oldest entries first and moves next_cursor to the oldest one shown. Aim as trace_step (read: the target's branch must exist).`,
  kind: "read",
  input: { ...traceAimFields, cursor: cursorSchema, limit: hydrateLimitSchema },
  output: {
    target: z.string().nullable(),
    branch: z.string(),
    doc: z.string(),
    entries: z.array(compactEntrySchema),
    pagination: paginationSchema,
    truncated: z.boolean(),
  },
  budget: { lists: ["entries"], keep: COMPACT_ENTRY_KEEP, repair: repairPagination("entries") },
  handler: (ctx, args) => {
    const scope = traceScope(ctx, args, "read");
    const page = compactPage(ctx.db, sourcesOf(ctx.db, scope.branch), scope.doc, args.cursor, args.limit);
    return {
      target: scope.target,
      branch: scope.branch.name,
      doc: scope.doc,
      entries: page.entries,
      pagination: tailPagination(
        page.entries.map((entry) => entry.seq),
        page.has_more,
        args.cursor,
        args.limit,
      ),
      truncated: false,
    };
  },
});

export const traceValidate = defineCommand({
  name: "think.trace.validate",
  tool: "trace_validate",
  title: "Validate a trace",
  description: `Check the newest \`window\` entries (default ${DEFAULT_VALIDATE_WINDOW}, max ${MAX_VALIDATE_WINDOW}; older ones with cursor = next_cursor) of a trace doc: entries in seq order, every step titled and well-formed, and each sequence numbered without gaps or duplicates except declared revisions (same number as the revised step) and branches (first step = branch_from_step + 1). When the window does not reach the start of the doc (window.complete false), a sequence's first step in it is taken as given. Lists at most max_errors errors and counts all. Aim as trace_step.`,
  kind: "read",
  input: {
    ...traceAimFields,
    window: z
      .number()
      .int()
      .min(1)
      .max(MAX_VALIDATE_WINDOW)
      .default(DEFAULT_VALIDATE_WINDOW)
      .describe(`Newest entries checked (1-${MAX_VALIDATE_WINDOW}).`),
    cursor: cursorSchema,
    max_errors: z.number().int().min(1).max(MAX_MAX_ERRORS).default(DEFAULT_MAX_ERRORS),
  },
  output: {
    target: z.string().nullable(),
    branch: z.string(),
    doc: z.string(),
    ok: z.boolean(),
    checked: z.number(),
    steps: z.number(),
    window: z.object({
      limit: z.number(),
      complete: z.boolean().describe("True when the window reaches the start of the doc."),
      from_seq: z.number().nullable(),
      to_seq: z.number().nullable(),
    }),
    ordered: z.boolean(),
    errors: z.array(traceErrorSchema),
    error_count: z.number(),
    errors_truncated: z.boolean(),
    sequences: z.record(z.string(), sequenceSummarySchema),
    next_cursor: z.number().optional(),
    truncated: z.boolean(),
  },
  budget: { lists: ["errors"], keep: ["code", "seq"] },
  handler: (ctx, args) => {
    const scope = traceScope(ctx, args, "read");
    const { rows, complete } = validationWindow(ctx.db, sourcesOf(ctx.db, scope.branch), scope.doc, args.cursor, args.window);
    const report = validateTrace(rows, { complete, maxErrors: args.max_errors });
    const first = rows[0]?.seq ?? null;
    return {
      target: scope.target,
      branch: scope.branch.name,
      doc: scope.doc,
      ok: report.error_count === 0,
      checked: rows.length,
      steps: report.steps,
      window: { limit: args.window, complete, from_seq: first, to_seq: rows[rows.length - 1]?.seq ?? null },
      ordered: report.ordered,
      errors: report.errors,
      error_count: report.error_count,
      errors_truncated: report.error_count > report.errors.length,
      sequences: report.sequences,
      ...(!complete && first !== null ? { next_cursor: first } : {}),
      truncated: false,
    };
  },
});
