/**
 * Zod shapes and bounds of the trace tools (seed 001 "Trace tools (v0.2)"): the step fields shared by
 * `trace_step` and `trace_sequential_step`, the aim fields (target, or branch + doc), the compact entry
 * `trace_hydrate` returns and the error list of `trace_validate`. The bounds are trace-specific, so
 * they live beside the schemas that use them; each says why it has its value.
 */
import { z } from "zod";
import { targetSchema } from "../../place/target.schema";
import { DEFAULT_PAGE_LIMIT, MAX_CONTENT_BYTES, MAX_PAGE_LIMIT, MAX_TITLE_CHARS } from "../../shared/limits";
import { branchArg, docSchema } from "../docs/docs.schema";

/** Hydrate previews: enough to recognise a step; a default page of 20 stays near the 6k portal budget. */
export const TRACE_PREVIEW_CHARS = 280;
/** Validation window: rows are read without content, so 1000 rows cost only their (small) meta. */
export const DEFAULT_VALIDATE_WINDOW = 200;
export const MAX_VALIDATE_WINDOW = 1000;
/**
 * How far back `trace_sequential_step` looks for the newest step of a sequence. Equal to the largest
 * validation window, so `trace_validate` can always see the entries the numbering relied on.
 */
export const SEQUENCE_LOOKBACK = MAX_VALIDATE_WINDOW;
/** The lookback reads pages of this size and stops at the first hit: an active sequence costs one page. */
export const SEQUENCE_LOOKUP_PAGE = 100;
/** Errors listed by `trace_validate`: the first ones point at the problem; the rest are only counted. */
export const DEFAULT_MAX_ERRORS = 50;
export const MAX_MAX_ERRORS = 500;
/** Step kinds and sequence names are labels, not text: short identifiers keep `meta.trace` small. */
export const MAX_STEP_KIND_CHARS = 32;
export const MAX_SEQUENCE_NAME_CHARS = 64;
/** Step numbers: far beyond any real reasoning sequence, and an exact integer in JSON everywhere. */
export const MAX_STEP_NUMBER = 1_000_000;
/** The sequence a numbered step joins when none is named. */
export const DEFAULT_SEQUENCE = "main";

const LABEL = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;

export const stepKindSchema = z
  .string()
  .min(1)
  .max(MAX_STEP_KIND_CHARS)
  .regex(LABEL, "letters, digits and _ . : - ; starting with a letter or digit")
  .describe("Kind of step, a free label such as `action`, `observation`, `decision` or `result`.");

export const sequenceNameSchema = z
  .string()
  .min(1)
  .max(MAX_SEQUENCE_NAME_CHARS)
  .regex(LABEL, "letters, digits and _ . : - ; starting with a letter or digit");

export const stepNumberSchema = z.number().int().min(1).max(MAX_STEP_NUMBER);

/** Where a trace tool acts: a plan or task (its trace doc on its reasoning branch), or branch + doc. */
export const traceAimFields = {
  target: targetSchema
    .optional()
    .describe("Plan or task: `TASK-001` or `{id, kind}`; the step goes to its trace doc. Omit branch and doc with it."),
  branch: branchArg.optional(),
  doc: docSchema.optional().describe("Document; default `trace`. Not allowed with target."),
};

/** The text fields of a step; `content` and `message` are the same field under two names. */
export const stepFields = {
  step: z.string().min(1).max(MAX_TITLE_CHARS).describe("Short title of the step; stored as the entry title."),
  content: z.string().max(MAX_CONTENT_BYTES).optional().describe(`Step text (at most ${MAX_CONTENT_BYTES} UTF-8 bytes).`),
  message: z.string().max(MAX_CONTENT_BYTES).optional().describe("Alias of content; give one of them."),
  kind: stepKindSchema.optional(),
  format: z.string().max(32).optional().describe("e.g. `text`, `markdown`."),
  meta: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      "Small JSON object stored with the entry; `trace` is the step's own fields, and lane, event_id, card_id and card_type the server's (all refused).",
    ),
};

/** `meta.trace` as the tools write it; `trace_validate` checks stored entries against these rules. */
export const traceMetaSchema = z
  .object({
    type: z.string(),
    kind: z.string().optional(),
    sequence: z.string().optional(),
    step_number: z.number().optional(),
    sequence_last: z.number().optional(),
    total_steps: z.number().optional(),
    next_step_needed: z.boolean().optional(),
    revises_step: z.number().optional(),
    branch_from_step: z.number().optional(),
    branch_from_sequence: z.string().optional(),
    reanchored: z.boolean().optional(),
  })
  .loose();
export type TraceMeta = z.infer<typeof traceMetaSchema>;

export const hydrateLimitSchema = z
  .number()
  .int()
  .min(1)
  .max(MAX_PAGE_LIMIT)
  .default(DEFAULT_PAGE_LIMIT)
  .describe(`Newest entries per page (1-${MAX_PAGE_LIMIT}).`);

/** One entry as `trace_hydrate` shows it: ids, title and a preview instead of the whole text. */
export const compactEntrySchema = z.object({
  seq: z.number(),
  ts_ms: z.number(),
  kind: z.enum(["note", "event"]),
  title: z.string().optional(),
  content: z.string(),
  content_truncated: z.boolean(),
  trace: z.record(z.string(), z.unknown()).optional(),
});
export type CompactEntry = z.infer<typeof compactEntrySchema>;

/** When the budget trims a compact entry, these fields survive. */
export const COMPACT_ENTRY_KEEP = ["seq", "ts_ms", "kind", "title"];

export const traceErrorSchema = z.object({ code: z.string(), seq: z.number(), message: z.string() });
export type TraceError = z.infer<typeof traceErrorSchema>;

export const sequenceSummarySchema = z.object({ last: z.number(), count: z.number() });
