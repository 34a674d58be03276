/**
 * An anchor's snapshot (what `anchor_snapshot` and `open a:<slug>` show): the anchor resolved (an alias
 * answers for the anchor it stands for, with the warning ANCHOR_ALIAS_RESOLVED), its record when
 * registered, and the cards tagged with it or any of its aliases across every branch and graph doc,
 * canon-first: pinned, `v:canon`, decision, evidence, test, then the rest; newest first within a rank.
 *
 * The candidates are the newest MAX_SNAPSHOT_LINKS links in the lanes the caller may see; each is read
 * back through its branch's effective view, so a card deleted, superseded, re-tagged or pinned since
 * shows as it is now. A card id found on several branches shows once, from its newest write.
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { branchById, type Source, sourcesOf } from "../../place/branches.store";
import { fail } from "../../shared/errors";
import { anchorId, anchorProblem, anchorSlugOf, suggestSlug } from "../../shared/slugs";
import { type Card, cardSchema, toCard } from "../graph/card-shape";
import { isLive, lookupVersion } from "../graph/graph.store";
import { visibleLanes } from "../graph/lanes";
import { anchorLinks, type LinkRow } from "./anchor-links.store";
import { anchorSchema, toAnchorView } from "./anchors.schema";
import { aliasesOf, readAnchor, resolveAnchor } from "./anchors.store";
import { canonRank } from "./canon";

/** Links a snapshot reads at most (newest first); older cards of a busy anchor show as `has_more`. */
export const MAX_SNAPSHOT_LINKS = 200;
/** Status of a card replaced by a newer one (knowledge versions, nominal merge): not shown. */
const SUPERSEDED = "superseded";

export const ALIAS_RESOLVED = "ANCHOR_ALIAS_RESOLVED";

export interface SnapshotOptions {
  /** Cards shown at most. */
  limit: number;
  /** Every lane (like view=audit) instead of shared + the caller's own. */
  allLanes: boolean;
}

/** A card of a snapshot: where it lives, since a snapshot spans branches and graph docs. */
export const anchorCardSchema = cardSchema.extend({ branch: z.string(), graph_doc: z.string() });
export type AnchorCard = Card & { branch: string; graph_doc: string };

export const anchorSnapshotSchema = {
  kind: z.literal("anchor"),
  ref: z.string().describe("a:<slug> of the anchor shown (an alias is resolved to its anchor)."),
  anchor: z.string(),
  slug: z.string(),
  registered: z.boolean(),
  requested: z.string().optional().describe("The alias asked for, when it was resolved."),
  record: anchorSchema.optional().describe("The anchor's record, when registered."),
  aliases: z.array(z.string()),
  cards: z
    .array(anchorCardSchema)
    .describe("Canon-first: pinned, v:canon, decision, evidence, test, then the rest; newest first within each."),
  has_more: z.boolean(),
  truncated: z.boolean(),
};

/** The slug of an anchor argument, or INVALID_INPUT with a suggested slug. */
export function requireAnchorSlug(input: string, field = "anchor"): string {
  const slug = anchorSlugOf(input);
  const problem = anchorProblem(slug);
  if (problem === undefined) return slug;
  const suggestion = suggestSlug(slug);
  return fail(
    "INVALID_INPUT",
    `Invalid anchor "${input.slice(0, 80)}": ${problem}.`,
    `Use a:<slug> with lowercase letters, digits and dashes${suggestion ? `, e.g. a:${suggestion}` : ""}.`,
    { field, problem, ...(suggestion ? { suggestion: anchorId(suggestion) } : {}) },
  );
}

function readCards(ctx: CommandContext, slugs: string[], links: LinkRow[]): AnchorCard[] {
  const tags = new Set(slugs.map(anchorId));
  const sources = new Map<string, Source[]>();
  const seen = new Set<string>();
  const cards: AnchorCard[] = [];
  for (const link of links) {
    if (seen.has(link.card_id)) continue;
    seen.add(link.card_id);
    let view = sources.get(link.branch_id);
    if (view === undefined) {
      view = sourcesOf(ctx.db, branchById(ctx.db, link.branch_id));
      sources.set(link.branch_id, view);
    }
    const row = lookupVersion(ctx.db, view, link.graph_doc, "node", link.card_id);
    if (!isLive(row)) continue;
    const card = toCard(row);
    if (card.status === SUPERSEDED || !card.tags.some((tag) => tags.has(tag))) continue;
    cards.push({ ...card, branch: link.branch, graph_doc: link.graph_doc });
  }
  return cards.sort(
    (x, y) => canonRank(x.type, x.tags) - canonRank(y.type, y.tags) || y.last_seq - x.last_seq || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0),
  );
}

/** The snapshot and the links it was read from (the snapshot command lists their tasks). */
export function anchorSnapshot(ctx: CommandContext, input: string, options: SnapshotOptions) {
  const given = requireAnchorSlug(input);
  const resolved = resolveAnchor(ctx.db, given);
  if (resolved.aliasOf !== undefined) {
    ctx.warn({
      code: ALIAS_RESOLVED,
      message: `a:${resolved.aliasOf} is an alias of a:${resolved.slug}; showing a:${resolved.slug}.`,
      recovery: `Use a:${resolved.slug} from now on.`,
    });
  }
  const record = resolved.registered ? readAnchor(ctx.db, resolved.slug) : undefined;
  const aliases = aliasesOf(ctx.db, resolved.slug);
  const slugs = [resolved.slug, ...aliases];
  const lanes = visibleLanes(ctx, options.allLanes);
  const links = anchorLinks(ctx.db, slugs, lanes, MAX_SNAPSHOT_LINKS + 1);
  const window = links.slice(0, MAX_SNAPSHOT_LINKS);
  const cards = readCards(ctx, slugs, window);
  const id = anchorId(resolved.slug);
  const snapshot = {
    kind: "anchor" as const,
    ref: id,
    anchor: id,
    slug: resolved.slug,
    registered: record !== undefined,
    ...(resolved.aliasOf === undefined ? {} : { requested: anchorId(resolved.aliasOf) }),
    ...(record === undefined ? {} : { record: toAnchorView(record, aliases) }),
    aliases: aliases.map(anchorId),
    cards: cards.slice(0, options.limit),
    has_more: links.length > MAX_SNAPSHOT_LINKS || cards.length > options.limit,
    truncated: false,
  };
  return { snapshot, links: window };
}

/**
 * `open a:<slug>`: the anchor's snapshot (registered or not), `limit` cards canon-first, in the shared
 * lane and the caller's own unless `allLanes`.
 */
export function openAnchor(ctx: CommandContext, slug: string, options: SnapshotOptions) {
  return anchorSnapshot(ctx, slug, options).snapshot;
}
