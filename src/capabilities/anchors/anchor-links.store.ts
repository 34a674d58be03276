/**
 * Anchor links (migration 0011): which cards carry which `a:<slug>` tags, on any branch and graph doc.
 * `linkCardAnchors` is called by every card write (`writeCard` in think/cards.ts, so thinking and
 * knowledge cards alike): it makes the card's links match its tags, and registers the anchors of a
 * canon card that are neither registered nor aliases. Snapshots read the links newest first.
 */
import type { CommandContext } from "../../commands/context";
import { anchorSlugsOfTags } from "../../shared/slugs";
import { read } from "../../storage/clocks";
import type { Db, SqlValue } from "../../storage/db";
import { DEFAULT_KIND } from "./anchors.schema";
import { aliasTarget, registerAnchor } from "./anchors.store";
import { isCanon } from "./canon";

/** The state of a card as written (the fields of a graph node version that matter here). */
export interface LinkedCard {
  key: string;
  node_type?: string | null | undefined;
  tags?: string[] | null | undefined;
}

/**
 * Records the card's anchor links (and drops the links of tags it no longer carries). Called inside
 * the card write's transaction, after the card's versions were written.
 */
export function linkCardAnchors(ctx: CommandContext, branchId: string, graphDoc: string, card: LinkedCard, lane: string): void {
  const tags = card.tags ?? [];
  const slugs = anchorSlugsOfTags(tags);
  const type = card.node_type ?? "";
  ctx.db.run(
    "DELETE FROM anchor_links WHERE branch_id = ? AND graph_doc = ? AND card_id = ? AND anchor NOT IN (SELECT value FROM json_each(?))",
    branchId,
    graphDoc,
    card.key,
    JSON.stringify(slugs),
  );
  if (slugs.length === 0) return;
  const seq = read(ctx.db, "seq");
  ctx.db.run(
    `INSERT INTO anchor_links (anchor, branch_id, graph_doc, card_id, card_type, lane, last_seq, last_ts_ms)
     SELECT value, ?, ?, ?, ?, ?, ?, ? FROM json_each(?) WHERE true
     ON CONFLICT (anchor, branch_id, graph_doc, card_id) DO UPDATE SET card_type = excluded.card_type, lane = excluded.lane,
       last_seq = excluded.last_seq, last_ts_ms = excluded.last_ts_ms`,
    branchId,
    graphDoc,
    card.key,
    type,
    lane,
    seq,
    ctx.nowMs,
    JSON.stringify(slugs),
  );
  if (!isCanon(type, tags, lane)) return;
  for (const slug of slugs) {
    if (aliasTarget(ctx.db, slug) !== undefined) continue;
    if (registerAnchor(ctx, slug, DEFAULT_KIND, "card"))
      ctx.journal({ target: `a:${slug}`, summary: `registered a:${slug} (canon card ${card.key})` });
  }
}

export interface LinkRow {
  anchor: string;
  branch_id: string;
  branch: string;
  graph_doc: string;
  card_id: string;
  card_type: string;
  lane: string;
  last_seq: number;
}

/**
 * The newest links of any of `slugs` (on branches that still exist) in the given lanes (null: every
 * lane), at most `limit`.
 */
export function anchorLinks(db: Db, slugs: string[], lanes: string[] | null, limit: number): LinkRow[] {
  return db.all<LinkRow & Record<string, SqlValue>>(
    `SELECT l.anchor, l.branch_id, b.name AS branch, l.graph_doc, l.card_id, l.card_type, l.lane, l.last_seq
     FROM anchor_links l JOIN branches b ON b.id = l.branch_id
     WHERE l.anchor IN (SELECT value FROM json_each(?))${lanes === null ? "" : " AND l.lane IN (SELECT value FROM json_each(?))"}
     ORDER BY l.last_seq DESC, l.card_id LIMIT ?`,
    JSON.stringify(slugs),
    ...(lanes === null ? [] : [JSON.stringify(lanes)]),
    limit,
  );
}

/** Which of `slugs` some card is tagged with (any lane, any branch). */
export function linkedSlugs(db: Db, slugs: string[]): Set<string> {
  const rows = db.all<{ anchor: string }>(
    "SELECT value AS anchor FROM json_each(?) s WHERE EXISTS (SELECT 1 FROM anchor_links l WHERE l.anchor = s.value)",
    JSON.stringify(slugs),
  );
  return new Set(rows.map((row) => row.anchor));
}

/** The anchor links of a deleted branch's cards, forgotten with it (a branch-rows cleaner). */
export function deleteBranchAnchorLinks(db: Db, branchId: string): void {
  db.run("DELETE FROM anchor_links WHERE branch_id = ?", branchId);
}
