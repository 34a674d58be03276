/**
 * `open` (seed 002's open portal): open any artifact by one stable ref — a card, a document entry, a
 * plan or task (read-only capsule), a step with its lease, an anchor's cards, a job (or one of its
 * events), a stored code slice (CODE_REF_STALE when the caller's current text differs), a Record-Sync
 * record (or one of its versions); anything else is UNKNOWN_ID with the grammar. The answer's `kind` says which shape it has; its lists (card edges, anchor cards)
 * are bounded by `limit` and trimmed to the budget, and each kind degrades to a small form of its own.
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { reasoningRefSchema } from "../../place/target.schema";
import type { BudgetSpec } from "../../shared/budget";
import { fail } from "../../shared/errors";
import { MAX_CODE_REF_LINES, parseRef, REF_GRAMMAR } from "../../shared/refs";
import { anchorCardSchema, openAnchor } from "../anchors/snapshot";
import { codeOpenStubs, openCodeRef } from "../code-refs/code-refs";
import { entryViewSchema } from "../docs/entry-view";
import { paginationSchema } from "../docs/paging";
import { cardSchema } from "../graph/card-shape";
import { edgeSchema } from "../graph/graph.schema";
import { openJobRef, parseJobRef } from "../jobs/job-refs";
import { jobEventSchema, jobItemSchema, jobSchema } from "../jobs/jobs.schema";
import { openRecordRef, recordOpenStubs } from "../records/record-refs";
import { actionOnlyCapsule, compactCapsule, type RenderedCapsule } from "../tasks/capsule.compact";
import { claimViewSchema, dependenciesViewSchema } from "../tasks/dependency-view";
import { entitySchema, stepSchema } from "../tasks/tasks.schema";
import { openCard, openEntry, openStep, openTarget } from "./open.views";

/** Items per list of an answer (anchor cards, card edges): the original's default and ceiling. */
const DEFAULT_OPEN_LIMIT = 20;
const MAX_OPEN_LIMIT = 50;
/** Longest ref accepted (a code ref's path is the long part). */
const MAX_REF_CHARS = 512;
/** Content lengths an entry is cut to, largest first, when the whole entry does not fit the budget. */
const ENTRY_CUTS = [16_000, 8_000, 4_000, 2_000, 1_000, 500, 200, 50, 0];
/** Card ids an anchor keeps, fewer and fewer, when even its trimmed cards do not fit the budget. */
const ANCHOR_ID_CUTS = [MAX_OPEN_LIMIT, 10, 5, 2, 0];

const KINDS = ["card", "entry", "task", "plan", "step", "anchor", "job", "job_event", "code", "record", "record_version"] as const;
/** A code slice's text as the caller has it now (to detect staleness): one slice's bound. */
const MAX_CURRENT_TEXT_CHARS = 65_536;

const openEdgeSchema = edgeSchema.omit({ deleted: true }).extend({ direction: z.enum(["out", "in"]) });
const leaseSchema = z.object({ holder: z.string(), expires_tick: z.number() });

/** One flat shape for every kind (`kind` says which fields are present). */
const OPEN_OUTPUT = {
  kind: z.enum(KINDS),
  ref: z.string().describe("The ref opened, normalized."),
  // card
  card: cardSchema.optional(),
  edges: z
    .object({
      supports: z.array(openEdgeSchema),
      blocks: z.array(openEdgeSchema),
      other: z.array(openEdgeSchema).describe("Edges of every other relation (see `rel`)."),
      has_more: z.boolean(),
    })
    .optional()
    .describe("Card: its live edges in and out (`direction`), newest first, at most `limit` in all, by relation."),
  head: z.object({ branch: z.string(), doc: z.string(), seq: z.number(), ts: z.string() }).optional(),
  // entry
  entry: entryViewSchema.optional(),
  content_truncated: z
    .boolean()
    .optional()
    .describe("Entry: the content is cut (budget); record: its body is. Read it whole with a larger max_chars."),
  // task / plan
  view: z.string().optional(),
  target: entitySchema.optional(),
  dependencies: dependenciesViewSchema.optional(),
  claim: claimViewSchema.optional(),
  reasoning_ref: reasoningRefSchema.optional(),
  step_focus: z.object({ step: stepSchema, lease: leaseSchema.optional() }).nullable().optional(),
  capsule: z.record(z.string(), z.unknown()).optional(),
  // step
  task: z.object({ id: z.string(), title: z.string(), status: z.string() }).optional(),
  step: stepSchema.optional(),
  lease: leaseSchema.nullable().optional(),
  missing_proof: z
    .array(z.string())
    .optional()
    .describe("Step: the checkpoints its close still needs confirmed (criteria, tests; security, perf, docs when required or proved)."),
  // anchor
  anchor: z.string().optional(),
  slug: z.string().optional(),
  registered: z.boolean().optional().describe("Anchor: whether it is registered (anchors_list)."),
  requested: z.string().optional().describe("Anchor: the alias asked for, when it was resolved to its anchor."),
  record: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("Anchor: its record, when registered. record / record_version: the Record-Sync record, as it is or as that version was."),
  current_version: z.number().optional().describe("record_version: the record's version now."),
  aliases: z.array(z.string()).optional(),
  cards: z
    .array(anchorCardSchema)
    .optional()
    .describe("Anchor: its visible cards across branches and graph docs, canon-first (pinned, v:canon, decision, evidence, test, rest)."),
  has_more: z.boolean().optional(),
  // job / job_event
  job: z.union([jobSchema, jobItemSchema]).optional(),
  events: z.array(jobEventSchema).optional().describe("Job: its newest events, oldest first (older ones with jobs_open and a cursor)."),
  pagination: paginationSchema.optional(),
  event: jobEventSchema.optional(),
  now_tick: z.number().optional(),
  // code
  path: z.string().optional(),
  start_line: z.number().optional(),
  end_line: z.number().optional(),
  sha256: z.string().optional(),
  lines: z.number().optional(),
  repo: z.string().optional(),
  text: z.string().optional(),
  text_truncated: z.boolean().optional(),
  newer_ref: z.string().optional().describe("code: the latest slice of the same lines, when this one is outdated (CODE_REF_STALE)."),
  truncated: z.boolean(),
};

type Payload = Record<string, unknown>;

/** Small forms of an answer, largest first, for budgets its trimmed lists still do not fit. */
function openStubs(original: Payload): Payload[] {
  const head = { kind: original.kind, ref: original.ref, truncated: true };
  switch (original.kind) {
    case "card": {
      const card = original.card as Payload;
      const slim = Object.fromEntries(
        ["id", "type", "title", "status", "lane", "last_seq"].filter((k) => k in card).map((k) => [k, card[k]]),
      );
      return [
        { ...head, card: slim, head: original.head },
        { ...head, card: { id: card.id, type: card.type } },
      ];
    }
    case "entry": {
      const entry = original.entry as Payload & { content: string };
      return ENTRY_CUTS.filter((cut) => cut < entry.content.length).map((cut) => ({
        ...head,
        entry: { ...entry, content: entry.content.slice(0, cut) },
        content_truncated: true,
      }));
    }
    case "task":
    case "plan": {
      const rendered = original.capsule as RenderedCapsule;
      const capsule = compactCapsule(rendered);
      return [
        { ...head, reasoning_ref: original.reasoning_ref, capsule },
        { ...head, capsule },
        { ...head, capsule: actionOnlyCapsule(rendered) },
      ];
    }
    case "step": {
      const step = original.step as Payload;
      return [{ ...head, task: original.task, step: { id: step.id, path: step.path, title: step.title }, lease: original.lease }];
    }
    case "job":
    case "job_event": {
      const job = original.job as Payload;
      const slim = Object.fromEntries(["id", "title", "status", "revision"].filter((k) => k in job).map((k) => [k, job[k]]));
      return [{ ...head, job: slim, now_tick: original.now_tick }];
    }
    case "code":
      return codeOpenStubs(original);
    case "record":
    case "record_version":
      return recordOpenStubs(original);
    default: {
      // An anchor keeps the ids of its first cards, fewer and fewer.
      const cards = (original.cards as { id: string; type: string }[]).map((card) => ({ id: card.id, type: card.type, trimmed: true }));
      return ANCHOR_ID_CUTS.filter((cut, index) => index === 0 || cut < cards.length).map((cut) => ({
        ...head,
        anchor: original.anchor,
        registered: original.registered,
        cards: cards.slice(0, cut),
        has_more: original.has_more === true || cut < cards.length,
      }));
    }
  }
}

/**
 * A list cut by the budget says so: anchor cards and card edges then have more to show, and a job's
 * event tail (oldest dropped first) continues below its oldest event shown.
 */
function repairOpen(trimmed: Payload, original: Payload): Payload {
  const cut = (path: "cards" | "edges" | "events") => JSON.stringify(trimmed[path]) !== JSON.stringify(original[path]);
  if (trimmed.kind === "job" && cut("events")) {
    const oldest = (trimmed.events as { seq: number }[])[0]?.seq ?? (original.events as { seq: number }[]).at(-1)?.seq;
    const { next_cursor: _dropped, ...rest } = trimmed.pagination as Payload;
    const count = (trimmed.events as unknown[]).length;
    return { ...trimmed, pagination: { ...rest, has_more: true, count, ...(oldest === undefined ? {} : { next_cursor: oldest }) } };
  }
  if (trimmed.kind === "anchor" && cut("cards")) return { ...trimmed, has_more: true };
  if (trimmed.kind === "card" && cut("edges")) return { ...trimmed, edges: { ...(trimmed.edges as Payload), has_more: true } };
  return trimmed;
}

const OPEN_BUDGET: BudgetSpec = {
  lists: ["edges.other", "edges.blocks", "edges.supports", "cards", "events"],
  keep: ["id", "type", "title", "status", "lane", "last_seq", "from", "rel", "to", "direction", "seq", "ref", "tick"],
  // Edges and anchor cards are newest- or canon-first (their last items matter least); a job's events
  // are an oldest-first tail (its first items matter least).
  trimFromEnd: ["edges.other", "edges.blocks", "edges.supports", "cards"],
  repair: repairOpen,
  stubs: openStubs,
};

export const openRef = defineCommand({
  name: "open",
  tool: "open",
  // Compared with the stored (redacted) slice of a code ref, like code_ref_check's text.
  redaction: { compare: ["current_text"] },
  title: "Open a ref",
  description: `Open any artifact by its stable ref, read-only: CARD-<id>, <doc>@<seq> (e.g. notes@12), TASK-/PLAN-<n> (capsule; focus unchanged), STEP-<hex> (with lease), a:<slug> (cards canon-first), JOB-<n>[@<event>], code:<path>#L<a>-L<b>[@sha256:<hex>] (the stored slice, or the latest of those lines for a sha none has; CODE_REF_STALE with newer_ref when a newer slice of the same lines exists or current_text differs), R<n>[@v<version>] (a Record-Sync record, or that version of it). Lanes: shared + yours unless include_drafts.`,
  kind: "read",
  input: {
    id: z.string().min(1).max(MAX_REF_CHARS).describe(`The ref to open: ${REF_GRAMMAR}.`),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_OPEN_LIMIT)
      .default(DEFAULT_OPEN_LIMIT)
      .describe(`Items per list of the answer (an anchor's cards, a card's edges); 1-${MAX_OPEN_LIMIT}.`),
    include_drafts: z.boolean().default(false).describe("Every agent's lane (like view=audit); default: the shared lane and your own."),
    current_text: z
      .string()
      .max(MAX_CURRENT_TEXT_CHARS)
      .optional()
      .describe("code: refs: the slice's text as you have it now; a difference warns CODE_REF_STALE."),
    current_sha256: z.string().optional().describe("code: refs: the sha256 of your current text, instead of current_text."),
  },
  output: OPEN_OUTPUT,
  budget: OPEN_BUDGET,
  handler: (ctx, args) => {
    const options = { limit: args.limit, allLanes: args.include_drafts };
    const ref = parseRef(args.id);
    switch (ref.kind) {
      case "card":
        return openCard(ctx, ref.id, options);
      case "entry":
        return openEntry(ctx, ref.doc, ref.seq, options);
      case "task":
      case "plan":
        return openTarget(ctx, ref.kind, ref.id, options);
      case "step":
        return openStep(ctx, ref.id);
      case "anchor":
        return openAnchor(ctx, ref.slug, options);
      case "job": {
        const job = parseJobRef(ref.id);
        if (job === undefined) {
          return fail("UNKNOWN_ID", `"${ref.id.slice(0, 80)}" is not a job ref.`, "Job refs look like JOB-001 or JOB-001@3 (one event).", {
            id: ref.id.slice(0, 80),
            kind: "job",
          });
        }
        return { ...openJobRef(ctx, job.id, job.eventSeq, { limit: args.limit }), truncated: false };
      }
      case "code":
        return {
          ...openCodeRef(ctx, ref.normalized, { current_text: args.current_text, current_sha256: args.current_sha256 }),
          truncated: false,
        };
      case "record":
        return { ...openRecordRef(ctx, ref.id, ref.version), truncated: false };
      case "malformed":
        return fail(
          "INVALID_INPUT",
          `Malformed ${ref.form} ref: ${ref.problem}.`,
          ref.form === "code"
            ? `Use code:<repo-relative path>#L<a>-L<b>[@sha256:<64 hex>]: no leading /, no .. segment, no backslash, 1 <= a <= b, at most ${MAX_CODE_REF_LINES} lines.`
            : `Use a:<slug> with lowercase letters, digits and dashes${ref.suggestion ? `, e.g. ${ref.suggestion}` : ""}.`,
          { field: "id", problem: ref.problem, ...(ref.suggestion ? { suggestion: ref.suggestion } : {}) },
        );
      default:
        return fail("UNKNOWN_ID", `"${args.id.slice(0, 80)}" is not a ref that open knows.`, `Use one of: ${REF_GRAMMAR}.`, {
          id: args.id.slice(0, 80),
        });
    }
  },
});
