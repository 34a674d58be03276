/**
 * One knowledge upsert (shared by `knowledge_upsert` and `knowledge_note_promote`), inside the caller's
 * transaction. The card id is content-addressed (anchor, key, normalised claim; a draft adds its lane),
 * so each edit is a new card, the same text again is a no-op, and `(anchor, key)` resolves through
 * knowledge_keys to its newest card. The card it replaces gets status `superseded` (history is kept:
 * the old card stays in kb-graph and in knowledge_versions).
 */
import type { CommandContext } from "../../commands/context";
import { fail } from "../../shared/errors";
import { MAX_TITLE_CHARS } from "../../shared/limits";
import { anchorId, keyProblem, keyTag, suggestKey } from "../../shared/slugs";
import { suggest } from "../../shared/suggestion";
import { read } from "../../storage/clocks";
import { CANON_TAG, DRAFT_TAG } from "../anchors/canon";
import { CARD_TYPES } from "../graph/card-shape";
import { isLive, lookupVersion } from "../graph/graph.store";
import { agentLane, SHARED_LANE } from "../graph/lanes";
import { rewriteCard, writeCard } from "../think/cards";
import type { CardInput } from "../think/cards.parse";
import { contentHash, knowledgeCardId, normalizeClaim, parseKnowledgeText, titleFromText } from "./card-format";
import { expandAnchor, KB_BRANCH, KB_GRAPH_DOC, KB_TRACE_DOC, KNOWLEDGE_META, KNOWLEDGE_TYPE, kbWriteTarget } from "./knowledge.model";
import { addVersion, keyRows, saveKey } from "./knowledge.store";

export type Visibility = "canon" | "draft";
/** Tag prefixes the server sets on knowledge cards; a caller's tags may not use them. */
const RESERVED_TAG_PREFIXES = ["a:", "k:", "v:"];
const SUPERSEDED = "superseded";

export interface KnowledgeInput {
  anchor: string;
  /** Undefined: derive one from the card (key_mode auto). */
  key: string | undefined;
  card: { title?: string | undefined; text?: string | undefined; status: string; tags: string[]; meta: Record<string, unknown> };
  visibility: Visibility;
  /** With an auto key: refuse a key already used under the anchor (a promoted note must not overwrite it by chance). */
  refuseTakenAutoKey?: boolean;
}

export interface UpsertResult {
  branch: string;
  trace_doc: string;
  graph_doc: string;
  anchor: string;
  key: string;
  key_tag: string;
  key_mode: "explicit" | "auto";
  card_id: string;
  version: number;
  previous_card_id?: string;
  created: boolean;
  changed: boolean;
  lane: string;
  visibility: Visibility;
  expiry?: string;
  /** Canonical anchor slug and the key, for an automatic lint of what was written. */
  scope: { slugs: string[]; key: string };
}

/** A bad key is INVALID_INPUT with a suggested slug and a key.suggest call. */
export function requireKey(key: string, source: string): string {
  const problem = keyProblem(key);
  if (problem === undefined) return key;
  const suggestion = suggestKey(key) || suggestKey(source);
  return fail(
    "INVALID_INPUT",
    `Invalid key "${key.slice(0, 80)}": ${problem}.`,
    `Use a slug of lowercase words joined by single dashes${suggestion ? `, e.g. ${suggestion}` : ""}.`,
    { field: "key", problem, ...(suggestion ? { suggestion } : {}) },
    [suggest("knowledge_key_suggest", { text: (source || key).slice(0, 200) }, "Get a valid key (and see where it is used).")],
  );
}

function checkTags(tags: string[]): void {
  const reserved = tags.find((tag) => RESERVED_TAG_PREFIXES.some((prefix) => tag.startsWith(prefix)));
  if (reserved !== undefined) {
    fail(
      "INVALID_INPUT",
      `Tag "${reserved}" is set by the server on knowledge cards.`,
      "Pass anchor, key and visibility instead of a:, k: and v: tags.",
      {
        field: "card.tags",
        tag: reserved,
      },
    );
  }
}

export function upsertKnowledge(ctx: CommandContext, input: KnowledgeInput): UpsertResult {
  const anchor = expandAnchor(ctx, input.anchor);
  checkTags(input.card.tags);
  const title = input.card.title ?? titleFromText(input.card.text, MAX_TITLE_CHARS);
  const claim = normalizeClaim(title, input.card.text);
  const keyMode = input.key === undefined ? "auto" : "explicit";
  const key = input.key === undefined ? requireKey(suggestKey(title ?? claim), claim) : requireKey(input.key, claim);
  const lane = input.visibility === "draft" ? agentLane(ctx.principal.agent_id) : SHARED_LANE;
  const rows = keyRows(ctx.db, anchor.slugs, key, lane);
  const latest = rows[0];
  const id = knowledgeCardId(anchor.slug, key, claim, input.visibility === "draft" ? lane : undefined);
  if (keyMode === "auto" && input.refuseTakenAutoKey && latest !== undefined && latest.card_id !== id) {
    fail(
      "INVALID_INPUT",
      `Key ${key} is already used under ${anchorId(anchor.slug)} (${latest.card_id}).`,
      `Pass key: "${key}" to write a new version of it, or another key.`,
      { field: "key", suggestion: key, card_id: latest.card_id },
    );
  }
  const version = latest?.card_id === id ? latest.version : Math.max(0, ...rows.map((row) => row.version)) + 1;
  const expiry = parseKnowledgeText(input.card.text ?? "").expiry;
  const card: CardInput = {
    id,
    type: KNOWLEDGE_TYPE,
    status: input.card.status,
    tags: [...input.card.tags, anchorId(anchor.slug), keyTag(key), input.visibility === "draft" ? DRAFT_TAG : CANON_TAG],
    meta: { ...input.card.meta, [KNOWLEDGE_META]: { anchor: anchorId(anchor.slug), key, version } },
  };
  if (title !== undefined) card.title = title;
  if (input.card.text !== undefined) card.text = input.card.text;
  const target = kbWriteTarget(ctx);
  const written = writeCard(target, { card, supports: [], blocks: [], lane: input.visibility === "draft" ? "agent" : "shared" });
  const folded = rows.length > 1 || (latest !== undefined && latest.anchor !== anchor.slug);
  const changed = written.inserted || latest === undefined || latest.card_id !== id || folded;
  const result: UpsertResult = {
    branch: KB_BRANCH,
    trace_doc: KB_TRACE_DOC,
    graph_doc: KB_GRAPH_DOC,
    anchor: anchorId(anchor.slug),
    key,
    key_tag: keyTag(key),
    key_mode: keyMode,
    card_id: id,
    version,
    ...(latest !== undefined && latest.card_id !== id ? { previous_card_id: latest.card_id } : {}),
    created: latest?.card_id !== id,
    changed,
    lane,
    visibility: input.visibility,
    ...(expiry === undefined ? {} : { expiry }),
    scope: { slugs: anchor.slugs, key },
  };
  if (!changed) return result;
  const seq = written.last_seq ?? read(ctx.db, "seq");
  saveKey(
    ctx.db,
    {
      anchor: anchor.slug,
      key,
      lane,
      card_id: id,
      version,
      content_hash: contentHash(claim),
      expiry: expiry ?? null,
      created_seq: latest?.created_seq ?? seq,
      updated_seq: seq,
      created_at_ms: latest?.created_at_ms ?? ctx.nowMs,
      updated_at_ms: ctx.nowMs,
      updated_by: ctx.principal.agent_id,
    },
    anchor.slugs,
  );
  if (latest?.card_id !== id) addVersion(ctx, { anchor: anchor.slug, key, lane, seq, version, card_id: id });
  if (latest !== undefined && latest.card_id !== id) {
    const previous = lookupVersion(ctx.db, target.sources, KB_GRAPH_DOC, "node", latest.card_id);
    if (isLive(previous) && previous.status !== SUPERSEDED) rewriteCard(target, previous, { status: SUPERSEDED });
  }
  ctx.journal({ target: `${KB_BRANCH}/${KB_GRAPH_DOC}`, summary: `knowledge ${anchorId(anchor.slug)} ${key} v${version} ${id}` });
  return result;
}

/** The knowledge card fields of a parsed card input (any type other than knowledge is refused). */
export function knowledgeFields(raw: Record<string, unknown>): void {
  if (raw.id !== undefined || raw.card_id !== undefined) {
    fail("INVALID_INPUT", "Knowledge card ids are derived from anchor, key and claim.", "Drop card.id.", { field: "card.id" });
  }
  if (raw.type !== undefined && raw.type !== KNOWLEDGE_TYPE) {
    fail(
      "INVALID_INPUT",
      `A knowledge card has type ${KNOWLEDGE_TYPE}, not "${String(raw.type).slice(0, 40)}".`,
      `Drop card.type; for thinking cards (${CARD_TYPES.join(", ")}) use think_card.`,
      {
        field: "card.type",
      },
    );
  }
}
