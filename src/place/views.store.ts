/**
 * How effective views compare, and the SQL text that selects a view's rows. A view is a branch's
 * sources (see `sourcesOf`); both the document and the graph stores read through these helpers.
 * Branch ids (`BR-<digits>`, server-generated) and seq numbers are written into SQL text so each
 * source gets its own predicate; both are checked before being inlined. User values are always bound.
 */
import type { Source } from "./branches.store";

const BRANCH_ID = /^BR-\d+$/;

export function branchLiteral(id: string): string {
  if (!BRANCH_ID.test(id)) throw new Error(`refusing to inline branch id ${JSON.stringify(id)}`);
  return `'${id}'`;
}

/** `AND column > lower AND column <= upper` over literal integers (either bound may be absent). */
export function seqBoundsSql(column: string, lower: number | null, upper: number | null): string {
  const parts: string[] = [];
  if (lower !== null) parts.push(`${column} > ${Math.trunc(lower)}`);
  if (upper !== null) parts.push(`${column} <= ${Math.trunc(upper)}`);
  return parts.length === 0 ? "" : ` AND ${parts.join(" AND ")}`;
}

/**
 * A predicate matching rows of `alias` that belong to the view made of `sources` (before shadowing):
 * rows of a source's branch whose `seqColumn` is at most the source's cutoff.
 */
export function inViewSql(alias: string, sources: Source[], seqColumn = "seq"): string {
  return sources
    .map(
      (source) => `(${alias}.branch_id = ${branchLiteral(source.branch_id)}${seqBoundsSql(`${alias}.${seqColumn}`, null, source.cutoff)})`,
    )
    .join(" OR ");
}

/** A source of `of`, restricted to the seqs above `lower` that `other` does not share. */
export interface UnsharedRange {
  source: Source;
  /** Position of the source in `of` (0: the branch itself). */
  index: number;
  lower: number | null;
}

/**
 * The parts of view `of` that view `other` does not contain: ranges both views share (the same branch,
 * up to the smaller cutoff) hold the same rows and are left out, so a diff never reads them.
 */
export function unsharedRanges(of: Source[], other: Source[]): UnsharedRange[] {
  const otherCutoff = new Map(other.map((source) => [source.branch_id, source.cutoff]));
  const ranges: UnsharedRange[] = [];
  of.forEach((source, index) => {
    if (!otherCutoff.has(source.branch_id)) {
      ranges.push({ source, index, lower: null });
      return;
    }
    const shared = otherCutoff.get(source.branch_id) ?? null;
    if (shared === null || (source.cutoff !== null && source.cutoff <= shared)) return;
    ranges.push({ source, index, lower: shared });
  });
  return ranges;
}
