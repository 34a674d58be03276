/**
 * Orientation reads (seed 004 "Orientation Commands"; no activation needed, no side effects; the
 * project overview is the projects capability's): `records.search` (search_records: FTS5, escaped, an absolute relevance,
 * ties by bm25, and a snippet), `records.list` (list_records: tree order, filters, depth, paged) and
 * `records.get_ref` (get_record_ref). Every list is bounded and trimmed to the read budget.
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { fail } from "../../shared/errors";
import { keyedPageBudget, keyedPaginationSchema } from "../../shared/keyed-page";
import {
  DEFAULT_LIST_RECORDS,
  DEFAULT_SEARCH_LIMIT,
  MAX_COUNTED_MATCHES,
  MAX_LIST_RECORDS,
  MAX_RANKED_MATCHES,
  MAX_RECORD_DEPTH,
  MAX_SEARCH_LIMIT,
  MAX_SEARCH_QUERY_CHARS,
  projectIdField,
  recordIdSchema,
  recordRefSchema,
  recordTypeSchema,
  stateSchema,
} from "./records.schema";
import { findRef, type ListFilter, listRefs, type RefRow, requireRecord, toRef } from "./records.store";
import { searchRecords } from "./search.store";
import { ftsQuery, searchWords } from "./search-query";
import { phrasesOf } from "./search-relevance";

const statesFilter = z.array(stateSchema).max(4).optional().describe("Only records in these states.");
const typesFilter = z.array(recordTypeSchema).max(20).optional().describe("Only records of these types.");

export const recordsSearch = defineCommand({
  name: "records.search",
  tool: "search_records",
  title: "Search records",
  description: `Full-text search over record titles, summaries and bodies: each result is a RecordRef with relevance and a snippet (matches in **bold**), best first, plus the total count (up to ${MAX_COUNTED_MATCHES}, total_capped past it). relevance (0-1) comes from the record and the query alone, so it compares across searches: 0.8 × placement (per word: title 1, else summary 0.5, else body 0.25; averaged) + 0.2 × the share of the title's words that are query words — 1 is a title of exactly the query's words, 0.2 words only in bodies; equal relevance is ordered by bm25. Words are ANDed; a word ending in * is a prefix; punctuation, quotes and operators (AND OR NOT NEAR, col:term) are searched as text, never as syntax. Filters: types, states, parent_id (its subtree). At most limit results (default ${DEFAULT_SEARCH_LIMIT}). When more than ${MAX_RANKED_MATCHES} records match, the ${MAX_RANKED_MATCHES} most recently created are ranked (ranked says how many; a warning says when).`,
  kind: "read",
  example: { query: "storage engine" },
  input: {
    query: z.string().min(1).max(MAX_SEARCH_QUERY_CHARS),
    types: typesFilter,
    states: statesFilter,
    parent_id: recordIdSchema.optional().describe("Only descendants of this record."),
    limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).default(DEFAULT_SEARCH_LIMIT),
    ...projectIdField,
  },
  output: {
    results: z.array(
      recordRefSchema.extend({
        relevance: z.number().describe("0-1, from this record and the query alone: comparable across searches."),
        snippet: z.string(),
      }),
    ),
    total: z.number(),
    total_capped: z.boolean(),
    ranked: z.number().describe(`Matches ranked: all of them, or the ${MAX_RANKED_MATCHES} most recently created when more match.`),
    terms: z.array(z.string()).describe("The words searched."),
  },
  budget: { lists: ["results"], keep: ["id", "title", "state", "relevance"], trimFromEnd: true },
  handler: (ctx, args) => {
    const query = ftsQuery(args.query);
    const phrases = phrasesOf(searchWords(args.query).words);
    const under = args.parent_id === undefined ? undefined : requireRecord(ctx.db, args.parent_id, "parent_id").path;
    if (query.dropped.length > 0) {
      ctx.warn({
        code: "SEARCH_TERMS_DROPPED",
        message: `Ignored ${query.dropped.length} word(s) without letters or digits, or past the word limit: ${query.dropped.slice(0, 5).join(" ")}`,
        recovery: "Search with words; punctuation and operators are plain text here.",
      });
    }
    if (query.match === null) return { results: [], total: 0, total_capped: false, ranked: 0, terms: [] };
    const filter = { types: args.types, states: args.states, underPath: under };
    const { rows, total } = searchRecords(ctx.db, query.match, phrases, filter, {
      limit: args.limit,
      rank: MAX_RANKED_MATCHES,
      cap: MAX_COUNTED_MATCHES,
    });
    const ranked = Math.min(total, MAX_RANKED_MATCHES);
    if (total > ranked) {
      ctx.warn({
        code: "SEARCH_RANKED_NEWEST",
        message: `${total > MAX_COUNTED_MATCHES ? `More than ${MAX_COUNTED_MATCHES}` : total} records match; the ${MAX_RANKED_MATCHES} most recently created of them were ranked.`,
        recovery: `Add words, or filter by types, states or parent_id, until ${MAX_RANKED_MATCHES} or fewer match, to rank every match.`,
      });
    }
    return {
      results: rows.map((row) => ({ ...toRef(row), relevance: row.relevance, snippet: row.snippet })),
      total: Math.min(total, MAX_COUNTED_MATCHES),
      total_capped: total > MAX_COUNTED_MATCHES,
      ranked,
      terms: query.terms,
    };
  },
});

const LIST_BUDGET = keyedPageBudget("records", "id", ["id", "state", "depth"]);

export const recordsList = defineCommand({
  name: "records.list",
  tool: "list_records",
  title: "List records",
  description: `Records as refs in tree order (a parent before its children, siblings by id), paged with cursor = next_cursor. parent_id omitted: every record (depth: levels from the roots); null: the roots and depth-1 levels below; an id: its descendants, depth levels deep (default 1: its children). Filters: states, types. At most limit (default ${DEFAULT_LIST_RECORDS}).`,
  kind: "read",
  input: {
    states: statesFilter,
    types: typesFilter,
    parent_id: recordIdSchema.nullable().optional().describe("null: roots only; an id: that record's subtree; omitted: everything."),
    depth: z.number().int().min(1).max(MAX_RECORD_DEPTH).optional().describe("Levels to list (default 1 under a parent_id or null)."),
    limit: z.number().int().min(1).max(MAX_LIST_RECORDS).default(DEFAULT_LIST_RECORDS),
    cursor: recordIdSchema.optional().describe("The last id of the previous page (its next_cursor)."),
    ...projectIdField,
  },
  output: { records: z.array(recordRefSchema.extend({ depth: z.number() })), pagination: keyedPaginationSchema },
  budget: LIST_BUDGET,
  handler: (ctx, args) => {
    const filter: ListFilter = { states: args.states, types: args.types };
    if (args.parent_id === null) filter.maxDepth = args.depth ?? 1;
    else if (args.parent_id !== undefined) {
      const parent = requireRecord(ctx.db, args.parent_id, "parent_id");
      filter.under = { path: parent.path, maxDepth: parent.depth + (args.depth ?? 1) };
    } else if (args.depth !== undefined) filter.maxDepth = args.depth;
    if (args.cursor !== undefined) {
      const after = findRef(ctx.db, args.cursor);
      if (!after) {
        fail("INVALID_INPUT", `cursor ${args.cursor} names no record.`, "Pass the next_cursor of the previous page, or omit cursor.", {
          field: "cursor",
        });
      }
      filter.afterPath = after.path;
    }
    const rows = listRefs(ctx.db, filter, args.limit);
    const shown = rows.slice(0, args.limit);
    const hasMore = rows.length > args.limit;
    return {
      records: shown.map((row: RefRow) => ({ ...toRef(row), depth: row.depth })),
      pagination: {
        cursor: args.cursor ?? null,
        ...(hasMore ? { next_cursor: (shown[shown.length - 1] as RefRow).id } : {}),
        has_more: hasMore,
        limit: args.limit,
        count: shown.length,
      },
    };
  },
});

export const recordsGetRef = defineCommand({
  name: "records.get_ref",
  tool: "get_record_ref",
  title: "Get a record ref",
  description:
    "A record's reference without activating it: id, type, title, summary, state, parent_id, children_count, open_children_count.",
  kind: "read",
  example: { id: "R001" },
  input: { id: recordIdSchema, ...projectIdField },
  output: recordRefSchema.shape,
  handler: (ctx, args) => {
    const row = findRef(ctx.db, args.id);
    if (!row) requireRecord(ctx.db, args.id);
    return toRef(row as RefRow);
  },
});
