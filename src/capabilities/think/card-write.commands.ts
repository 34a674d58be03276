/**
 * The card writing commands (seed 001 `think_card` and the eight `think_add_<type>` wrappers, dotted
 * `think.card` / `think.add.*`); the card parsing and answer shape they share with think.commands.ts are
 * in card-io.ts.
 * A card id is written once: the same card again is a no-op (`inserted: false`), a changed card under
 * a live id is refused (ALREADY_EXISTS, see card-payload.ts), and `think_card` with `revise: true`
 * writes it as a new version (`updated: true`).
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { defineCommand } from "../../commands/registry";
import { MAX_TITLE_CHARS } from "../../shared/limits";
import { CARD_TYPES } from "../graph/card-shape";
import { MAX_NODE_TEXT_CHARS, nodeIdSchema } from "../graph/graph.schema";
import { cardOutput, cardStatus, cardTags, parseCard } from "./card-io";
import { statusGivenIn } from "./card-payload";
import { commitCard } from "./cards";
import { type CardInput, cardObject } from "./cards.parse";
import { type ScopeArgs, scopeFields, thinkScope } from "./think.scope";

/** Ids in one supports/blocks list. */
const MAX_LINKS = 50;

const linkLists = {
  supports: z.array(nodeIdSchema).max(MAX_LINKS).optional().describe("Card ids this card supports (edges from it)."),
  blocks: z.array(nodeIdSchema).max(MAX_LINKS).optional().describe("Card ids this card blocks (edges from it)."),
  lane: z.enum(["shared", "agent"]).optional().describe("New cards only: shared (default) or your own agent lane (a draft)."),
};

type WriteArgs = ScopeArgs & { supports?: string[] | undefined; blocks?: string[] | undefined; lane?: "shared" | "agent" | undefined };

/** The call's own scope arguments, so the calls a refusal suggests land where this one did. */
function callScope(args: ScopeArgs): Record<string, unknown> {
  const scope: Record<string, unknown> = {};
  for (const key of ["target", "branch", "trace_doc", "graph_doc"] as const) if (args[key] !== undefined) scope[key] = args[key];
  return scope;
}

function runCardWrite(ctx: CommandContext, args: WriteArgs, card: CardInput, options: { statusGiven: boolean; revise: boolean }) {
  const scope = thinkScope(ctx, args, "write");
  const result = commitCard(scope.cards, {
    card,
    supports: args.supports ?? [],
    blocks: args.blocks ?? [],
    lane: args.lane,
    extraTags: scope.stepTag ? [scope.stepTag] : [],
    onExisting: options.revise ? "revise" : "refuse",
    statusGiven: options.statusGiven,
    scope: callScope(args),
  });
  return { branch: scope.cards.branch.name, trace_doc: scope.cards.traceDoc, graph_doc: scope.cards.graphDoc, ...result };
}

export const thinkCard = defineCommand({
  name: "think.card",
  tool: "think_card",
  title: "Write a card",
  description:
    "Write a thinking card atomically: a graph node (id, type, title, text, status, tags, meta) with supports/blocks edges, and a note in the trace doc. card: an object, a JSON string, `key: value` lines (unknown keys go to meta) or plain text (a note). No id → CARD-<n> (a new card each call). A card id is written once: the same card again writes nothing (inserted: false); a changed card under an existing id is refused (ALREADY_EXISTS) unless revise: true, which writes it as a new version (updated: true). Status and edges also change with think_set_status and think_link.",
  kind: "write",
  input: {
    ...scopeFields,
    card: z.union([
      z
        .string()
        .min(1)
        .max(64 * 1024),
      z.record(z.string(), z.unknown()),
    ]),
    ...linkLists,
    revise: z
      .boolean()
      .default(false)
      .describe(
        "Write a changed card as a new version of the existing card card.id (a revision); a status not given, pins and step tags are kept.",
      ),
  },
  output: cardOutput,
  handler: (ctx, args) => {
    const card = parseCard(args.card);
    return runCardWrite(ctx, args, card, { statusGiven: statusGivenIn(cardObject(args.card)), revise: args.revise });
  },
});

function typedWrapper(type: (typeof CARD_TYPES)[number]) {
  return defineCommand({
    name: `think.add.${type}`,
    tool: `think_add_${type}`,
    title: `Add a ${type} card`,
    description: `think_card with type ${type}: title and/or text, optional id, status (default open), tags, meta, supports/blocks. The same card again writes nothing; a changed card under an existing id is refused (revise it with think_card).`,
    kind: "write",
    example: { title: "Notes stay append-only" },
    input: {
      ...scopeFields,
      id: nodeIdSchema.optional(),
      title: z.string().max(MAX_TITLE_CHARS).optional(),
      text: z.string().max(MAX_NODE_TEXT_CHARS).optional(),
      status: cardStatus.optional(),
      tags: cardTags.optional(),
      meta: z.record(z.string(), z.unknown()).optional(),
      ...linkLists,
    },
    output: cardOutput,
    handler: (ctx, args) => {
      const raw: Record<string, unknown> = { type };
      for (const key of ["id", "title", "text", "status", "tags", "meta"] as const) if (args[key] !== undefined) raw[key] = args[key];
      return runCardWrite(ctx, args, parseCard(raw), { statusGiven: statusGivenIn(raw), revise: false });
    },
  });
}

export const THINK_ADD_COMMANDS = CARD_TYPES.map(typedWrapper);
