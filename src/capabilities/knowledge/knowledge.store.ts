/**
 * Knowledge key index (migration 0010): the latest card of each (anchor, key, lane) and every version
 * it had. Reads are newest first by `updated_seq` (the seq of the card write), ties by card id, and
 * always bounded; anchors are passed expanded (an anchor and its aliases), since keys written before a
 * rename stay under the old slug until they are written again.
 */
import type { CommandContext } from "../../commands/context";
import type { Db, SqlValue } from "../../storage/db";

export interface KeyRow {
  anchor: string;
  key: string;
  lane: string;
  card_id: string;
  version: number;
  content_hash: string;
  expiry: string | null;
  created_seq: number;
  updated_seq: number;
  created_at_ms: number;
  updated_at_ms: number;
  updated_by: string;
}

export interface VersionRow {
  anchor: string;
  key: string;
  lane: string;
  seq: number;
  version: number;
  card_id: string;
  ts_ms: number;
  agent_id: string;
}

const KEY_COLUMNS =
  "anchor, key, lane, card_id, version, content_hash, expiry, created_seq, updated_seq, created_at_ms, updated_at_ms, updated_by";

type Rows<T> = T & Record<string, SqlValue>;

/** The rows of `key` in `lane` under any of `anchors` (an anchor and its aliases), newest first. */
export function keyRows(db: Db, anchors: string[], key: string, lane: string): KeyRow[] {
  return db.all<Rows<KeyRow>>(
    `SELECT ${KEY_COLUMNS} FROM knowledge_keys WHERE anchor IN (SELECT value FROM json_each(?)) AND key = ? AND lane = ?
     ORDER BY updated_seq DESC LIMIT ?`,
    JSON.stringify(anchors),
    key,
    lane,
    anchors.length,
  );
}

/** Makes `row` the latest of its (anchor, key, lane); rows of the same key under aliases are folded into it. */
export function saveKey(db: Db, row: KeyRow, foldedAnchors: string[]): void {
  db.run(
    "DELETE FROM knowledge_keys WHERE anchor IN (SELECT value FROM json_each(?)) AND key = ? AND lane = ?",
    JSON.stringify(foldedAnchors),
    row.key,
    row.lane,
  );
  db.run(
    `INSERT INTO knowledge_keys (${KEY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (anchor, key, lane) DO UPDATE SET card_id = excluded.card_id, version = excluded.version,
       content_hash = excluded.content_hash, expiry = excluded.expiry, updated_seq = excluded.updated_seq,
       updated_at_ms = excluded.updated_at_ms, updated_by = excluded.updated_by`,
    row.anchor,
    row.key,
    row.lane,
    row.card_id,
    row.version,
    row.content_hash,
    row.expiry,
    row.created_seq,
    row.updated_seq,
    row.created_at_ms,
    row.updated_at_ms,
    row.updated_by,
  );
}

export function addVersion(ctx: CommandContext, row: Omit<VersionRow, "ts_ms" | "agent_id">): void {
  ctx.db.run(
    "INSERT INTO knowledge_versions (anchor, key, lane, seq, version, card_id, ts_ms, agent_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    row.anchor,
    row.key,
    row.lane,
    row.seq,
    row.version,
    row.card_id,
    ctx.nowMs,
    ctx.principal.agent_id,
  );
}

export interface KeyFilter {
  /** Anchors (expanded with aliases); undefined: every anchor. */
  anchors?: string[] | undefined;
  key?: string | undefined;
  /** Lanes; null: every lane. */
  lanes: string[] | null;
  /** Only rows with updated_seq below this (query pages). */
  before?: number | undefined;
  limit: number;
}

/** Latest rows matching `filter`, newest first (updated_seq, then card id), at most `limit`. */
export function latestKeys(db: Db, filter: KeyFilter): KeyRow[] {
  const where: string[] = [];
  const params: SqlValue[] = [];
  if (filter.anchors !== undefined) {
    where.push("anchor IN (SELECT value FROM json_each(?))");
    params.push(JSON.stringify(filter.anchors));
  }
  if (filter.key !== undefined) {
    where.push("key = ?");
    params.push(filter.key);
  }
  if (filter.lanes !== null) {
    where.push("lane IN (SELECT value FROM json_each(?))");
    params.push(JSON.stringify(filter.lanes));
  }
  if (filter.before !== undefined) {
    where.push("updated_seq < ?");
    params.push(filter.before);
  }
  return db.all<Rows<KeyRow>>(
    `SELECT ${KEY_COLUMNS} FROM knowledge_keys${where.length === 0 ? "" : ` WHERE ${where.join(" AND ")}`}
     ORDER BY updated_seq DESC, card_id LIMIT ?`,
    ...params,
    filter.limit,
  );
}

/** The versions of one key in one lane (under an anchor or its aliases), newest first. */
export function keyHistory(db: Db, anchors: string[], key: string, lane: string, limit: number): VersionRow[] {
  return db.all<Rows<VersionRow>>(
    `SELECT anchor, key, lane, seq, version, card_id, ts_ms, agent_id FROM knowledge_versions
     WHERE anchor IN (SELECT value FROM json_each(?)) AND key = ? AND lane = ? ORDER BY seq DESC LIMIT ?`,
    JSON.stringify(anchors),
    key,
    lane,
    limit,
  );
}
