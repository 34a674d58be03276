/**
 * SQL conditions on card versions (`v`) that the card reads share: by type, open (not a closed
 * status), blockers (cards marked blocked, and questions still open), newer than a seq, and their
 * conjunction. Values are bound; only the fixed status words and column names are written into SQL.
 */
import type { Where } from "../graph/graph-pages.store";
import { CLOSED_STATUSES } from "./engine.model";

export const ANY: Where = { sql: "", params: [] };

export function ofType(type: string): Where {
  return { sql: " AND v.node_type = +?", params: [type] };
}

/** Not closed: the cold archive leaves closed cards out. */
export const OPEN: Where = {
  sql: " AND (v.status IS NULL OR v.status NOT IN (SELECT value FROM json_each(?)))",
  params: [JSON.stringify(CLOSED_STATUSES)],
};

/** Cards marked blocked, and questions still open. */
export const BLOCKERS: Where = { sql: " AND (v.status = 'blocked' OR (v.node_type = 'question' AND v.status = 'open'))", params: [] };

export function newerThan(seq: number): Where {
  return { sql: " AND v.seq > ?", params: [seq] };
}

export function allOf(...parts: Where[]): Where {
  return { sql: parts.map((part) => part.sql).join(""), params: parts.flatMap((part) => part.params) };
}
