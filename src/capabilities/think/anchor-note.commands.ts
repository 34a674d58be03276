/**
 * `think.macro.anchor.note` (macro_anchor_note), the recommended way to attach what you learn to a
 * meaning: in one transaction it registers the anchor if needed (and declares aliases), then writes a
 * thinking card tagged `a:<slug>` where think_card would (target > branch > checkout), pinned or not,
 * canon (`v:canon`, shared lane) or a draft (`v:draft`, your lane). The card write links it to the anchor.
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { resolveStep, stepTagOf } from "../../place/targets";
import { requireEntity } from "../../place/targets.store";
import { fail } from "../../shared/errors";
import { MAX_TITLE_CHARS } from "../../shared/limits";
import { anchorId } from "../../shared/slugs";
import { declareAliases } from "../anchors/anchor-input";
import { ANCHOR_KINDS, anchorArg, DEFAULT_KIND, MAX_RELATIONS } from "../anchors/anchors.schema";
import { registerAnchor, resolveAnchor } from "../anchors/anchors.store";
import { CANON_TAG, DRAFT_TAG, PINNED_TAG } from "../anchors/canon";
import { ALIAS_RESOLVED, requireAnchorSlug } from "../anchors/snapshot";
import { CARD_TYPES } from "../graph/card-shape";
import { MAX_NODE_TEXT_CHARS, normalizeTags } from "../graph/graph.schema";
import { writeCard } from "./cards";
import { scopeFields, thinkScope } from "./think.scope";

export const anchorMacroNote = defineCommand({
  name: "think.macro.anchor.note",
  tool: "macro_anchor_note",
  title: "Note under an anchor",
  description:
    "Attach a note (or any card type) to an anchor in one call: registers a:<slug> if needed (kind, aliases), then writes a card tagged a:<slug> where think_card would (target > branch > checkout; under a task, tagged with its step focus or `step`). pin pins it; visibility canon (shared, v:canon) or draft (your lane, v:draft). An alias writes to its anchor.",
  kind: "write",
  input: {
    ...scopeFields,
    anchor: anchorArg,
    content: z.string().min(1).max(MAX_NODE_TEXT_CHARS),
    title: z.string().min(1).max(MAX_TITLE_CHARS).optional(),
    card_type: z.enum(CARD_TYPES).default("note"),
    step: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe('With a task target: the step to tag (a step id, or "focus"); default its first open step.'),
    pin: z.boolean().default(false),
    visibility: z
      .enum(["canon", "draft"])
      .optional()
      .describe("canon: shared lane + v:canon; draft: your own lane + v:draft. Default: shared, untagged."),
    kind: z.enum(ANCHOR_KINDS).optional().describe(`Kind of the anchor when this call registers it (default ${DEFAULT_KIND}).`),
    aliases: z.array(anchorArg).max(MAX_RELATIONS).optional(),
  },
  output: {
    anchor: z.string(),
    registered_now: z.boolean(),
    aliases_added: z.array(z.string()),
    branch: z.string(),
    trace_doc: z.string(),
    graph_doc: z.string(),
    card_id: z.string(),
    inserted: z.boolean(),
    lane: z.string(),
  },
  handler: (ctx, args) => {
    const resolved = resolveAnchor(ctx.db, requireAnchorSlug(args.anchor));
    if (resolved.aliasOf !== undefined) {
      ctx.warn({
        code: ALIAS_RESOLVED,
        message: `a:${resolved.aliasOf} is an alias of a:${resolved.slug}; the note goes to a:${resolved.slug}.`,
        recovery: `Use a:${resolved.slug} from now on.`,
      });
    }
    const slug = resolved.slug;
    const registeredNow = resolved.registered ? false : registerAnchor(ctx, slug, args.kind ?? DEFAULT_KIND, "note");
    if (registeredNow) ctx.journal({ target: anchorId(slug), summary: `registered ${anchorId(slug)}` });
    const aliasesAdded = declareAliases(ctx, slug, args.aliases ?? [], "note");
    if (aliasesAdded.length > 0) ctx.journal({ target: anchorId(slug), summary: `aliases ${aliasesAdded.map(anchorId).join(", ")}` });
    const scope = thinkScope(ctx, args, "write");
    let stepTag = scope.stepTag;
    if (args.step !== undefined) {
      if (args.target === undefined)
        fail("INVALID_INPUT", "step needs a task target.", "Pass target (e.g. TASK-001) with step, or drop step.", { field: "step" });
      const entity = requireEntity(ctx.db, typeof args.target === "string" ? args.target : args.target.id);
      stepTag = stepTagOf(resolveStep(ctx.db, entity, { step: args.step }).id);
    }
    const tags = [anchorId(slug)];
    if (args.pin) tags.push(PINNED_TAG);
    if (args.visibility !== undefined) tags.push(args.visibility === "canon" ? CANON_TAG : DRAFT_TAG);
    const result = writeCard(scope.cards, {
      card: {
        type: args.card_type,
        ...(args.title === undefined ? {} : { title: args.title }),
        text: args.content,
        status: "open",
        tags: normalizeTags(tags),
        meta: {},
      },
      supports: [],
      blocks: [],
      lane: args.visibility === undefined ? undefined : args.visibility === "draft" ? "agent" : "shared",
      extraTags: stepTag === undefined ? [] : [stepTag],
    });
    return {
      anchor: anchorId(slug),
      registered_now: registeredNow,
      aliases_added: aliasesAdded.map(anchorId),
      branch: scope.cards.branch.name,
      trace_doc: scope.cards.traceDoc,
      graph_doc: scope.cards.graphDoc,
      card_id: result.card_id,
      inserted: result.inserted,
      lane: result.lane,
    };
  },
});
