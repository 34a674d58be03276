/**
 * Where a restore stands, kept in `workspace_meta` (key `restore`) from its header page until its
 * trailer: the next line it expects, the table whose rows are arriving, the digest so far, and the
 * records whose `resolved_by` points at a record still to come. Every page reads it and writes it back
 * in its own transaction, so a failed page leaves it as it was and the restore continues from that page.
 * After the trailer the key `restored` remembers where the workspace came from.
 */
import type { WriteGuard } from "../../commands/workspace-hooks";
import { fail } from "../../shared/errors";
import { suggest } from "../../shared/suggestion";
import type { Db } from "../../storage/db";
import { deleteMeta, getMeta, metaProbe, setMeta } from "../../storage/meta";
import type { Clocks } from "./export-format";

export interface RestoreState {
  source_workspace: string;
  schema_version: number;
  /** The header's clocks (the trailer's are the ones set). */
  clocks: Clocks;
  next_line: number;
  /** Index in EXPORT_TABLES of the table whose rows are arriving; -1 before the first table line. */
  table: number;
  digest: string;
  /** Record id → the ids of records restored with a provisional `resolved_by` until it arrives. */
  pending_resolved_by: Record<string, string[]>;
}

export interface RestoredMark {
  source_workspace: string;
  lines: number;
  digest: string;
  /** The clocks the restore set: while they hold, the workspace is as restored. */
  tick: number;
  seq: number;
}

export function readRestore(db: Db): RestoreState | undefined {
  return parseRestore(getMeta(db, "restore"));
}

/** The stored `restore` meta value, parsed (for a caller that read it with other keys). */
export function parseRestore(text: string | undefined): RestoreState | undefined {
  return text === undefined ? undefined : (JSON.parse(text) as RestoreState);
}

export function writeRestore(db: Db, state: RestoreState): void {
  setMeta(db, "restore", JSON.stringify(state));
}

export function clearRestore(db: Db): void {
  deleteMeta(db, "restore");
}

export function readRestored(db: Db): RestoredMark | undefined {
  const text = getMeta(db, "restored");
  return text === undefined ? undefined : (JSON.parse(text) as RestoredMark);
}

export function markRestored(db: Db, mark: RestoredMark): void {
  clearRestore(db);
  setMeta(db, "restored", JSON.stringify(mark));
}

/** The refusal every write but a restore page meets while a restore is unfinished. */
export function refuseWhileRestoring(state: RestoreState | undefined, tool: string): void {
  if (state === undefined) return;
  fail(
    "RESTORE_IN_PROGRESS",
    `A restore into this workspace is unfinished (next line ${state.next_line}); ${tool} must wait until it completes.`,
    "Finish the restore: send the export's lines from the expected line on with workspace_import {jsonl} (npm run restore resumes by itself), or give it up with workspace_import {abort_restore: true}, which empties the workspace.",
    { next_line: state.next_line, source_workspace: state.source_workspace },
    [suggest("workspace_import", { abort_restore: true }, "Give up the unfinished restore and empty the workspace.")],
  );
}

/** The calls a restore is made of (workspace_import with jsonl or abort_restore): the rest wait for it. */
export function isRestoreCall(args: Record<string, unknown>): boolean {
  return args.jsonl !== undefined || args.abort_restore !== undefined;
}

/** The write guard that holds every other write while a restore is unfinished (registered in the catalog). */
export const RESTORE_GUARD: WriteGuard = {
  probe: metaProbe("restore"),
  beforeReplay: (write) => refuseWhileRestoring(parseRestore(write.probe === null ? undefined : String(write.probe)), write.command.tool),
};
