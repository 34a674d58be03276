/**
 * The two lookups `open` needs that no other store offers: a document entry by its global seq with its
 * content cut in SQL (so opening a 256 KB note under a 6k budget never loads it whole), and the task
 * of a step known by its id alone (step ids are unique across tasks). Each is one primary-key probe.
 */
import type { Db, SqlValue } from "../../workspace/db";
import type { EntryRow } from "../docs/docs.store";

/** The entry with this seq (any branch, any doc), content cut to `contentChars`, and its full length. */
export function entryAtSeq(db: Db, seq: number, contentChars: number): { row: EntryRow; contentLength: number } | undefined {
  const found = db.one<EntryRow & { content_length: number } & Record<string, SqlValue>>(
    `SELECT seq, branch_id, doc, kind, ts_ms, agent_id, title, format, meta_json, substr(content, 1, ?) AS content,
       identity_seq, source_event_id, length(content) AS content_length
     FROM doc_entries WHERE seq = ?`,
    Math.trunc(contentChars),
    seq,
  );
  if (found === undefined) return undefined;
  const { content_length: contentLength, ...row } = found;
  return { row, contentLength };
}

/** The task that owns step `stepId`, if the step exists. */
export function taskOfStep(db: Db, stepId: string): string | undefined {
  return db.one<{ task_id: string }>("SELECT task_id FROM steps WHERE id = ?", stepId)?.task_id;
}
