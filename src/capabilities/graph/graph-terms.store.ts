/**
 * Filtered pages of a branch's effective nodes, read from the term index (migration 0017): every node
 * read that selects by type, status, open, blockers, tags or lane (graph_query and think_query without
 * text, every card list, the engine's slice, the frontier, the strict checks) finds every match,
 * whatever its age, newest first.
 *
 * A view's source i (branch S as of cutoff c; for i > 0 seen through the child C of S on the chain)
 * holds exactly the versions of `graph_terms` part 0 of S with seq <= c, and part 1 of C (what S has
 * superseded since C forked). For each source, part and index term (`planOf` and `laneTerms` in
 * graph-filters.store.ts), one range scan newest first:
 *
 * - the branch itself with an exact plan reads `limit + 1` index entries per range and nothing else;
 * - an ancestor's range also skips keys a nearer source shadows (one `graph_heads` seek each), and a
 *   plan with a residual skips entries that fail it: each range stops at `limit + 1` matches, so a page
 *   does (limit + 1) steps per range plus the entries it skips;
 * - a `bounded` page with a residual (graph_query's free combinations, and a text search's fallback)
 *   examines at most `MAX_EXAMINED_PER_RANGE` entries per range, and a page cut by that bound says where
 *   to continue.
 *
 * Statements: on a branch, one to learn which parts hold rows of the doc (the others are not read);
 * the ranges of every page, as few statements as their text allows (`MAX_STATEMENT_CHARS`); the cut of
 * a bounded page that needs one; the pages' rows. Ranges are merged into pages here.
 *
 * After an upgrade, until the versions written before the index are indexed (graph-terms-backfill.store.ts),
 * the index serves the versions above the backfill's mark and the graph's own scans (`effectivePage`,
 * exact, not bounded) the versions at or below it, so a read is exact from the first call.
 */
import type { Source } from "../../place/branches.store";
import { branchLiteral } from "../../place/views.store";
import type { Db, SqlValue } from "../../storage/db";
import { limitSql, unionAllOf } from "../../storage/seq-scans";
import { int, type VersionRow, versionsBySeq } from "./graph.store";
import { filterWhere, laneTerms, type NodeFilter, planOf } from "./graph-filters.store";
import { effectivePage, notShadowedSql, scansOf } from "./graph-pages.store";
import { termsPendingThrough } from "./graph-terms-backfill.store";

/**
 * Index entries one range of a `bounded` page examines at most. Filters the index cannot serve alone
 * (a type and a status together, say) would otherwise walk a whole range in one call; with the bound,
 * such a page comes back short with `has_more` and a cursor to continue from.
 */
export const MAX_EXAMINED_PER_RANGE = 1_000;

/** What one page asks for: the filter, the lanes shown (null: every lane), below `before`, at most `limit` nodes. */
export interface PageRequest {
  filter: NodeFilter;
  lanes: string[] | null;
  before?: number | undefined;
  limit: number;
  /** A residual is checked on at most MAX_EXAMINED_PER_RANGE entries per range (graph_query). Default: walk until the page fills. */
  bounded?: boolean;
}

export interface NodePage {
  rows: VersionRow[];
  has_more: boolean;
  /** Where to continue when the page was cut by the examination bound. */
  next_before?: number;
}

/** Durable Object SQLite binds at most 100 parameters; past this many, values are written as literals. */
const MAX_BOUND = 90;
/** SQL text per statement at most (SQLite refuses a statement over its length limit): ranges beyond go to the next one. */
const MAX_STATEMENT_CHARS = 50_000;

/** Numbered parameters shared by every range of a statement: a value bound once, used everywhere. */
class Binder {
  readonly values: SqlValue[] = [];
  private readonly numbers = new Map<SqlValue, number>();

  bind(value: SqlValue): string {
    const known = this.numbers.get(value);
    if (known !== undefined) return `?${known}`;
    if (this.values.length >= MAX_BOUND) return literal(value);
    this.values.push(value);
    this.numbers.set(value, this.values.length);
    return `?${this.values.length}`;
  }

  /** `sql` with its `?` placeholders bound to `params`, in order. */
  sql(sql: string, params: SqlValue[]): string {
    let next = 0;
    return sql.replace(/\?(?!\d)/g, () => this.bind(params[next++] ?? null));
  }
}

function literal(value: SqlValue): string {
  if (value === null) return "NULL";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "NULL";
  return `'${value.replaceAll("'", "''")}'`;
}

/** A part of a source: its branch's current versions (0), or what its fork child kept of it (1). */
interface Part {
  source: number;
  holder: string;
  part: 0 | 1;
  /** Highest seq the part may show (the source's cutoff, for part 0 of an ancestor). */
  upper: number | null;
}

function partsOf(sources: Source[]): Part[] {
  return sources.flatMap((source, index) => [
    { source: index, holder: source.branch_id, part: 0 as const, upper: source.cutoff },
    ...(index === 0 ? [] : [{ source: index, holder: (sources[index - 1] as Source).branch_id, part: 1 as const, upper: null }]),
  ]);
}

/** The parts that hold any row of `doc` (one statement; a branch alone has just its own part). */
function partsWithRows(db: Db, doc: string, sources: Source[]): Part[] {
  const parts = partsOf(sources);
  if (parts.length === 1) return parts;
  const probes = parts.map(
    (part, at) =>
      `SELECT ${at} AS at WHERE EXISTS (SELECT 1 FROM graph_terms t WHERE t.holder = ${branchLiteral(part.holder)} AND t.part = ${part.part} AND t.doc = +?1)`,
  );
  const found = new Set(db.all<{ at: number }>(unionAllOf(probes, "at"), doc).map((row) => row.at));
  return parts.filter((_, at) => found.has(at));
}

/** One index range of one page: a part, one index term; its matches come back newest first. */
interface Range {
  page: number;
  part: Part;
  term: string;
}

interface PagePlan {
  request: PageRequest;
  /** The index terms to read, lanes applied. */
  terms: string[];
  residual: { sql: string; params: SqlValue[] };
  bounded: boolean;
  /** The versions at or below this seq are not in the index yet (0: every version is). */
  pendingThrough: number;
}

function planPage(request: PageRequest, pendingThrough: number): PagePlan {
  const plan = planOf(request.filter);
  return {
    request,
    pendingThrough,
    terms: plan.terms.flatMap((term) => laneTerms(term, request.lanes)),
    residual: plan.residual,
    bounded: request.bounded === true && !plan.exact,
  };
}

/** The range's conditions on the index entry `t`. */
function entrySql(range: Range, plan: PagePlan, doc: string, binder: Binder): string {
  const { request } = plan;
  const above = Math.max(request.filter.after ?? 0, plan.pendingThrough);
  return (
    `t.holder = ${branchLiteral(range.part.holder)} AND t.part = ${range.part.part} AND t.doc = +${binder.bind(doc)} AND t.term = +${binder.bind(range.term)}` +
    (request.before === undefined ? "" : ` AND t.seq < ${int(request.before)}`) +
    (above === 0 ? "" : ` AND t.seq > ${int(above)}`) +
    (range.part.upper === null ? "" : ` AND t.seq <= ${int(range.part.upper)}`)
  );
}

/** The range's first `limit + 1` matches as (k, seq) rows; `k` numbers the range in its statement. */
function rangeSql(k: number, range: Range, plan: PagePlan, view: { doc: string; sources: Source[] }, binder: Binder): string {
  const entry = entrySql(range, plan, view.doc, binder);
  const take = limitSql(plan.request.limit + 1);
  const checks = `${binder.sql(plan.residual.sql, plan.residual.params)}${notShadowedSql(view.sources.slice(0, range.part.source))}`;
  if (checks === "") return `SELECT ${k} AS k, t.seq FROM graph_terms t WHERE ${entry} ORDER BY t.seq DESC${take}`;
  if (!plan.bounded)
    return `SELECT ${k} AS k, t.seq FROM graph_terms t CROSS JOIN graph_versions v ON v.seq = t.seq WHERE ${entry}${checks} ORDER BY t.seq DESC${take}`;
  // No ORDER BY outside: rows come in the candidates' order (newest first), so the LIMIT stops early.
  return (
    `SELECT ${k} AS k, c.seq FROM (SELECT t.seq FROM graph_terms t WHERE ${entry} ORDER BY t.seq DESC${limitSql(MAX_EXAMINED_PER_RANGE)}) c` +
    ` CROSS JOIN graph_versions v ON v.seq = c.seq WHERE 1${checks}${take}`
  );
}

/** Runs statements of (k, seq) rows built range by range, as few as the text allows; seqs per range, newest first. */
function runRanges<R>(db: Db, ranges: R[], sqlOf: (k: number, range: R, binder: Binder) => string): number[][] {
  const found: number[][] = ranges.map(() => []);
  let start = 0;
  while (start < ranges.length) {
    const binder = new Binder();
    const terms: string[] = [];
    let chars = 0;
    while (start + terms.length < ranges.length) {
      const term = sqlOf(start + terms.length, ranges[start + terms.length] as R, binder);
      if (terms.length > 0 && chars + term.length > MAX_STATEMENT_CHARS) break;
      terms.push(term);
      chars += term.length;
    }
    for (const row of db.all<{ k: number; seq: number }>(unionAllOf(terms, "k, seq"), ...binder.values)) found[row.k]?.push(row.seq);
    start += terms.length;
  }
  return found.map((seqs) => seqs.sort((a, b) => b - a));
}

/** Several pages of one view; each page is newest first. */
export function queryPages(db: Db, doc: string, sources: Source[], requests: PageRequest[]): NodePage[] {
  if (requests.length === 0) return [];
  const pendingThrough = termsPendingThrough(db);
  const plans = requests.map((request) => planPage(request, pendingThrough));
  const parts = partsWithRows(db, doc, sources);
  const ranges: Range[] = plans.flatMap((plan, page) => parts.flatMap((part) => plan.terms.map((term) => ({ page, part, term }))));
  const view = { doc, sources };
  const matches = runRanges(db, ranges, (k, range, binder) => rangeSql(k, range, plans[range.page] as PagePlan, view, binder));
  const cuts = boundedCuts(db, doc, ranges, plans, matches);
  const chosen = plans.map((plan, page) => {
    const cut = cuts.get(page);
    const seqs = new Set<number>(pendingThrough === 0 ? [] : notIndexedYet(db, doc, sources, plan.request, pendingThrough));
    ranges.forEach((range, at) => {
      if (range.page === page) for (const seq of matches[at] as number[]) seqs.add(seq);
    });
    if (cut !== undefined) for (const seq of seqs) if (seq < cut) seqs.delete(seq);
    return { cut, seqs: [...seqs].sort((a, b) => b - a).slice(0, plan.request.limit + 1) };
  });
  const rows = new Map(versionsBySeq(db, [...new Set(chosen.flatMap((page) => page.seqs))]).map((row) => [row.seq, row]));
  return chosen.map(({ cut, seqs }, page) => {
    const limit = (plans[page] as PagePlan).request.limit;
    const shown = seqs.slice(0, limit).map((seq) => rows.get(seq) as VersionRow);
    if (seqs.length > limit) return { rows: shown, has_more: true };
    return cut === undefined ? { rows: shown, has_more: false } : { rows: shown, has_more: true, next_before: cut };
  });
}

/**
 * Where each bounded page is cut: the highest seq at which one of its ranges, having found at most
 * `limit` matches, reached its examination bound (its MAX_EXAMINED_PER_RANGE-th entry). Nothing older
 * than the cut is shown, since that range did not look below it. One statement for every such range.
 */
function boundedCuts(db: Db, doc: string, ranges: Range[], plans: PagePlan[], matches: number[][]): Map<number, number> {
  const sparse = ranges.filter((range, at) => {
    const plan = plans[range.page] as PagePlan;
    return plan.bounded && (matches[at] as number[]).length <= plan.request.limit;
  });
  const cuts = new Map<number, number>();
  if (sparse.length === 0) return cuts;
  const found = runRanges(
    db,
    sparse,
    (k, range, binder) =>
      `SELECT ${k} AS k, t.seq FROM graph_terms t WHERE ${entrySql(range, plans[range.page] as PagePlan, doc, binder)} ORDER BY t.seq DESC LIMIT 1 OFFSET ${MAX_EXAMINED_PER_RANGE - 1}`,
  );
  sparse.forEach((range, at) => {
    const seq = found[at]?.[0];
    if (seq !== undefined) cuts.set(range.page, Math.max(cuts.get(range.page) ?? 0, seq));
  });
  return cuts;
}

/** The page's matches among the versions the index does not hold yet (seq <= `through`), by scanning the view. */
function notIndexedYet(db: Db, doc: string, sources: Source[], request: PageRequest, through: number): number[] {
  const before = Math.min(request.before ?? Number.MAX_SAFE_INTEGER, through + 1);
  const where = filterWhere(request.filter, request.lanes);
  return effectivePage(db, doc, "node", scansOf(sources), { before, limit: request.limit, order: "newest", where }).rows.map(
    (row) => row.seq,
  );
}

export function queryPage(db: Db, doc: string, sources: Source[], request: PageRequest): NodePage {
  return queryPages(db, doc, sources, [request])[0] as NodePage;
}
