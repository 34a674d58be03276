/**
 * Storage of records (migration 0013): ids from the `record` clock, the record rows with their
 * materialized path and child counters, the bounded reads of refs, children and lists, and the shapes
 * answers show (versions: records-versions.store.ts). Every function runs inside the caller's
 * transaction; nothing here logs activity or advances the project tick (record-writes.ts does).
 */
import { fail } from "../../shared/errors";
import { suggest } from "../../shared/suggestion";
import { advance } from "../../storage/clocks";
import type { Db } from "../../storage/db";
import { iso, type RecordRef, type RecordState, type RecordView } from "./records.schema";
import type { VersionRow } from "./records-versions.store";

export interface RecordRow {
  num: number;
  id: string;
  type: string;
  title: string;
  summary: string;
  body: string;
  state: RecordState;
  state_reason: string | null;
  parent_id: string | null;
  path: string;
  depth: number;
  resolved_by: string | null;
  related_json: string;
  metadata_json: string | null;
  version: number;
  children_count: number;
  open_children_count: number;
  created_tick: number;
  modified_tick: number;
  modified_by_session: string;
  created_by: string;
  created_at_ms: number;
  modified_at_ms: number;
}

export type RefRow = Pick<
  RecordRow,
  "num" | "id" | "type" | "title" | "summary" | "state" | "parent_id" | "path" | "depth" | "children_count" | "open_children_count"
>;

type SqlRow<T> = T & Record<string, string | number | null>;

const RECORD_COLUMNS =
  "num, id, type, title, summary, body, state, state_reason, parent_id, path, depth, resolved_by, related_json, metadata_json, version, children_count, open_children_count, created_tick, modified_tick, modified_by_session, created_by, created_at_ms, modified_at_ms";
export const REF_COLUMNS = "num, id, type, title, summary, state, parent_id, path, depth, children_count, open_children_count";
const RECORD_COLUMN_LIST = RECORD_COLUMNS.split(", ");
const REF_COLUMN_SET = new Set(REF_COLUMNS.split(", "));

/** Width of one path segment: the record number, zero-padded so that path order is tree order. */
const PATH_SEGMENT_DIGITS = 8;

/** R001, zero-padded to 3 digits, wider past 999. */
export function recordIdOf(num: number): string {
  return `R${String(num).padStart(3, "0")}`;
}

export function nextRecordNum(db: Db): number {
  return advance(db, "record");
}

/** The materialized path of a record: its parent's path plus its own segment (`00000001/00000004/`). */
export function childPath(parentPath: string | null, num: number): string {
  return `${parentPath ?? ""}${String(num).padStart(PATH_SEGMENT_DIGITS, "0")}/`;
}

/** The exclusive upper end of a subtree's path range: every descendant's path lies in (path, end). */
export function subtreeEnd(path: string): string {
  return `${path.slice(0, -1)}0`;
}

export function findRecord(db: Db, id: string): RecordRow | undefined {
  return db.one<SqlRow<RecordRow>>(`SELECT ${RECORD_COLUMNS} FROM records WHERE id = ?`, id);
}

/** The record, or RECORD_NOT_FOUND (`role` names what the id was for: "parent", "resolved_by", …). */
export function requireRecord(db: Db, id: string, role = "record"): RecordRow {
  const row = findRecord(db, id);
  if (row) return row;
  return fail(
    "RECORD_NOT_FOUND",
    `No record ${id} in this project${role === "record" ? "" : ` (given as ${role})`}.`,
    "Check the id's spelling; search_records or list_records show the records that exist.",
    { id, field: role },
    [suggest("list_records", {}, "See the records of this project.")],
  );
}

/** The ids among `ids` that name no record, in the order given (at most MAX_RELATED ids are passed). */
export function missingIds(db: Db, ids: string[]): string[] {
  if (ids.length === 0) return [];
  const found = new Set(
    db.all<{ id: string }>("SELECT id FROM records WHERE id IN (SELECT value FROM json_each(?))", JSON.stringify(ids)).map((row) => row.id),
  );
  return ids.filter((id) => !found.has(id));
}

export function insertRecord(db: Db, row: RecordRow): void {
  db.run(
    `INSERT INTO records (${RECORD_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    row.num,
    row.id,
    row.type,
    row.title,
    row.summary,
    row.body,
    row.state,
    row.state_reason,
    row.parent_id,
    row.path,
    row.depth,
    row.resolved_by,
    row.related_json,
    row.metadata_json,
    row.version,
    row.children_count,
    row.open_children_count,
    row.created_tick,
    row.modified_tick,
    row.modified_by_session,
    row.created_by,
    row.created_at_ms,
    row.modified_at_ms,
  );
}

/**
 * Writes the changeable columns of a record. Title, summary and body are set only when they changed,
 * so the full-text trigger (AFTER UPDATE OF title, summary, body) reindexes only real text changes.
 */
export function saveRecord(db: Db, before: RecordRow, row: RecordRow): void {
  const textChanged = before.title !== row.title || before.summary !== row.summary || before.body !== row.body;
  const text = textChanged ? "title = ?, summary = ?, body = ?, " : "";
  db.run(
    `UPDATE records SET ${text}type = ?, state = ?, state_reason = ?, resolved_by = ?, related_json = ?, metadata_json = ?, version = ?,
       modified_tick = ?, modified_by_session = ?, modified_at_ms = ? WHERE id = ?`,
    ...(textChanged ? [row.title, row.summary, row.body] : []),
    row.type,
    row.state,
    row.state_reason,
    row.resolved_by,
    row.related_json,
    row.metadata_json,
    row.version,
    row.modified_tick,
    row.modified_by_session,
    row.modified_at_ms,
    row.id,
  );
}

/** Moves a parent's counters when a child is created (children +1) or enters or leaves OPEN. */
export function adjustChildCounts(db: Db, parentId: string, children: number, open: number): void {
  db.run(
    "UPDATE records SET children_count = children_count + ?, open_children_count = open_children_count + ? WHERE id = ?",
    children,
    open,
    parentId,
  );
}

/** A ref, one seek. */
export function findRef(db: Db, id: string): RefRow | undefined {
  return db.one<SqlRow<RefRow>>(`SELECT ${REF_COLUMNS} FROM records WHERE id = ?`, id);
}

/** OPEN children as refs, in number order, at most `limit` (cascade warnings). */
export function openChildRefs(db: Db, parentId: string, limit: number): RefRow[] {
  return db.all<SqlRow<RefRow>>(
    `SELECT ${REF_COLUMNS} FROM records INDEXED BY records_by_parent WHERE parent_id = ? AND state = 'OPEN' ORDER BY num LIMIT ${Math.trunc(limit)}`,
    parentId,
  );
}

/** What an activation's bundle reads of a record's family (see `bundleRowsOf`). */
export interface BundleRows {
  parent: RecordRow | undefined;
  /** OPEN children in number order: whole rows, or refs only (`openAsRefs`). */
  open: RecordRow[];
  openRefs: RefRow[];
  /** Other children and grandchildren as refs, in number order (empty when `openAsRefs`). */
  other: RefRow[];
  grand: RefRow[];
  /** The grandchildren under the first `childLimit` children: their parents' counters, and the rows found (at most `grandLimit + 1`). */
  grandTotal: number;
  grandRows: number;
}

/**
 * Everything a context bundle reads, in one statement (a Durable Object pays a fixed cost per
 * statement): the parent, the first `childLimit` OPEN children, the first `childLimit` other children,
 * and the first `grandLimit` children of the first `childLimit` children, each part tagged; the
 * grandchildren's counts ride on every row. With `openAsRefs`, only the parent, the OPEN children as
 * refs and the counts are read (the bundle may not need the rest: see `bundleOfOverflowingRefs`).
 */
export function bundleRowsOf(db: Db, record: RecordRow, childLimit: number, grandLimit: number, openAsRefs: boolean): BundleRows {
  const children = Math.trunc(childLimit);
  // Ref parts carry the record columns a ref does not use as NULL, so that every part has one shape.
  const refColumns = RECORD_COLUMN_LIST.map((column) => (REF_COLUMN_SET.has(column) ? column : `NULL AS ${column}`)).join(", ");
  const firstChildren = `SELECT id, children_count FROM records INDEXED BY records_by_parent WHERE parent_id = +?2 ORDER BY num LIMIT ${children}`;
  const grandParents = `SELECT id FROM (${firstChildren}) WHERE children_count > 0`;
  const parts = [
    `SELECT 0 AS part, ${RECORD_COLUMNS} FROM records WHERE id = ?1`,
    `SELECT 1 AS part, * FROM (SELECT ${openAsRefs ? refColumns : RECORD_COLUMNS} FROM records INDEXED BY records_by_parent
       WHERE parent_id = +?2 AND state = 'OPEN' ORDER BY num LIMIT ${children})`,
    ...(openAsRefs
      ? []
      : [
          `SELECT 2 AS part, * FROM (SELECT ${refColumns} FROM records INDEXED BY records_by_parent
             WHERE parent_id = +?2 AND state <> 'OPEN' ORDER BY num LIMIT ${children})`,
          `SELECT 3 AS part, * FROM (SELECT ${refColumns} FROM records WHERE parent_id IN (${grandParents}) ORDER BY num LIMIT ${Math.trunc(grandLimit)})`,
        ]),
  ];
  const rows = db.all<SqlRow<RecordRow & { part: number; grand_total: number; grand_rows: number }>>(
    `SELECT q.*, (SELECT total(children_count) FROM (${firstChildren})) AS grand_total,
       (SELECT count(*) FROM (SELECT 1 FROM records WHERE parent_id IN (${grandParents}) LIMIT ${Math.trunc(grandLimit) + 1})) AS grand_rows
     FROM (${parts.join(" UNION ALL ")}) q`,
    record.parent_id,
    record.id,
  );
  const part = (n: number) => rows.filter((row) => row.part === n).sort((a, b) => a.num - b.num);
  const open = part(1);
  return {
    parent: part(0)[0],
    open: openAsRefs ? [] : open,
    openRefs: openAsRefs ? open : [],
    other: part(2),
    grand: part(3),
    grandTotal: rows[0]?.grand_total ?? 0,
    grandRows: rows[0]?.grand_rows ?? 0,
  };
}

export interface ListFilter {
  states?: RecordState[] | undefined;
  types?: string[] | undefined;
  /** Only descendants of this path (exclusive), at most `maxDepth` deep. */
  under?: { path: string; maxDepth: number } | undefined;
  /** Only records at most this deep (roots are 1): list_records from the roots. */
  maxDepth?: number | undefined;
  /** Continue after this path (tree order). */
  afterPath?: string | undefined;
}

function filterSql(filter: ListFilter): { where: string; params: (string | number)[] } {
  const parts: string[] = [];
  const params: (string | number)[] = [];
  if (filter.states !== undefined && filter.states.length > 0) {
    parts.push("state IN (SELECT value FROM json_each(?))");
    params.push(JSON.stringify(filter.states));
  }
  if (filter.types !== undefined && filter.types.length > 0) {
    parts.push("type IN (SELECT value FROM json_each(?))");
    params.push(JSON.stringify(filter.types));
  }
  if (filter.under !== undefined) {
    parts.push("path > ? AND path < ? AND depth <= ?");
    params.push(filter.under.path, subtreeEnd(filter.under.path), filter.under.maxDepth);
  }
  if (filter.maxDepth !== undefined) {
    parts.push("depth <= ?");
    params.push(filter.maxDepth);
  }
  if (filter.afterPath !== undefined) {
    parts.push("path > ?");
    params.push(filter.afterPath);
  }
  return { where: parts.length === 0 ? "" : `WHERE ${parts.join(" AND ")}`, params };
}

/** Records as refs in tree order (a parent before its children, siblings by number), at most `limit + 1`. */
export function listRefs(db: Db, filter: ListFilter, limit: number): RefRow[] {
  const { where, params } = filterSql(filter);
  return db.all<SqlRow<RefRow>>(`SELECT ${REF_COLUMNS} FROM records ${where} ORDER BY path LIMIT ${Math.trunc(limit) + 1}`, ...params);
}

/** Roots, or records of one state, in number order, at most `limit + 1` (the overview). */
export function refsBy(db: Db, which: { roots: true } | { state: RecordState }, limit: number): RefRow[] {
  if ("roots" in which) {
    return db.all<SqlRow<RefRow>>(
      `SELECT ${REF_COLUMNS} FROM records INDEXED BY records_by_parent WHERE parent_id IS NULL ORDER BY num LIMIT ${Math.trunc(limit) + 1}`,
    );
  }
  return db.all<SqlRow<RefRow>>(
    `SELECT ${REF_COLUMNS} FROM records INDEXED BY records_by_state WHERE state = ? ORDER BY num LIMIT ${Math.trunc(limit) + 1}`,
    which.state,
  );
}

/** Roots or records of one state, counted up to `cap + 1`. */
export function countBy(db: Db, which: { roots: true } | { state: RecordState }, cap: number): number {
  if ("roots" in which) {
    return (
      db.one<{ n: number }>(
        `SELECT COUNT(*) AS n FROM (SELECT 1 FROM records INDEXED BY records_by_parent WHERE parent_id IS NULL LIMIT ${Math.trunc(cap) + 1})`,
      )?.n ?? 0
    );
  }
  return (
    db.one<{ n: number }>(
      `SELECT COUNT(*) AS n FROM (SELECT 1 FROM records INDEXED BY records_by_state WHERE state = ? LIMIT ${Math.trunc(cap) + 1})`,
      which.state,
    )?.n ?? 0
  );
}

// ---- shapes -------------------------------------------------------------------------------------

export function toRef(row: RefRow): RecordRef {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    summary: row.summary,
    state: row.state,
    parent_id: row.parent_id,
    children_count: row.children_count,
    open_children_count: row.open_children_count,
  };
}

export function toRecord(row: RecordRow): RecordView {
  const record: RecordView = {
    id: row.id,
    type: row.type,
    title: row.title,
    summary: row.summary,
    body: row.body,
    state: row.state,
    parent_id: row.parent_id,
    depth: row.depth,
    related: JSON.parse(row.related_json) as string[],
    version: row.version,
    children_count: row.children_count,
    open_children_count: row.open_children_count,
    created: iso(row.created_at_ms),
    modified: iso(row.modified_at_ms),
    created_tick: row.created_tick,
    modified_tick: row.modified_tick,
    modified_by_session: row.modified_by_session,
  };
  if (row.state_reason !== null) record.state_reason = row.state_reason;
  if (row.resolved_by !== null) record.resolved_by = row.resolved_by;
  if (row.metadata_json !== null) record.metadata = JSON.parse(row.metadata_json) as Record<string, unknown>;
  return record;
}

/** A version as the record it was then (counters and creation come from the current row). */
export function versionRecord(current: RecordRow, version: VersionRow): RecordView {
  return toRecord({
    ...current,
    type: version.type,
    title: version.title,
    summary: version.summary,
    body: version.body,
    state: version.state,
    state_reason: version.state_reason,
    resolved_by: version.resolved_by,
    related_json: version.related_json,
    metadata_json: version.metadata_json,
    version: version.version,
    modified_tick: version.tick,
    modified_by_session: version.session_id,
    modified_at_ms: version.ts_ms,
  });
}
