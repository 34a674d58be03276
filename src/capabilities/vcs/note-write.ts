/**
 * Writing a note (`vcs.notes.commit`, and every capability that leaves a note: tasks, think, trace):
 * the size checks, the append, and the branch head set by `vcs.reset`/`vcs.commit` moving along with it.
 */
import type { CommandContext } from "../../commands/context";
import type { Branch } from "../../place/branches.store";
import { DEFAULT_DOCS } from "../../place/documents";
import { checkContentSize } from "../docs/docs.rules";
import { appendEntry, type EntryRow } from "../docs/docs.store";
import { followHead } from "./vcs.store";

export interface NoteInput {
  doc?: string | undefined;
  title?: string | undefined;
  format?: string | undefined;
  meta?: Record<string, unknown> | undefined;
  content: string;
}

/** Appends a note (default doc `notes`) after the size checks; the caller journals it. */
export function writeNote(ctx: CommandContext, branch: Branch, note: NoteInput): EntryRow {
  checkContentSize(note.content, note.meta);
  const row = appendEntry(ctx, {
    branch,
    doc: note.doc ?? DEFAULT_DOCS.notes,
    kind: "note",
    title: note.title,
    format: note.format,
    meta: note.meta,
    content: note.content,
  });
  followHead(ctx.db, branch, row.seq);
  return row;
}
