/**
 * Document entries: append, paged effective views and directional diffs.
 *
 * An effective view is the union of a branch's sources (see `sourcesOf`). A page is one statement:
 * one bounded, index-only seq scan per source (`(branch_id, doc, seq)`), merged and cut to the page by
 * SQLite, then the full rows of the chosen seqs — so a page costs O(depth × limit) index steps and
 * `limit` row reads whatever the size of the store. View SQL
 * (branch literals, bounds) comes from `branches/views.store.ts`; user values are always bound.
 *
 * Presence for diff and merge is by identity: a merged copy carries the `identity_seq` of its original,
 * so an entry is present in a view when any entry of that view has the same identity.
 */
import type { CommandContext } from "../../commands/context";
import { type Branch, branchById, type Source } from "../../place/branches.store";
import { inViewSql, seqBoundsSql, unsharedRanges } from "../../place/views.store";
import { prefixSql, prefixText } from "../../shared/stored-text";
import { advance } from "../../storage/clocks";
import type { Db, SqlValue } from "../../storage/db";
import { limitSql, type SeqScan, unionAllOf } from "../../storage/seq-scans";
import type { Entry } from "./docs.schema";

export type EntryKind = "note" | "event";

export interface EntryRow {
  seq: number;
  branch_id: string;
  doc: string;
  kind: EntryKind;
  ts_ms: number;
  agent_id: string;
  title: string | null;
  format: string | null;
  meta_json: string | null;
  content: string;
  identity_seq: number;
  source_event_id: string | null;
}

export interface NewEntry {
  branch: Branch;
  doc: string;
  kind: EntryKind;
  title?: string | undefined;
  format?: string | undefined;
  meta?: Record<string, unknown> | undefined;
  content: string;
  agent_id?: string;
  identity_seq?: number;
  source_event_id?: string;
}

const ENTRY_COLUMNS = "seq, branch_id, doc, kind, ts_ms, agent_id, title, format, meta_json, content, identity_seq, source_event_id";

/**
 * Selected columns; with `contentChars`, content is cut in SQL so a page never loads more than it can
 * show. It is cut as UTF-8 bytes (a text `substr` stops at a NUL) and decoded by `withContent`.
 */
function selectColumns(contentChars: number | undefined): string {
  if (contentChars === undefined) return ENTRY_COLUMNS;
  return ENTRY_COLUMNS.replace(" content,", ` ${prefixSql("content", contentChars)} AS content,`);
}

/** Rows read with `selectColumns(contentChars)`, their content decoded to its first `contentChars` code points. */
function withContent(rows: EntryRow[], contentChars: number | undefined): EntryRow[] {
  if (contentChars === undefined) return rows;
  for (const row of rows) row.content = prefixText(row.content, contentChars);
  return rows;
}

export function appendEntry(ctx: CommandContext, entry: NewEntry): EntryRow {
  const seq = advance(ctx.db, "seq");
  const row: EntryRow = {
    seq,
    branch_id: entry.branch.id,
    doc: entry.doc,
    kind: entry.kind,
    ts_ms: ctx.nowMs,
    agent_id: entry.agent_id ?? ctx.principal.agent_id,
    title: entry.title ?? null,
    format: entry.format ?? null,
    meta_json: entry.meta === undefined ? null : JSON.stringify(entry.meta),
    content: entry.content,
    identity_seq: entry.identity_seq ?? seq,
    source_event_id: entry.source_event_id ?? null,
  };
  ctx.db.run(
    `INSERT INTO doc_entries (${ENTRY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    row.seq,
    row.branch_id,
    row.doc,
    row.kind,
    row.ts_ms,
    row.agent_id,
    row.title,
    row.format,
    row.meta_json,
    row.content,
    row.identity_seq,
    row.source_event_id,
  );
  ctx.db.run(
    `INSERT INTO documents (branch_id, doc, first_seq, last_seq, entry_count) VALUES (?, ?, ?, ?, 1)
     ON CONFLICT (branch_id, doc) DO UPDATE SET last_seq = excluded.last_seq, entry_count = entry_count + 1`,
    row.branch_id,
    row.doc,
    seq,
    seq,
  );
  return row;
}

export function toEntry(row: EntryRow, branchName: string): Entry {
  const entry: Entry = {
    seq: row.seq,
    ts: new Date(row.ts_ms).toISOString(),
    ts_ms: row.ts_ms,
    branch: branchName,
    doc: row.doc,
    kind: row.kind,
    agent_id: row.agent_id,
    content: row.content,
  };
  if (row.title !== null) entry.title = row.title;
  if (row.format !== null) entry.format = row.format;
  if (row.meta_json !== null) entry.meta = JSON.parse(row.meta_json) as Record<string, unknown>;
  return entry;
}

/** Resolves branch ids of rows to names, once per id; names of the given sources are known already. */
export function namer(db: Db, sources: Source[] = []): (id: string) => string {
  const cache = new Map<string, string>(sources.map((source) => [source.branch_id, source.name]));
  return (id) => {
    let name = cache.get(id);
    if (name === undefined) {
      name = branchById(db, id).name;
      cache.set(id, name);
    }
    return name;
  };
}

export interface PageWindow {
  /** Newest-first pages: only seqs below this (the `cursor` of show/diff). */
  before?: number | undefined;
  /** Oldest-first pages: only seqs above this (the `cursor` of merge). */
  after?: number | undefined;
  limit: number;
  order: "newest" | "oldest";
  notesOnly?: boolean;
  /**
   * Read at most this many characters (code points) of each content. Callers pass the read budget + 1:
   * an entry longer than the whole budget can only be shown as a stub, so its full text is never needed.
   */
  contentChars?: number | undefined;
  /**
   * The caller's own agent lane: entries a card write left in another agent's lane (`meta.lane`, a
   * draft) are skipped. Undefined: every lane (audit reads, backups, merges).
   */
  lane?: string | undefined;
}

function windowSql(window: PageWindow): string {
  let sql = "";
  if (window.before !== undefined) sql += ` AND seq < ${Math.trunc(window.before)}`;
  if (window.after !== undefined) sql += ` AND seq > ${Math.trunc(window.after)}`;
  if (window.notesOnly) sql += " AND kind = 'note'";
  return sql;
}

interface Scan {
  branch_id: string;
  lower: number | null;
  upper: number | null;
}

/**
 * The full rows of a page, in page order, in one statement (a Durable Object pays a fixed cost per
 * statement): the scans' seqs merged and cut to `limit + 1`, then those rows (the one past the page
 * only says that more remain).
 */
function mergedPage(db: Db, scans: SeqScan[], window: PageWindow): { rows: EntryRow[]; has_more: boolean } {
  if (scans.length === 0) return { rows: [], has_more: false };
  const direction = window.order === "newest" ? "DESC" : "ASC";
  const rows = db.all<EntryRow & Record<string, SqlValue>>(
    `SELECT ${selectColumns(window.contentChars)} FROM doc_entries WHERE seq IN (
       SELECT seq FROM (${unionAllOf(scans.map((scan) => scan.sql))}) ORDER BY seq ${direction}${limitSql(window.limit + 1)}
     ) ORDER BY seq ${direction}`,
    ...scans.flatMap((scan) => scan.params),
  );
  return { rows: withContent(rows.slice(0, window.limit), window.contentChars), has_more: rows.length > window.limit };
}

function pageOfScans(
  db: Db,
  scans: Scan[],
  doc: string,
  window: PageWindow,
  absentFrom?: Source[],
): { rows: EntryRow[]; has_more: boolean } {
  const direction = window.order === "newest" ? "DESC" : "ASC";
  const absent = absentFrom
    ? ` AND NOT EXISTS (SELECT 1 FROM doc_entries f WHERE f.identity_seq = e.identity_seq AND f.doc = e.doc AND (${inViewSql("f", absentFrom)}))`
    : "";
  const lanes = window.lane === undefined ? "" : " AND coalesce(json_extract(e.meta_json, '$.lane'), 'shared') IN ('shared', ?)";
  const seqScans = scans.map((scan) => ({
    sql: `SELECT e.seq FROM doc_entries e WHERE e.branch_id = +? AND e.doc = +?${seqBoundsSql("e.seq", scan.lower, scan.upper)}${windowSql(window)}${lanes}${absent} ORDER BY e.seq ${direction}${limitSql(window.limit + 1)}`,
    params: window.lane === undefined ? [scan.branch_id, doc] : [scan.branch_id, doc, window.lane],
    upper: scan.upper,
  }));
  return mergedPage(db, seqScans, window);
}

/** A page of the effective view of `doc` over `sources`. */
export function viewPage(db: Db, sources: Source[], doc: string, window: PageWindow): { rows: EntryRow[]; has_more: boolean } {
  const scans = sources.map((source) => ({
    branch_id: source.branch_id,
    lower: null,
    upper: source.cutoff,
  }));
  return pageOfScans(db, scans, doc, window);
}

/**
 * A page of the entries present in the `to` view and absent from the `from` view. Ranges that both
 * views share (same branch, up to the smaller cutoff) are skipped without reading them.
 */
export function diffPage(db: Db, from: Source[], to: Source[], doc: string, window: PageWindow): { rows: EntryRow[]; has_more: boolean } {
  const scans = unsharedRanges(to, from).map(({ source, lower }) => ({ branch_id: source.branch_id, lower, upper: source.cutoff }));
  return pageOfScans(db, scans, doc, window, from);
}

/** Documents written on any of the sources (own docs, and inherited ones first written before the cutoff). */
export function documentsOf(db: Db, sources: Source[], limit: number): { doc: string; branch_id: string }[] {
  const rows: { doc: string; branch_id: string }[] = [];
  const seen = new Set<string>();
  for (const source of sources) {
    const docs = db.all<{ doc: string }>(
      `SELECT doc FROM documents WHERE branch_id = ?${seqBoundsSql("first_seq", null, source.cutoff)} ORDER BY doc LIMIT ?`,
      source.branch_id,
      limit,
    );
    for (const { doc } of docs) {
      if (seen.has(doc)) continue;
      seen.add(doc);
      rows.push({ doc, branch_id: source.branch_id });
    }
  }
  rows.sort((a, b) => (a.doc < b.doc ? -1 : a.doc > b.doc ? 1 : 0));
  return rows.slice(0, limit);
}

export function lastEntry(db: Db): EntryRow | undefined {
  return db.one<EntryRow & Record<string, SqlValue>>(`SELECT ${ENTRY_COLUMNS} FROM doc_entries ORDER BY seq DESC LIMIT 1`);
}

export function entryBySeq(db: Db, seq: number): EntryRow | undefined {
  return db.one<EntryRow & Record<string, SqlValue>>(`SELECT ${ENTRY_COLUMNS} FROM doc_entries WHERE seq = ?`, seq);
}

/** True when entry `seq` belongs to the view made of `sources`. */
export function inView(row: EntryRow, sources: Source[]): boolean {
  return sources.some((source) => source.branch_id === row.branch_id && (source.cutoff === null || row.seq <= source.cutoff));
}

/** A page of notes across all docs of a view, newest first, at or below `upTo` (VCS log). */
export function notesPage(
  db: Db,
  sources: Source[],
  window: PageWindow & { upTo: number | null },
): { rows: EntryRow[]; has_more: boolean } {
  const scans = sources.map((source) => {
    const upper = source.cutoff === null ? window.upTo : window.upTo === null ? source.cutoff : Math.min(source.cutoff, window.upTo);
    return {
      sql: `SELECT e.seq FROM doc_entries e WHERE e.branch_id = ? AND e.kind = 'note'${seqBoundsSql("e.seq", null, upper)}${windowSql({ ...window, notesOnly: false })} ORDER BY e.seq DESC${limitSql(window.limit + 1)}`,
      params: [source.branch_id],
      upper,
    };
  });
  return mergedPage(db, scans, { ...window, order: "newest" });
}

/** Whether the branch's doc already holds the entry ingested from this event (task trace ingestion). */
export function hasEventEntry(db: Db, branchId: string, doc: string, eventId: string): boolean {
  return (
    db.one("SELECT 1 AS one FROM doc_entries WHERE branch_id = ? AND doc = ? AND source_event_id = ?", branchId, doc, eventId) !== undefined
  );
}

/** What the docs keep of a deleted branch (its entries and documents), forgotten with it (a branch-rows cleaner). */
export function deleteBranchDocs(db: Db, branchId: string): void {
  db.run("DELETE FROM doc_entries WHERE branch_id = ?", branchId);
  db.run("DELETE FROM documents WHERE branch_id = ?", branchId);
}
