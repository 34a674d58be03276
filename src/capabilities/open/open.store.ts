/**
 * The two lookups `open` needs that no other store offers: a document entry by its global seq with its
 * content cut in SQL (so opening a 256 KB note under a 6k budget never loads it whole), and the task
 * of a step known by its id alone (step ids are unique across tasks). Each is one primary-key probe.
 */
import { decodePrefix, prefixSql } from "../../shared/stored-text";
import type { Db, SqlValue } from "../../storage/db";
import type { EntryRow } from "../docs/docs.store";

/**
 * The entry with this seq (any branch, any doc), content cut to its first `contentChars` code points
 * (as UTF-8 bytes in SQL, see shared/stored-text.ts: a text `substr` would stop at a NUL).
 * `truncated`: the stored content is longer than the one returned. `contentLength`: the returned
 * content's length when it is whole, else one more (the stored content is at least that long): so
 * `contentLength > row.content.length` exactly when it was cut.
 */
export function entryAtSeq(
  db: Db,
  seq: number,
  contentChars: number,
): { row: EntryRow; contentLength: number; truncated: boolean } | undefined {
  const found = db.one<EntryRow & Record<string, SqlValue>>(
    `SELECT seq, branch_id, doc, kind, ts_ms, agent_id, title, format, meta_json, ${prefixSql("content", contentChars)} AS content,
       identity_seq, source_event_id
     FROM doc_entries WHERE seq = ?`,
    seq,
  );
  if (found === undefined) return undefined;
  const content = decodePrefix(found.content, contentChars) ?? { text: "", cut: false };
  const row: EntryRow = { ...found, content: content.text };
  return { row, contentLength: content.text.length + (content.cut ? 1 : 0), truncated: content.cut };
}

/** The task that owns step `stepId`, if the step exists. */
export function taskOfStep(db: Db, stepId: string): string | undefined {
  return db.one<{ task_id: string }>("SELECT task_id FROM steps WHERE id = ?", stepId)?.task_id;
}
