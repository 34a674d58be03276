/**
 * The input and output of the card writing commands: the status and tags field schemas, `parseCard`
 * (a card in any accepted form, normalized by cards.parse.ts, its errors turned into INVALID_INPUT),
 * and the answer shape of a card write. Shared by think_card and the typed wrappers
 * (card-write.commands.ts) and by query, status, publish and the pipeline (think.commands.ts).
 */
import { z } from "zod";
import { fail } from "../../shared/errors";
import { CARD_TYPES } from "../graph/card-shape";
import { MAX_TAG_CHARS, MAX_TAGS } from "../graph/graph.schema";
import { type CardInput, CardParseError, isCardType, normalizeCard } from "./cards.parse";

/** Card statuses are short words (open, accepted, rejected, …). */
const MAX_CARD_STATUS_CHARS = 64;

/** Card field inputs; a card is a graph node, so the graph's limits apply to its text and tags. */
export const cardStatus = z.string().min(1).max(MAX_CARD_STATUS_CHARS);
export const cardTags = z.array(z.string().min(1).max(MAX_TAG_CHARS)).max(MAX_TAGS);

export function parseCard(input: unknown, typeOverride?: string): CardInput {
  try {
    const card = normalizeCard(typeOverride === undefined ? input : { ...(typeof input === "object" ? input : {}), type: typeOverride });
    if (!isCardType(card.type)) failUnknownCardType(card.type);
    return card;
  } catch (error) {
    failInvalidCard(error, "Pass a card object ({type, title, text, …}), a `key: value` text, or plain text.");
  }
}

/** INVALID_INPUT for a card type that is not one of CARD_TYPES, naming them. */
export function failUnknownCardType(given: string): never {
  return fail("INVALID_INPUT", `Unknown card type "${given}".`, `Use one of: ${CARD_TYPES.join(", ")}.`, {
    type: given,
    supported_types: [...CARD_TYPES],
  });
}

/** A card that does not parse is INVALID_INPUT on `card`, with how to send one (`recovery`); any other error is thrown on. */
export function failInvalidCard(error: unknown, recovery: string): never {
  if (error instanceof CardParseError) fail("INVALID_INPUT", `Invalid card: ${error.message}.`, recovery, { field: "card" });
  throw error;
}

export const cardOutput = {
  branch: z.string(),
  trace_doc: z.string(),
  graph_doc: z.string(),
  card_id: z.string(),
  inserted: z.boolean().describe("A new card was written."),
  updated: z.boolean().describe("A new version of the card was written (a revision)."),
  lane: z.string(),
  graph_applied: z.object({ nodes_upserted: z.number(), edges_upserted: z.number() }),
  last_seq: z.number().optional(),
};
