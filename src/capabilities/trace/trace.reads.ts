/**
 * Bounded reads of a trace document for the trace tools, built on the docs store's paged effective
 * views (no SQL of its own): the last number of sequences (a lookback of at most SEQUENCE_LOOKBACK
 * entries, read without content), a validation window, and compact entries for hydration.
 */

import type { Source } from "../../place/branches.store";
import type { Db } from "../../storage/db";
import type { EntryRow } from "../docs/docs.store";
import { viewPage } from "../docs/docs.store";
import type { SequenceLast, TraceRow } from "./trace.rules";
import { type CompactEntry, SEQUENCE_LOOKBACK, SEQUENCE_LOOKUP_PAGE, TRACE_PREVIEW_CHARS } from "./trace.schema";

function metaOf(row: EntryRow): Record<string, unknown> | undefined {
  return row.meta_json === null ? undefined : (JSON.parse(row.meta_json) as Record<string, unknown>);
}

/** `meta.trace` of an entry when it is an object. */
export function traceOf(row: EntryRow): Record<string, unknown> | undefined {
  if (row.kind !== "note" || row.meta_json === null || !row.meta_json.includes('"trace"')) return undefined;
  const trace = metaOf(row)?.trace;
  return trace !== null && typeof trace === "object" && !Array.isArray(trace) ? (trace as Record<string, unknown>) : undefined;
}

const positiveInt = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isInteger(value) && value >= 1 ? value : undefined;

/**
 * The last number of each named sequence: read from the newest sequential step of that sequence
 * (its `sequence_last`, else its `step_number`) among the newest SEQUENCE_LOOKBACK entries of the
 * view. A sequence with no step there is new (0) when the view holds nothing older, else "unknown".
 */
export function sequenceHeads(db: Db, sources: Source[], doc: string, names: string[]): Map<string, SequenceLast> {
  const heads = new Map<string, SequenceLast>();
  let before: number | undefined;
  let scanned = 0;
  while (scanned < SEQUENCE_LOOKBACK) {
    const limit = Math.min(SEQUENCE_LOOKUP_PAGE, SEQUENCE_LOOKBACK - scanned);
    const page = viewPage(db, sources, doc, { before, limit, order: "newest", contentChars: 0 });
    for (const row of page.rows) {
      scanned++;
      before = row.seq;
      if (row.meta_json === null || !row.meta_json.includes('"sequential"')) continue;
      const trace = traceOf(row);
      if (trace?.type !== "sequential" || typeof trace.sequence !== "string" || heads.has(trace.sequence)) continue;
      if (!names.includes(trace.sequence)) continue;
      const last = positiveInt(trace.sequence_last) ?? positiveInt(trace.step_number);
      if (last !== undefined) heads.set(trace.sequence, last);
    }
    if (names.every((name) => heads.has(name))) return heads;
    if (!page.has_more) {
      for (const name of names) if (!heads.has(name)) heads.set(name, 0);
      return heads;
    }
  }
  for (const name of names) if (!heads.has(name)) heads.set(name, "unknown");
  return heads;
}

/** The newest `limit` entries below `before`, oldest first, without content; `complete` when nothing is older. */
export function validationWindow(
  db: Db,
  sources: Source[],
  doc: string,
  before: number | undefined,
  limit: number,
): { rows: TraceRow[]; complete: boolean } {
  const page = viewPage(db, sources, doc, { before, limit, order: "newest", contentChars: 0 });
  const rows = page.rows.reverse().map((row) => ({ seq: row.seq, kind: row.kind, title: row.title, meta: metaOf(row) }));
  return { rows, complete: !page.has_more };
}

/** A page of compact entries (newest `limit` below `before`, oldest first); content is read only up to the preview. */
export function compactPage(
  db: Db,
  sources: Source[],
  doc: string,
  before: number | undefined,
  limit: number,
): { entries: CompactEntry[]; has_more: boolean } {
  const page = viewPage(db, sources, doc, { before, limit, order: "newest", contentChars: TRACE_PREVIEW_CHARS + 1 });
  const entries = page.rows.reverse().map((row) => {
    // SQLite's substr counts code points; so does the preview, so a surrogate pair is never split.
    const chars = Array.from(row.content);
    const entry: CompactEntry = {
      seq: row.seq,
      ts_ms: row.ts_ms,
      kind: row.kind,
      content: chars.length > TRACE_PREVIEW_CHARS ? chars.slice(0, TRACE_PREVIEW_CHARS).join("") : row.content,
      content_truncated: chars.length > TRACE_PREVIEW_CHARS,
    };
    if (row.title !== null) entry.title = row.title;
    const trace = traceOf(row);
    if (trace !== undefined) entry.trace = trace;
    return entry;
  });
  return { entries, has_more: page.has_more };
}
