/**
 * Knowledge cards (seed 002 "Knowledge cards", dotted under `think.knowledge.*`): the cross-session
 * memory unit. This file holds the writes (upsert, note.promote) and key.suggest; recall, query and
 * lint are in knowledge-reads.commands.ts, and knowledge.catalog.ts lists every knowledge command.
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { defineCommand } from "../../commands/registry";
import { fail } from "../../shared/errors";
import { anchorId, keyTag, suggestKey } from "../../shared/slugs";
import { suggest } from "../../shared/suggestion";
import { anchorArg } from "../anchors/anchors.schema";
import { entryBySeq } from "../docs/docs.store";
import { MAX_NODE_TEXT_CHARS } from "../graph/graph.schema";
import { visibleLanes } from "../graph/lanes";
import { failInvalidCard } from "../think/card-io";
import { cardObject, normalizeCard } from "../think/cards.parse";
import { titleFromText, utcDate } from "./card-format";
import { canonicalRows, expandAnchor } from "./knowledge.model";
import { latestKeys } from "./knowledge.store";
import { knowledgeFields, requireKey, type UpsertResult, upsertKnowledge } from "./knowledge-write";
import { lintIssueSchema, lintScope } from "./lint-scope";

/** Other (anchor, key) rows with a suggested key that key.suggest lists at most. */
const MAX_COLLISIONS = 20;
/** Longest note ref accepted (a doc name and a seq). */
const MAX_NOTE_REF_CHARS = 256;

const keyArg = z.string().min(1).max(80).describe("Slug: lowercase words joined by single dashes, at most 64 characters.");
const visibilityArg = z
  .enum(["canon", "draft"])
  .default("canon")
  .describe(
    "canon: the shared lane, tagged v:canon (recall shows it); draft: your own lane, tagged v:draft (recall shows it only with include_drafts).",
  );
const lintModeArg = z.enum(["manual", "auto"]).default("manual").describe("auto: lint what this write touched and return the findings.");

const upsertOutput = {
  branch: z.string(),
  trace_doc: z.string(),
  graph_doc: z.string(),
  anchor: z.string(),
  key: z.string(),
  key_tag: z.string(),
  key_mode: z.enum(["explicit", "auto"]),
  card_id: z.string(),
  version: z.number(),
  previous_card_id: z.string().optional().describe("The card this version replaces (now status superseded)."),
  created: z.boolean().describe("A new card (a new version of the key); false when the claim is unchanged."),
  changed: z.boolean().describe("Anything was written; false for a repeat of the same card."),
  lane: z.string(),
  visibility: z.enum(["canon", "draft"]),
  expiry: z.string().optional(),
  lint: z
    .object({ as_of: z.string(), issues: z.array(lintIssueSchema), issues_total: z.number() })
    .optional()
    .describe("lint_mode auto: the findings that concern the card written."),
};

function withLint(ctx: CommandContext, result: UpsertResult, mode: "manual" | "auto") {
  const { scope, ...rest } = result;
  if (mode === "manual") return rest;
  // As knowledge_lint's default: the date of the workspace's last recorded write, which is this one.
  const asOf = utcDate(ctx.nowMs);
  const lint = lintScope(ctx, { anchors: scope.slugs, key: scope.key, lanes: visibleLanes(ctx, false) }, asOf);
  const mine = lint.issues.filter((issue) => JSON.stringify(issue.evidence).includes(result.card_id));
  return { ...rest, lint: { as_of: asOf, issues: mine, issues_total: mine.length } };
}

function parseKnowledgeCard(input: unknown) {
  try {
    // A string is the card text (the Claim/Scope/… format), unless it is a JSON object.
    const raw = typeof input === "string" && !input.trim().startsWith("{") ? { text: input } : cardObject(input);
    knowledgeFields(raw);
    const { type: _type, id: _id, ...card } = normalizeCard({ ...raw, type: "knowledge" });
    return card;
  } catch (error) {
    failInvalidCard(
      error,
      "Pass the card text (Claim: … / Scope: … / Apply: … / Proof: … / Expiry: YYYY-MM-DD) or {title, text, tags, meta}.",
    );
  }
}

export const knowledgeUpsert = defineCommand({
  name: "think.knowledge.upsert",
  tool: "knowledge_upsert",
  aliases: ["knowledge.upsert"],
  title: "Write a knowledge card",
  description:
    "Write what you learned as a knowledge card under (anchor, key): each changed claim is a new card CARD-KN-<hash> and a new version; (anchor, key) always resolves to the newest; the same card again writes nothing. card: the text (recommended: Claim: / Scope: / Apply: / Proof: CMD:|LINK:|FILE: / Expiry: YYYY-MM-DD lines) or {title, text, status, tags, meta}. key_mode auto derives the key from the claim. A bad key is refused with a suggested slug.",
  kind: "write",
  idempotent: true,
  example: { anchor: "a:storage", key: "wal-mode", card: "Claim: SQLite runs in WAL mode\nScope: storage\nExpiry: 2030-01-01" },
  input: {
    anchor: anchorArg,
    key: keyArg.optional(),
    key_mode: z
      .enum(["explicit", "auto"])
      .default("explicit")
      .describe("explicit (default): key is required; auto: derived from the claim when omitted."),
    card: z.union([z.string().min(1).max(MAX_NODE_TEXT_CHARS), z.record(z.string(), z.unknown())]),
    visibility: visibilityArg,
    lint_mode: lintModeArg,
  },
  output: upsertOutput,
  handler: (ctx, args) => {
    const card = parseKnowledgeCard(args.card);
    if (args.key === undefined && args.key_mode === "explicit") {
      const suggestion = suggestKey(card.title ?? titleFromText(card.text, 200) ?? card.text ?? "");
      fail(
        "INVALID_INPUT",
        "key is required (or pass key_mode: auto).",
        `Pass a key${suggestion ? `, e.g. ${suggestion}` : ""}, or key_mode: "auto".`,
        { field: "key", ...(suggestion ? { suggestion } : {}) },
        [suggest("knowledge_key_suggest", { text: (card.title ?? card.text ?? "").slice(0, 200) }, "Get a key for this card.")],
      );
    }
    const result = upsertKnowledge(ctx, { anchor: args.anchor, key: args.key, card, visibility: args.visibility });
    return withLint(ctx, result, args.lint_mode);
  },
});

const NOTE_REF = /^(.+)@([0-9]{1,15})$/;

export const knowledgeNotePromote = defineCommand({
  name: "think.knowledge.note.promote",
  tool: "knowledge_note_promote",
  aliases: ["knowledge.note.promote"],
  title: "Promote a note to knowledge",
  description:
    "Turn a document entry (note_ref <doc>@<seq>, e.g. notes@12) into a knowledge card: its content becomes the card text, its title the card title, meta.promoted_from the ref. anchor: given, or the note's meta.anchor. key: given, or derived from the note (refused when that key is already used under the anchor: pass it explicitly to version it). Promoting the same note again writes nothing.",
  kind: "write",
  idempotent: true,
  example: { note_ref: "notes@12", anchor: "a:storage" },
  input: {
    note_ref: z.string().min(3).max(MAX_NOTE_REF_CHARS).describe("<doc>@<seq> of the note."),
    anchor: anchorArg.optional(),
    key: keyArg.optional(),
    visibility: visibilityArg,
    lint_mode: lintModeArg,
  },
  output: { ...upsertOutput, note_ref: z.string() },
  handler: (ctx, args) => {
    const match = NOTE_REF.exec(args.note_ref.trim());
    if (!match)
      fail("INVALID_INPUT", `"${args.note_ref.slice(0, 80)}" is not a note ref.`, "Use <doc>@<seq>, e.g. notes@12 (show lists seqs).", {
        field: "note_ref",
      });
    const [doc, seq] = [match[1] as string, Number(match[2])];
    const entry = entryBySeq(ctx.db, seq);
    if (entry === undefined || entry.doc !== doc) {
      fail("UNKNOWN_ID", `No entry ${doc}@${seq}.`, "Read the document with `show` to find the seq of the note.", {
        note_ref: `${doc}@${seq}`,
      });
    }
    if (entry.content.length > MAX_NODE_TEXT_CHARS) {
      fail(
        "PAYLOAD_TOO_LARGE",
        `${doc}@${seq} has ${entry.content.length} characters; a card holds ${MAX_NODE_TEXT_CHARS}.`,
        "Write a shorter note with the claim and promote that.",
        {
          note_ref: `${doc}@${seq}`,
        },
      );
    }
    const meta = entry.meta_json === null ? {} : (JSON.parse(entry.meta_json) as Record<string, unknown>);
    const anchor = args.anchor ?? (typeof meta.anchor === "string" ? meta.anchor : undefined);
    if (anchor === undefined) {
      fail("INVALID_INPUT", `${doc}@${seq} names no anchor.`, 'Pass anchor (e.g. "a:storage").', { field: "anchor" });
    }
    const noteRef = `${doc}@${seq}`;
    const result = upsertKnowledge(ctx, {
      anchor,
      key: args.key,
      card: {
        ...(entry.title === null ? {} : { title: entry.title }),
        text: entry.content,
        status: "open",
        tags: [],
        meta: { promoted_from: noteRef },
      },
      visibility: args.visibility,
      refuseTakenAutoKey: true,
    });
    return { ...withLint(ctx, result, args.lint_mode), note_ref: noteRef };
  },
});

export const knowledgeKeySuggest = defineCommand({
  name: "think.knowledge.key.suggest",
  tool: "knowledge_key_suggest",
  aliases: ["knowledge.key.suggest"],
  title: "Suggest a knowledge key",
  description:
    "A key slug for a piece of text (its Claim line, else its first line): the first words, lowercase, joined by dashes. collisions lists where that key is already used (the anchors you may see); with anchor, existing is the card (anchor, key) resolves to now.",
  kind: "read",
  input: { text: z.string().min(1).max(MAX_NODE_TEXT_CHARS), anchor: anchorArg.optional() },
  output: {
    suggested_key: z.string(),
    key_tag: z.string(),
    collisions: z.array(z.object({ anchor: z.string(), lane: z.string(), card_id: z.string(), version: z.number() })),
    existing: z.object({ card_id: z.string(), version: z.number(), lane: z.string() }).optional(),
    truncated: z.boolean(),
  },
  budget: { lists: ["collisions"], keep: ["anchor", "card_id"], trimFromEnd: true },
  handler: (ctx, args) => {
    const firstLine = args.text.split(/\r?\n/).find((line) => line.trim().length > 0) ?? "";
    const key = suggestKey(titleFromText(args.text, 200) ?? firstLine);
    if (key.length === 0)
      fail("INVALID_INPUT", "The text has no letters or digits to make a key from.", "Pass a short description of the fact.", {
        field: "text",
      });
    requireKey(key, args.text);
    const lanes = visibleLanes(ctx, false);
    const rows = canonicalRows(ctx, latestKeys(ctx.db, { key, lanes, limit: MAX_COLLISIONS }));
    const collisions = rows.map((row) => ({ anchor: anchorId(row.anchor), lane: row.lane, card_id: row.card_id, version: row.version }));
    const anchor = args.anchor === undefined ? undefined : expandAnchor(ctx, args.anchor);
    const existing = anchor === undefined ? undefined : rows.find((row) => row.anchor === anchor.slug);
    return {
      suggested_key: key,
      key_tag: keyTag(key),
      collisions,
      ...(existing === undefined ? {} : { existing: { card_id: existing.card_id, version: existing.version, lane: existing.lane } }),
      truncated: false,
    };
  },
});
