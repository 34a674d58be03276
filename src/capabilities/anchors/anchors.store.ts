/**
 * Anchor storage (migration 0011): registered anchors, aliases (old ids and the anchor each stands
 * for), `path:` bindings, and the alias/relation rewrites of rename and merge. Every read is bounded
 * by a named constant; relation rewrites are single statements, so they touch every referencing row
 * however many there are.
 */
import type { CommandContext } from "../../commands/context";
import type { Db, SqlValue } from "../../storage/db";
import type { AnchorKind, AnchorRecord, AnchorStatus } from "./anchors.schema";

/** Anchors (and aliases) one map-wide read loads at most: export, lint. A map is hundreds, not millions. */
export const MAX_MAP_ANCHORS = 1_000;
/** Aliases shown per anchor (an anchor renamed more often than this shows its newest names only). */
export const MAX_ALIASES_PER_ANCHOR = 50;
/** Bindings one path lookup returns (one per prefix and anchor; paths are a few segments deep). */
export const MAX_PATH_MATCHES = 50;

interface AnchorRow {
  slug: string;
  title: string;
  kind: string;
  description: string | null;
  refs_json: string;
  parent: string | null;
  depends_on_json: string;
  status: string;
  origin: string;
  created_at_ms: number;
  updated_at_ms: number;
  created_by: string;
}

const COLUMNS =
  "slug, title, kind, description, refs_json, parent, depends_on_json, status, origin, created_at_ms, updated_at_ms, created_by";

function toRecord(row: AnchorRow): AnchorRecord {
  return {
    slug: row.slug,
    title: row.title,
    kind: row.kind as AnchorKind,
    description: row.description,
    refs: JSON.parse(row.refs_json) as string[],
    parent: row.parent,
    depends_on: JSON.parse(row.depends_on_json) as string[],
    status: row.status as AnchorStatus,
    origin: row.origin,
    created_at_ms: row.created_at_ms,
    updated_at_ms: row.updated_at_ms,
    created_by: row.created_by,
  };
}

export function readAnchor(db: Db, slug: string): AnchorRecord | undefined {
  const row = db.one<AnchorRow & Record<string, SqlValue>>(`SELECT ${COLUMNS} FROM anchors WHERE slug = ?`, slug);
  return row === undefined ? undefined : toRecord(row);
}

export function isRegistered(db: Db, slug: string): boolean {
  return db.one("SELECT 1 AS one FROM anchors WHERE slug = ?", slug) !== undefined;
}

/** The anchor an alias stands for, if `alias` is one. */
export function aliasTarget(db: Db, alias: string): string | undefined {
  return db.one<{ anchor: string }>("SELECT anchor FROM anchor_aliases WHERE alias = ?", alias)?.anchor;
}

export interface ResolvedAnchor {
  /** The slug to use: the anchor itself, or the one the given alias stands for. */
  slug: string;
  registered: boolean;
  /** Set when the given slug was an alias. */
  aliasOf?: string;
}

/** A registered anchor wins over an alias of the same name; otherwise an alias resolves to its anchor. */
export function resolveAnchor(db: Db, slug: string): ResolvedAnchor {
  if (isRegistered(db, slug)) return { slug, registered: true };
  const target = aliasTarget(db, slug);
  if (target === undefined) return { slug, registered: false };
  return { slug: target, registered: isRegistered(db, target), aliasOf: slug };
}

/** The aliases of one anchor, sorted, at most MAX_ALIASES_PER_ANCHOR. */
export function aliasesOf(db: Db, slug: string): string[] {
  return db
    .all<{ alias: string }>("SELECT alias FROM anchor_aliases WHERE anchor = ? ORDER BY alias LIMIT ?", slug, MAX_ALIASES_PER_ANCHOR)
    .map((row) => row.alias);
}

/** Aliases of several anchors (a page of a list), grouped by anchor. */
export function aliasesOfMany(db: Db, slugs: string[]): Map<string, string[]> {
  const rows = db.all<{ alias: string; anchor: string }>(
    "SELECT alias, anchor FROM anchor_aliases WHERE anchor IN (SELECT value FROM json_each(?)) ORDER BY anchor, alias LIMIT ?",
    JSON.stringify(slugs),
    slugs.length * MAX_ALIASES_PER_ANCHOR,
  );
  const grouped = new Map<string, string[]>();
  for (const row of rows) grouped.set(row.anchor, [...(grouped.get(row.anchor) ?? []), row.alias]);
  return grouped;
}

/** A page of anchors by slug after `after`, optionally of one kind. */
export function listAnchors(
  db: Db,
  options: { after?: string | undefined; kind?: string | undefined; limit: number },
): { records: AnchorRecord[]; has_more: boolean } {
  const rows = db.all<AnchorRow & Record<string, SqlValue>>(
    `SELECT ${COLUMNS} FROM anchors WHERE slug > ?${options.kind === undefined ? "" : " AND kind = ?"} ORDER BY slug LIMIT ?`,
    options.after ?? "",
    ...(options.kind === undefined ? [] : [options.kind]),
    options.limit + 1,
  );
  return { records: rows.slice(0, options.limit).map(toRecord), has_more: rows.length > options.limit };
}

/** The whole map (bounded): anchors and aliases by slug. */
export function readMap(db: Db): { records: AnchorRecord[]; aliases: { alias: string; anchor: string }[]; has_more: boolean } {
  const page = listAnchors(db, { limit: MAX_MAP_ANCHORS });
  const aliases = db.all<{ alias: string; anchor: string }>(
    "SELECT alias, anchor FROM anchor_aliases ORDER BY alias LIMIT ?",
    MAX_MAP_ANCHORS + 1,
  );
  return { records: page.records, aliases: aliases.slice(0, MAX_MAP_ANCHORS), has_more: page.has_more || aliases.length > MAX_MAP_ANCHORS };
}

/** Writes an anchor (insert or full replace of its fields). */
export function saveAnchor(ctx: CommandContext, record: AnchorRecord): void {
  ctx.db.run(
    `INSERT INTO anchors (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (slug) DO UPDATE SET title = excluded.title, kind = excluded.kind, description = excluded.description,
       refs_json = excluded.refs_json, parent = excluded.parent, depends_on_json = excluded.depends_on_json,
       status = excluded.status, updated_at_ms = excluded.updated_at_ms`,
    record.slug,
    record.title,
    record.kind,
    record.description,
    JSON.stringify(record.refs),
    record.parent,
    JSON.stringify(record.depends_on),
    record.status,
    record.origin,
    record.created_at_ms,
    record.updated_at_ms,
    record.created_by,
  );
}

/** Registers a bare anchor (title = slug) unless it is registered already; true when it was added. */
export function registerAnchor(ctx: CommandContext, slug: string, kind: AnchorKind, origin: string): boolean {
  return (
    ctx.db.run(
      `INSERT INTO anchors (${COLUMNS}) VALUES (?, ?, ?, NULL, '[]', NULL, '[]', 'active', ?, ?, ?, ?) ON CONFLICT (slug) DO NOTHING`,
      slug,
      slug,
      kind,
      origin,
      ctx.nowMs,
      ctx.nowMs,
      ctx.principal.agent_id,
    ) > 0
  );
}

export function deleteAnchor(db: Db, slug: string): void {
  db.run("DELETE FROM anchors WHERE slug = ?", slug);
}

export function addAlias(ctx: CommandContext, alias: string, anchor: string, origin: string): void {
  ctx.db.run(
    "INSERT INTO anchor_aliases (alias, anchor, origin, created_at_ms) VALUES (?, ?, ?, ?) ON CONFLICT (alias) DO UPDATE SET anchor = excluded.anchor, origin = excluded.origin",
    alias,
    anchor,
    origin,
    ctx.nowMs,
  );
}

export function deleteAlias(db: Db, alias: string): void {
  db.run("DELETE FROM anchor_aliases WHERE alias = ?", alias);
}

/** Aliases of `from` now stand for `to` (no alias chains); returns how many moved. */
export function repointAliases(db: Db, from: string, to: string): number {
  return db.run("UPDATE anchor_aliases SET anchor = ? WHERE anchor = ?", to, from);
}

/**
 * Every `parent` and `depends_on` naming `from` names `to` instead (depends_on stays sorted and without
 * repeats); returns the number of anchors whose relations were rewritten.
 */
export function rewriteRelations(db: Db, from: string, to: string): number {
  const parents = db.all<{ slug: string }>("UPDATE anchors SET parent = ? WHERE parent = ? RETURNING slug", to, from);
  const depends = db.all<{ slug: string }>(
    `UPDATE anchors SET depends_on_json = (
       SELECT json_group_array(v) FROM (SELECT DISTINCT CASE WHEN value = ?1 THEN ?2 ELSE value END AS v FROM json_each(anchors.depends_on_json) ORDER BY v)
     ) WHERE EXISTS (SELECT 1 FROM json_each(anchors.depends_on_json) WHERE value = ?1) RETURNING slug`,
    from,
    to,
  );
  return new Set([...parents, ...depends].map((row) => row.slug)).size;
}

/** Drops the relations of `slug` that name itself (what a merge into a parent or dependency leaves). */
export function dropSelfRelations(db: Db, slug: string): void {
  db.run("UPDATE anchors SET parent = NULL WHERE slug = ? AND parent = ?", slug, slug);
  db.run(
    `UPDATE anchors SET depends_on_json = (SELECT json_group_array(value) FROM (SELECT value FROM json_each(anchors.depends_on_json) WHERE value <> ?1 ORDER BY value))
     WHERE slug = ?1 AND EXISTS (SELECT 1 FROM json_each(anchors.depends_on_json) WHERE value = ?1)`,
    slug,
  );
}

/** The path bindings of an anchor become exactly `paths`. */
export function setPathBindings(db: Db, slug: string, paths: string[]): void {
  db.run("DELETE FROM anchor_paths WHERE anchor = ? AND path NOT IN (SELECT value FROM json_each(?))", slug, JSON.stringify(paths));
  db.run(
    "INSERT INTO anchor_paths (path, anchor) SELECT value, ? FROM json_each(?) WHERE true ON CONFLICT (path, anchor) DO NOTHING",
    slug,
    JSON.stringify(paths),
  );
}

/** The bindings of `from` move to `to`. */
export function movePathBindings(db: Db, from: string, to: string): void {
  db.run("UPDATE OR IGNORE anchor_paths SET anchor = ? WHERE anchor = ?", to, from);
  db.run("DELETE FROM anchor_paths WHERE anchor = ?", from);
}

/** Bindings on any of `prefixes`, deepest (longest) path first, then by anchor. */
export function bindingsOn(db: Db, prefixes: string[]): { path: string; anchor: string }[] {
  return db.all<{ path: string; anchor: string }>(
    "SELECT path, anchor FROM anchor_paths WHERE path IN (SELECT value FROM json_each(?)) ORDER BY length(path) DESC, anchor LIMIT ?",
    JSON.stringify(prefixes),
    MAX_PATH_MATCHES,
  );
}
