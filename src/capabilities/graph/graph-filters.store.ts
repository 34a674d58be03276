/**
 * SQL conditions for `graph_query` filters, with bound parameters (lists go in as one JSON parameter
 * each: Durable Object SQLite allows 100 bound parameters). Text search uses `instr` on lowercased
 * values, not LIKE (patterns are capped at 50 bytes there).
 */
import { agentLane } from "../../shared/lanes";
import type { SqlValue } from "../../storage/db";
import { normalizeTags } from "./graph.schema";
import type { Where } from "./graph-pages.store";

/**
 * The lanes a read shows (over graph versions `v`): shared and the caller's own (`agentId`), or every
 * lane (`agentId` undefined). Lanes isolate noise, not access: any reader may ask for all.
 */
export function laneWhere(agentId: string | undefined): Where {
  if (agentId === undefined) return { sql: "", params: [] };
  return { sql: " AND coalesce(json_extract(v.meta_json, '$.lane'), 'shared') IN ('shared', ?)", params: [agentLane(agentId)] };
}

export interface QueryFilters {
  ids?: string[] | undefined;
  types?: string | string[] | undefined;
  status?: string | string[] | undefined;
  tags_any?: string[] | undefined;
  tags_all?: string[] | undefined;
  text?: string | undefined;
}

function list(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value : [value];
}

export function queryWhere(filters: QueryFilters): Where {
  const parts: string[] = [];
  const params: SqlValue[] = [];
  const inList = (column: string, values: string[] | undefined) => {
    if (values === undefined) return;
    parts.push(` AND ${column} IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(values));
  };
  inList("v.key", filters.ids);
  inList("v.node_type", list(filters.types));
  inList("v.status", list(filters.status));
  if (filters.tags_any !== undefined) {
    parts.push(" AND EXISTS (SELECT 1 FROM json_each(v.tags_json) t WHERE t.value IN (SELECT value FROM json_each(?)))");
    params.push(JSON.stringify(normalizeTags(filters.tags_any)));
  }
  if (filters.tags_all !== undefined) {
    const tags = normalizeTags(filters.tags_all);
    parts.push(" AND (SELECT COUNT(DISTINCT t.value) FROM json_each(v.tags_json) t WHERE t.value IN (SELECT value FROM json_each(?))) = ?");
    params.push(JSON.stringify(tags), tags.length);
  }
  if (filters.text !== undefined) {
    parts.push(
      " AND (instr(lower(v.key), ?) > 0 OR instr(lower(coalesce(v.title, '')), ?) > 0 OR instr(lower(coalesce(v.text, '')), ?) > 0)",
    );
    const needle = filters.text.toLowerCase();
    params.push(needle, needle, needle);
  }
  return { sql: parts.join(""), params };
}
