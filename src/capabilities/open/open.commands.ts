/**
 * `open` (seed 002's open portal): open any artifact by one stable ref — a card, a document entry, a
 * plan or task (read-only capsule), a step with its lease, an anchor's cards. Refs of kinds that have
 * no storage yet (JOB-…, code:…) are validated and answered UNKNOWN_ID; anything else is UNKNOWN_ID
 * with the grammar. The answer's `kind` says which shape it has; its lists (card edges, anchor cards)
 * are bounded by `limit` and trimmed to the budget, and each kind degrades to a small form of its own.
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import type { BudgetSpec } from "../../shared/budget";
import { fail } from "../../shared/errors";
import { entrySchema } from "../docs/docs.schema";
import { edgeSchema } from "../graph/graph.schema";
import { type Capsule, compactCapsule } from "../tasks/capsule";
import { entitySchema, reasoningRefSchema, stepSchema } from "../tasks/tasks.schema";
import { cardSchema } from "../think/card-view";
import { openAnchor, openCard, openEntry, openStep, openTarget } from "./open.views";
import { MAX_CODE_REF_LINES, parseRef, REF_GRAMMAR } from "./refs";

/** Items per list of an answer (anchor cards, card edges): the original's default and ceiling. */
const DEFAULT_OPEN_LIMIT = 20;
const MAX_OPEN_LIMIT = 50;
/** Longest ref accepted (a code ref's path is the long part). */
const MAX_REF_CHARS = 512;
/** Content lengths an entry is cut to, largest first, when the whole entry does not fit the budget. */
const ENTRY_CUTS = [16_000, 8_000, 4_000, 2_000, 1_000, 500, 200, 50, 0];
/** Card ids an anchor keeps, fewer and fewer, when even its trimmed cards do not fit the budget. */
const ANCHOR_ID_CUTS = [MAX_OPEN_LIMIT, 10, 5, 2, 0];

const KINDS = ["card", "entry", "task", "plan", "step", "anchor"] as const;

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
  entry: entrySchema.optional(),
  content_truncated: z.boolean().optional().describe("Entry: the content is cut (budget); read it whole with a larger max_chars."),
  // task / plan
  view: z.string().optional(),
  target: entitySchema.optional(),
  reasoning_ref: reasoningRefSchema.optional(),
  step_focus: z.object({ step: stepSchema, lease: leaseSchema.optional() }).nullable().optional(),
  capsule: z.record(z.string(), z.unknown()).optional(),
  // step
  task: z.object({ id: z.string(), title: z.string(), status: z.string() }).optional(),
  step: stepSchema.optional(),
  lease: leaseSchema.nullable().optional(),
  // anchor
  anchor: z.string().optional(),
  slug: z.string().optional(),
  registered: z.boolean().optional().describe("Anchor: whether it is registered (anchors have no registry yet: always false)."),
  branch: z.string().optional(),
  graph_doc: z.string().optional(),
  cards: z.array(cardSchema).optional().describe("Anchor: its visible cards, canon-first (pinned, decision, evidence, test, rest)."),
  has_more: z.boolean().optional(),
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
      const capsule = compactCapsule(original.capsule as Capsule);
      return [
        { ...head, reasoning_ref: original.reasoning_ref, capsule },
        { ...head, capsule },
      ];
    }
    case "step": {
      const step = original.step as Payload;
      return [{ ...head, task: original.task, step: { id: step.id, path: step.path, title: step.title }, lease: original.lease }];
    }
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

/** A list cut by the budget says so: anchor cards and card edges then have more to show. */
function repairOpen(trimmed: Payload, original: Payload): Payload {
  const cut = (path: "cards" | "edges") => JSON.stringify(trimmed[path]) !== JSON.stringify(original[path]);
  if (trimmed.kind === "anchor" && cut("cards")) return { ...trimmed, has_more: true };
  if (trimmed.kind === "card" && cut("edges")) return { ...trimmed, edges: { ...(trimmed.edges as Payload), has_more: true } };
  return trimmed;
}

const OPEN_BUDGET: BudgetSpec = {
  lists: ["edges.other", "edges.blocks", "edges.supports", "cards"],
  keep: ["id", "type", "title", "status", "lane", "last_seq", "from", "rel", "to", "direction"],
  // Every list is newest- or canon-first: its last items matter least.
  trimFromEnd: true,
  repair: repairOpen,
  stubs: openStubs,
};

export const openRef = defineCommand({
  name: "open",
  tool: "open",
  title: "Open a ref",
  description: `Open any artifact by its stable ref, read-only: CARD-<id>, <doc>@<seq> (e.g. notes@12), TASK-/PLAN-<n> (capsule; focus unchanged), STEP-<hex> (with lease), a:<slug> (cards canon-first), JOB-<id>, code:<path>#L<a>-L<b>[@sha256:<hex>]. Lanes: shared + yours unless include_drafts.`,
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
        return openEntry(ctx, ref.doc, ref.seq);
      case "task":
      case "plan":
        return openTarget(ctx, ref.kind, ref.id, options);
      case "step":
        return openStep(ctx, ref.id);
      case "anchor":
        return openAnchor(ctx, ref.slug, ref.tag, options);
      case "job":
        return fail(
          "UNKNOWN_ID",
          `No job ${ref.id}: this server stores no jobs yet.`,
          "Open the work itself instead (TASK-…, STEP-…), or list it with `tasks_context`.",
          { id: ref.id, kind: "job" },
        );
      case "code":
        return fail(
          "UNKNOWN_ID",
          `No code slice stored for ${ref.normalized}.`,
          "Code slices cannot be attached yet; quote the lines in a note (`notes_commit`) and open it as notes@<seq>.",
          { ref: ref.normalized, path: ref.path, start: ref.start, end: ref.end },
        );
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

export const OPEN_COMMANDS = [openRef];
