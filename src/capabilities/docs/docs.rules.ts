/**
 * What every note writer shares: content and meta sizes in bytes (schemas bound characters; storage
 * is bounded in bytes), branch targeting (explicit branch, else the caller's checkout), and appending
 * a note that moves a branch head set by `reset`/`commit` along with it.
 */
import type { CommandContext } from "../../commands/context";
import { fail } from "../../shared/errors";
import { utf8Bytes } from "../../shared/json";
import { MAX_CONTENT_BYTES, MAX_META_BYTES } from "../../shared/limits";
import { type Branch, checkoutOf, requireBranch } from "../branches/branches.store";
import { followHead } from "../vcs/vcs.store";
import { DEFAULT_DOCS } from "./docs.schema";
import { appendEntry, type EntryRow } from "./docs.store";

export function checkContentSize(content: string, meta: Record<string, unknown> | undefined): void {
  const bytes = utf8Bytes(content);
  if (bytes > MAX_CONTENT_BYTES) {
    fail("PAYLOAD_TOO_LARGE", `content is ${bytes} bytes; the limit is ${MAX_CONTENT_BYTES}.`, "Split the content into several entries.", {
      bytes,
      max_bytes: MAX_CONTENT_BYTES,
    });
  }
  if (meta !== undefined) {
    const metaBytes = utf8Bytes(JSON.stringify(meta));
    if (metaBytes > MAX_META_BYTES) {
      fail(
        "PAYLOAD_TOO_LARGE",
        `meta is ${metaBytes} bytes; the limit is ${MAX_META_BYTES}.`,
        "Keep meta small; put long text in content.",
        {
          bytes: metaBytes,
          max_bytes: MAX_META_BYTES,
        },
      );
    }
  }
}

export function targetBranch(ctx: CommandContext, name: string | undefined): Branch {
  return name === undefined ? checkoutOf(ctx.db, ctx.principal.agent_id) : requireBranch(ctx.db, name);
}

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
