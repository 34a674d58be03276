/**
 * The anchor record (seed 002 meaning map, facts §3.6) as stored and as shown: kinds, statuses, input
 * bounds, and the zod shapes commands return. Slugs are stored bare; every id shown carries `a:`.
 */
import { z } from "zod";
import { MAX_TITLE_CHARS } from "../../shared/limits";
import { anchorId } from "../../shared/slugs";

export const ANCHOR_KINDS = ["boundary", "component", "contract", "data", "test-surface", "ops"] as const;
export type AnchorKind = (typeof ANCHOR_KINDS)[number];
export const ANCHOR_STATUSES = ["active", "deprecated"] as const;
export type AnchorStatus = (typeof ANCHOR_STATUSES)[number];
/** Anchors registered without a kind (by a canon card, a note, or bootstrap without one). */
export const DEFAULT_KIND: AnchorKind = "component";
/** An anchor's description: a paragraph, not a document. */
export const MAX_DESCRIPTION_CHARS = 4 * 1024;
/** Refs per anchor (paths, code refs, links) and the length of one. */
export const MAX_REFS = 32;
export const MAX_REF_CHARS = 512;
/** depends_on entries and aliases declared per anchor in one call. */
export const MAX_RELATIONS = 32;
/** Anchors given to one bootstrap call: one transaction, well under a second. */
export const MAX_BOOTSTRAP_ANCHORS = 200;

export interface AnchorRecord {
  slug: string;
  title: string;
  kind: AnchorKind;
  description: string | null;
  refs: string[];
  parent: string | null;
  depends_on: string[];
  status: AnchorStatus;
  origin: string;
  created_at_ms: number;
  updated_at_ms: number;
  created_by: string;
}

export const anchorSchema = z.object({
  id: z.string().describe("a:<slug>"),
  title: z.string(),
  kind: z.enum(ANCHOR_KINDS),
  description: z.string().optional(),
  refs: z.array(z.string()),
  aliases: z.array(z.string()).describe("Old ids that now resolve to this anchor."),
  parent: z.string().optional(),
  depends_on: z.array(z.string()),
  status: z.enum(ANCHOR_STATUSES),
  origin: z.string().describe("How it was registered: bootstrap, note (macro_anchor_note), card (a canon card), rename."),
  created_at_ms: z.number(),
  updated_at_ms: z.number(),
});
export type AnchorView = z.infer<typeof anchorSchema>;

export function toAnchorView(record: AnchorRecord, aliases: string[]): AnchorView {
  return {
    id: anchorId(record.slug),
    title: record.title,
    kind: record.kind,
    ...(record.description === null ? {} : { description: record.description }),
    refs: record.refs,
    aliases: aliases.map(anchorId),
    ...(record.parent === null ? {} : { parent: anchorId(record.parent) }),
    depends_on: record.depends_on.map(anchorId),
    status: record.status,
    origin: record.origin,
    created_at_ms: record.created_at_ms,
    updated_at_ms: record.updated_at_ms,
  };
}

/** Input of an anchor id: `a:<slug>` or `<slug>` (checked by the handler, which suggests a fix). */
export const anchorArg = z.string().min(1).max(80).describe("An anchor: `a:<slug>` or `<slug>`.");

export const anchorTitle = z.string().min(1).max(MAX_TITLE_CHARS);
