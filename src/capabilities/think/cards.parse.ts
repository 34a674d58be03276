/**
 * Card input normalization (seed 001 `think_card`), pure: a card arrives as a JSON object, a JSON
 * object string, a `key: value` DSL (unknown keys kept under `meta`), or plain text (a `note` whose
 * text is the input). The result is one canonical shape, so the same card written twice in different
 * forms (or with tags in another case or order) compares equal.
 */
import { MAX_TITLE_CHARS } from "../../shared/limits";
import { CARD_TYPES, type CardType } from "../graph/card-shape";
import { MAX_NODE_TEXT_CHARS, MAX_TAG_CHARS, MAX_TAGS, normalizeTags } from "../graph/graph.schema";

/** The fields a card has besides `meta`; DSL keys outside this list go to `meta`. */
const KNOWN_KEYS = new Set(["id", "card_id", "type", "title", "text", "status", "tags", "meta"]);

export interface CardInput {
  id?: string;
  type: string;
  title?: string;
  text?: string;
  status: string;
  tags: string[];
  meta: Record<string, unknown>;
}

export class CardParseError extends Error {}

function parseDsl(text: string): Record<string, unknown> | undefined {
  const lines = text.split(/\r?\n/).filter((line) => line.trim().length > 0);
  if (lines.length === 0) return undefined;
  const pairs: [string, string][] = [];
  for (const line of lines) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s?(.*)$/.exec(line);
    if (!match) return undefined;
    pairs.push([(match[1] as string).toLowerCase(), (match[2] as string).trim()]);
  }
  // A DSL card names at least one known field; otherwise "Note: remember this" is plain text.
  if (!pairs.some(([key]) => KNOWN_KEYS.has(key))) return undefined;
  const card: Record<string, unknown> = {};
  const meta: Record<string, unknown> = {};
  for (const [key, value] of pairs) {
    if (key === "tags")
      card.tags = value
        .split(",")
        .map((tag) => tag.trim())
        .filter(Boolean);
    else if (KNOWN_KEYS.has(key) && key !== "meta") card[key] = value;
    else meta[key] = value;
  }
  if (Object.keys(meta).length > 0) card.meta = meta;
  return card;
}

/** The object form of any accepted input (before normalization). */
export function cardObject(input: unknown): Record<string, unknown> {
  if (typeof input === "object" && input !== null && !Array.isArray(input)) return input as Record<string, unknown>;
  if (typeof input !== "string") throw new CardParseError("card must be an object or a string");
  const text = input.trim();
  if (text.length === 0) throw new CardParseError("card is empty");
  if (text.startsWith("{")) {
    try {
      const parsed = JSON.parse(text) as unknown;
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      throw new CardParseError("card starts with '{' but is not a JSON object");
    }
  }
  return parseDsl(text) ?? { type: "note", text };
}

function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new CardParseError(`card.${field} must be a string`);
  const trimmed = value.trim();
  return trimmed.length === 0 ? undefined : trimmed;
}

/** The canonical card: defaults applied (type note, status open), tags normalized, meta an object. */
export function normalizeCard(input: unknown): CardInput {
  const raw = cardObject(input);
  const id = optionalString(raw.id ?? raw.card_id, "id");
  const type = (optionalString(raw.type, "type") ?? "note").toLowerCase();
  const title = optionalString(raw.title, "title");
  const text = optionalString(raw.text, "text");
  if (title === undefined && text === undefined) throw new CardParseError("a card needs a title or a text");
  const status = (optionalString(raw.status, "status") ?? "open").toLowerCase();
  const tagsRaw = raw.tags ?? [];
  if (!Array.isArray(tagsRaw) || tagsRaw.some((tag) => typeof tag !== "string"))
    throw new CardParseError("card.tags must be a list of strings");
  const meta = raw.meta ?? {};
  if (typeof meta !== "object" || meta === null || Array.isArray(meta)) throw new CardParseError("card.meta must be an object");
  // The same bounds as graph_apply's node_upsert: a card is a graph node.
  if (title !== undefined && title.length > MAX_TITLE_CHARS)
    throw new CardParseError(`card.title is longer than ${MAX_TITLE_CHARS} characters`);
  if (text !== undefined && text.length > MAX_NODE_TEXT_CHARS)
    throw new CardParseError(`card.text is longer than ${MAX_NODE_TEXT_CHARS} characters`);
  if (type.length > 128 || status.length > 128) throw new CardParseError("card.type and card.status take at most 128 characters");
  const tags = normalizeTags(tagsRaw as string[]);
  if (tags.length > MAX_TAGS || tags.some((tag) => tag.length === 0 || tag.length > MAX_TAG_CHARS || tag.includes("|"))) {
    throw new CardParseError(`card.tags: at most ${MAX_TAGS} tags of 1-${MAX_TAG_CHARS} characters, no '|'`);
  }
  const card: CardInput = { type, status, tags, meta: meta as Record<string, unknown> };
  if (id !== undefined) card.id = id;
  if (title !== undefined) card.title = title;
  if (text !== undefined) card.text = text;
  return card;
}

export function isCardType(type: string): type is CardType {
  return (CARD_TYPES as readonly string[]).includes(type);
}
