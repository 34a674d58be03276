/**
 * What a node read selects, and how the term index (migration 0017, graph-terms.store.ts) serves it.
 *
 * A `NodeFilter` is a conjunction of conditions (`Condition`: cards only, types, statuses, open,
 * blockers, tags, text, ids) plus an optional lower seq bound. `planOf` picks the terms whose index
 * ranges hold every match (the *driver*: a union of terms, each one range per source and lane) and
 * leaves the conditions the driver does not imply as SQL (the *residual*, checked on each candidate).
 * A filter with no residual is *exact*: its ranges hold exactly its matches. `filterWhere` is the same
 * filter as plain SQL over a version `v`, for the paths that find candidates another way (ids through
 * the key index, text through the trigram index).
 *
 * Lists go in as one JSON parameter each (Durable Object SQLite allows 100 bound parameters). Text
 * search uses `instr` on lowercased values, not LIKE (patterns are capped at 50 bytes there).
 */
import { SHARED_LANE } from "../../shared/lanes";
import type { SqlValue } from "../../storage/db";
import { CARD_TYPES, CLOSED_STATUSES } from "./card-shape";
import { normalizeTags } from "./graph.schema";

/** Extra conditions on `v` with their bound parameters. */
export interface Where {
  sql: string;
  params: SqlValue[];
}

export type Condition =
  | { kind: "cards" }
  | { kind: "types"; values: string[] }
  | { kind: "status"; values: string[] }
  | { kind: "open" }
  | { kind: "blockers" }
  | { kind: "tags_any"; values: string[] }
  | { kind: "tags_all"; values: string[] }
  | { kind: "text"; value: string }
  | { kind: "ids"; values: string[] };

export interface NodeFilter {
  conditions: Condition[];
  /** Only versions with seq above this (a delta since a seq). */
  after?: number | undefined;
}

export const ANY_NODE: NodeFilter = { conditions: [] };

/** Every condition of every part, and the highest lower bound. */
export function allOf(...parts: NodeFilter[]): NodeFilter {
  const afters = parts.map((part) => part.after).filter((after) => after !== undefined);
  return { conditions: parts.flatMap((part) => part.conditions), ...(afters.length > 0 ? { after: Math.max(...afters) } : {}) };
}

/** A version's lane as the term index reads it: a text `meta.lane`, else the shared lane. */
const LANE_SQL = `CASE WHEN json_type(v.meta_json, '$.lane') = 'text' THEN v.meta_json ->> '$.lane' ELSE '${SHARED_LANE}' END`;

/** The lanes shown (`visibleLanes` in lanes.ts; null: every lane) as SQL over `v`. */
function laneWhere(lanes: string[] | null): Where {
  if (lanes === null) return { sql: "", params: [] };
  return { sql: ` AND ${LANE_SQL} IN (SELECT value FROM json_each(?))`, params: [JSON.stringify(lanes)] };
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

/** The filter of a graph or card query's arguments. */
export function queryFilter(filters: QueryFilters): NodeFilter {
  const conditions: Condition[] = [];
  if (filters.ids !== undefined) conditions.push({ kind: "ids", values: filters.ids });
  const types = list(filters.types);
  if (types !== undefined) conditions.push({ kind: "types", values: types });
  const status = list(filters.status);
  if (status !== undefined) conditions.push({ kind: "status", values: status });
  if (filters.tags_any !== undefined) conditions.push({ kind: "tags_any", values: normalizeTags(filters.tags_any) });
  if (filters.tags_all !== undefined) conditions.push({ kind: "tags_all", values: normalizeTags(filters.tags_all) });
  if (filters.text !== undefined) conditions.push({ kind: "text", value: filters.text });
  return { conditions };
}

const IS_CARD = new Set<string>(CARD_TYPES);
const json = (values: readonly string[]) => JSON.stringify(values);

/** One condition as SQL over `v`. */
function conditionWhere(condition: Condition): Where {
  switch (condition.kind) {
    case "cards":
      return { sql: " AND v.node_type IN (SELECT value FROM json_each(?))", params: [json(CARD_TYPES)] };
    case "types":
      return { sql: " AND v.node_type IN (SELECT value FROM json_each(?))", params: [json(condition.values)] };
    case "status":
      return { sql: " AND v.status IN (SELECT value FROM json_each(?))", params: [json(condition.values)] };
    case "open":
      return { sql: " AND (v.status IS NULL OR v.status NOT IN (SELECT value FROM json_each(?)))", params: [json(CLOSED_STATUSES)] };
    case "blockers":
      return { sql: " AND (v.status = 'blocked' OR (v.node_type = 'question' AND v.status = 'open'))", params: [] };
    case "tags_any":
      return {
        sql: " AND EXISTS (SELECT 1 FROM json_each(v.tags_json) t WHERE t.value IN (SELECT value FROM json_each(?)))",
        params: [json(condition.values)],
      };
    case "tags_all":
      return {
        sql: " AND (SELECT COUNT(DISTINCT t.value) FROM json_each(v.tags_json) t WHERE t.value IN (SELECT value FROM json_each(?))) = ?",
        params: [json(condition.values), condition.values.length],
      };
    case "text": {
      const needle = condition.value.toLowerCase();
      return {
        sql: " AND (instr(lower(v.key), ?) > 0 OR instr(lower(coalesce(v.title, '')), ?) > 0 OR instr(lower(coalesce(v.text, '')), ?) > 0)",
        params: [needle, needle, needle],
      };
    }
    case "ids":
      return { sql: " AND v.key IN (SELECT value FROM json_each(?))", params: [json(condition.values)] };
  }
}

function joined(parts: Where[]): Where {
  return { sql: parts.map((part) => part.sql).join(""), params: parts.flatMap((part) => part.params) };
}

/** The whole filter and the lanes as SQL over `v` (the lower bound included). */
export function filterWhere(filter: NodeFilter, lanes: string[] | null): Where {
  const after: Where = filter.after === undefined ? { sql: "", params: [] } : { sql: " AND v.seq > ?", params: [filter.after] };
  return joined([...filter.conditions.map(conditionWhere), laneWhere(lanes), after]);
}

/** How the term index serves a filter: the terms to read (bare, before lanes) and what is left to check. */
export interface Plan {
  terms: string[];
  residual: Where;
  /** No residual: the terms' ranges hold exactly the filter's matches. */
  exact: boolean;
}

/** The terms that hold every version satisfying the conditions `uses`, and which conditions they imply. */
interface Driver {
  terms: string[];
  uses: Condition[];
}

function first<K extends Condition["kind"]>(conditions: Condition[], kind: K): Extract<Condition, { kind: K }> | undefined {
  return conditions.find((condition) => condition.kind === kind) as Extract<Condition, { kind: K }> | undefined;
}

/**
 * The driver of a filter: the most specific terms that imply the most conditions. Card conditions
 * combine (`o:<type>` is a card of that type that is open); other conditions drive alone, most
 * selective first (tags, then types, then statuses), and the rest is residual.
 */
function driverOf(conditions: Condition[]): Driver {
  const cards = first(conditions, "cards");
  const types = first(conditions, "types");
  const open = first(conditions, "open");
  const blockers = first(conditions, "blockers");
  const tagsAny = first(conditions, "tags_any");
  const tagsAll = first(conditions, "tags_all");
  const status = first(conditions, "status");
  const cardTypes = (values: string[]) => values.filter((type) => IS_CARD.has(type));
  const withCards = (uses: Condition[]) => (cards === undefined ? uses : [cards, ...uses]);
  if (types !== undefined && open !== undefined && (cards !== undefined || types.values.every((type) => IS_CARD.has(type))))
    return { terms: cardTypes(types.values).map((type) => `o:${type}`), uses: withCards([types, open]) };
  if (blockers !== undefined && cards !== undefined) return { terms: ["blocker"], uses: [cards, blockers] };
  const tags = tagsAny ?? tagsAll;
  // An open card with a tag (a step's open cards): `og:<tag>` (migration 0019), not every card with it.
  if (tags !== undefined && open !== undefined && cards !== undefined) {
    const values = tagsAny !== undefined ? tagsAny.values : tags.values.slice(0, 1);
    return { terms: values.map((tag) => `og:${tag}`), uses: withCards([open, ...(tagsAny ? [tagsAny] : [])]) };
  }
  if (tags !== undefined) {
    // tags_all drives by its first tag; the condition stays residual (every tag must be there).
    const values = tagsAny !== undefined ? tagsAny.values : tags.values.slice(0, 1);
    const prefixes = cards === undefined ? ["cg:", "ng:"] : ["cg:"];
    return { terms: values.flatMap((tag) => prefixes.map((prefix) => `${prefix}${tag}`)), uses: withCards(tagsAny ? [tagsAny] : []) };
  }
  if (types !== undefined) {
    const values = cards === undefined ? types.values : cardTypes(types.values);
    return { terms: values.map((type) => `t:${type}`), uses: withCards([types]) };
  }
  if (open !== undefined && cards !== undefined) return { terms: ["open"], uses: [cards, open] };
  if (status !== undefined) return { terms: status.values.map((value) => `s:${value}`), uses: [status] };
  if (cards !== undefined) return { terms: ["card"], uses: [cards] };
  return { terms: ["card", "node"], uses: [] };
}

export function planOf(filter: NodeFilter): Plan {
  const driver = driverOf(filter.conditions);
  const rest = filter.conditions.filter((condition) => !driver.uses.includes(condition));
  return { terms: [...new Set(driver.terms)], residual: joined(rest.map(conditionWhere)), exact: rest.length === 0 };
}

/**
 * The index terms of a bare term for the lanes shown: a version in the shared lane is indexed under the
 * bare term, one in an agent's lane under `<term>@<lane>` and `<term>~` (migration 0017).
 */
export function laneTerms(term: string, lanes: string[] | null): string[] {
  if (lanes === null) return [term, `${term}~`];
  return lanes.map((lane) => (lane === SHARED_LANE ? term : `${term}@${lane}`));
}
