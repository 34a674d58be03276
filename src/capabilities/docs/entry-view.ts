/**
 * How answers show document entries. The stored entry carries two timestamps and where it lives; seed
 * 000's entry is `{seq, ts, branch, doc, kind, title?, format?, meta?, content}`, and an agent pays for
 * every character it reads, so an answer shows:
 *
 * - one timestamp form, `ts` (the seed's; `ts_ms` stays the store's and the engine's);
 * - `branch` and `doc` only where they differ from the place the answer says it read (an effective view
 *   mixes base-branch entries, whose branch differs, so those keep theirs);
 * - an entry whose body another list of the same answer already holds (a task event in the timeline, a
 *   card in the card list at that version) by what names it: its `meta` keeps only the naming key and
 *   its `content` is left out.
 *
 * Shared by every capability that answers with entries; commands keep the stored `Entry` internally.
 */
import { z } from "zod";
import type { Entry } from "./docs.schema";

/** Where an answer says it read: entries equal to it leave these fields out. */
export interface EntryPlace {
  branch?: string | undefined;
  doc?: string | undefined;
}

export const entryViewSchema = z.object({
  seq: z.number(),
  ts: z.string(),
  branch: z.string().optional().describe("Left out when it is the branch the answer read."),
  doc: z.string().optional().describe("Left out when it is the document the answer read."),
  kind: z.enum(["note", "event"]),
  agent_id: z.string(),
  title: z.string().optional(),
  format: z.string().optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
  content: z.string().optional().describe("Left out when another list of the answer holds this entry's body (see meta)."),
});
export type EntryView = z.infer<typeof entryViewSchema>;

/** The entry as an answer shows it from `place`. */
export function entryView(entry: Entry, place: EntryPlace = {}): EntryView {
  const { seq, ts, ts_ms: _stored, branch, doc, ...rest } = entry;
  return {
    seq,
    ts,
    ...(branch !== place.branch ? { branch } : {}),
    ...(doc !== place.doc ? { doc } : {}),
    ...rest,
  };
}

/** An entry whose body the answer holds elsewhere, named by `meta[key]`: no content, meta only that key. */
export function mirrorView(entry: Entry, place: EntryPlace, key: string): EntryView {
  const { content: _held, meta, ...rest } = entryView(entry, place);
  return { ...rest, meta: { [key]: meta?.[key] } };
}

/** Entries as an answer shows them from `place`; `mirrors(entry)` names those the answer holds elsewhere. */
export function entryViews(entries: Entry[], place: EntryPlace, mirrors?: (entry: Entry) => string | undefined): EntryView[] {
  return entries.map((entry) => {
    const key = mirrors?.(entry);
    return key === undefined ? entryView(entry, place) : mirrorView(entry, place, key);
  });
}

/** A page of entries (a tail) as an answer shows it from `place`. */
export function pageView<P>(
  page: { entries: Entry[]; pagination: P },
  place: EntryPlace,
  mirrors?: (entry: Entry) => string | undefined,
): { entries: EntryView[]; pagination: P } {
  return { entries: entryViews(page.entries, place, mirrors), pagination: page.pagination };
}
