/**
 * `workspace.export` (admin): the whole workspace as JSONL, one bounded page per call, chained by an
 * opaque cursor (docs/export.md). The read budget is the page bound — a page is sized to fit it whole,
 * so no row is ever trimmed away — and one export is one consistent snapshot: a page refuses to
 * continue once the workspace changed after the first page (EXPORT_STALE).
 */
import { z } from "zod";
import type { CommandContext } from "../../commands/context";
import { defineCommand } from "../../commands/registry";
import { resolveLimits } from "../../shared/budget";
import { fail } from "../../shared/errors";
import { utf8Bytes } from "../../shared/json";
import { suggest } from "../../shared/suggestion";
import { changeCount, getMeta } from "../../storage/meta";
import { WORKSPACE_MIGRATIONS } from "../../storage/migrations";
import { checkTableCoverage } from "./export.store";
import { decodeCursor, type ExportCursor, encodeCursor, MAX_EXPORT_CURSOR_CHARS } from "./export-cursor";
import { DIGEST_START } from "./export-digest";
import { type PageBound, readPage } from "./export-page";
import { readRestore } from "./restore-state";

/**
 * The largest page, as it travels JSON-escaped: a page is sent back whole as workspace_import's
 * argument, and 800,000 characters (or bytes) plus the call's envelope stay well under the 1 MiB body cap.
 */
export const MAX_EXPORT_PAGE_CHARS = 800_000;
/** What an answer holds besides its lines: the cursor (a row key), the counters, warnings, a portal's capsule. */
const PAGE_RESERVE_CHARS = 4_000;
/** The smallest page a budget may leave: room for a few ordinary lines. */
const MIN_EXPORT_PAGE_CHARS = 1_000;
/** Lines of the answer's text block: one per field, the braces and the budget. */
const PAGE_TEXT_LINES = 10;

/** The page bound this call's budget leaves (max_chars / max_bytes / budget_profile, default 20,000). */
function pageBound(args: Parameters<typeof resolveLimits>[0]): PageBound {
  const { limits } = resolveLimits(args, "default");
  const ceiling = { chars: MAX_EXPORT_PAGE_CHARS, bytes: MAX_EXPORT_PAGE_CHARS };
  const chars = Math.min(limits.chars - PAGE_RESERVE_CHARS, ceiling.chars);
  const bytes = Math.min((limits.bytes ?? Number.POSITIVE_INFINITY) - PAGE_RESERVE_CHARS, ceiling.bytes);
  if (Math.min(chars, bytes) < MIN_EXPORT_PAGE_CHARS || (limits.lines !== undefined && limits.lines < PAGE_TEXT_LINES)) {
    const smallest = MIN_EXPORT_PAGE_CHARS + PAGE_RESERVE_CHARS;
    fail(
      "BUDGET_EXCEEDED",
      `An export page needs a budget of at least ${smallest} characters (and ${PAGE_TEXT_LINES} lines); this call allows ${limits.chars}.`,
      `Pass max_chars of at least ${smallest}; larger pages mean fewer calls (up to 1000000).`,
      { max_chars: limits.chars, min_max_chars: smallest },
    );
  }
  return { chars, bytes, ceiling };
}

/** The key this workspace signs its cursors with (migration 0016 made it). */
function cursorKeyOf(ctx: CommandContext): string {
  const key = getMeta(ctx.db, "cursor_key");
  if (key === undefined) throw new Error("workspace has no cursor_key: migration 0016 did not run");
  return key;
}

/** The cursor of the previous page, checked against the workspace as it is now. */
function resume(ctx: CommandContext, cursor: ExportCursor, schemaVersion: number, changes: number): ExportCursor {
  if (cursor.workspace !== ctx.workspace) {
    fail(
      "INVALID_INPUT",
      `This cursor belongs to an export of ${cursor.workspace}, not ${ctx.workspace}.`,
      "Export each workspace with its own cursors.",
      {
        field: "cursor",
        cursor_workspace: cursor.workspace,
      },
    );
  }
  if (cursor.schemaVersion !== schemaVersion || cursor.changeCount !== changes) {
    fail(
      "EXPORT_STALE",
      "The workspace changed after this export began, so its pages would not form one consistent snapshot.",
      "Start the export again without a cursor and discard the pages already received (npm run backup restarts by itself). Export while writes are paused to finish sooner.",
      { changes_since_start: Math.max(0, changes - cursor.changeCount), line: cursor.line },
      [suggest("workspace_export", {}, "Start a fresh export from line 0.")],
    );
  }
  return cursor;
}

export const workspaceExport = defineCommand({
  name: "workspace.export",
  tool: "workspace_export",
  title: "Export the workspace as JSONL (admin)",
  description: `One page of a JSONL dump of the whole workspace (every row of every table; docs/export.md): a header line (format, version, schema version, source workspace, clocks), per table a line naming its columns and a line per row, and on the last page a trailer (row counts, clocks, digest). Pass the answer's cursor to get the next page, until done is true. The page is sized to the read budget (max_chars, default 20000, at most ${MAX_EXPORT_PAGE_CHARS} characters of lines), never trimmed, and can be sent back as workspace_import {jsonl} in one call. A write to the workspace between pages makes the next page fail EXPORT_STALE: start again. Admin tokens only.`,
  kind: "read",
  requiresRole: "admin",
  input: {
    cursor: z.string().min(1).max(MAX_EXPORT_CURSOR_CHARS).optional().describe("The previous page's cursor; omit it to start at line 0."),
  },
  output: {
    jsonl: z.string().describe("This page's lines, each ending with a newline: append the pages to get the file."),
    first_line: z.number(),
    last_line: z.number(),
    line_count: z.number(),
    done: z.boolean().describe("True on the page that ends with the trailer."),
    cursor: z.string().nullable().describe("Pass it to get the next page; null when done."),
  },
  handler: (ctx, args) => {
    const restoring = readRestore(ctx.db);
    if (restoring !== undefined) {
      fail(
        "RESTORE_IN_PROGRESS",
        `A restore into this workspace is unfinished (next line ${restoring.next_line}): there is nothing consistent to export.`,
        "Finish the restore (workspace_import {jsonl}) or give it up (workspace_import {abort_restore: true}), then export.",
        { next_line: restoring.next_line },
      );
    }
    const bound = pageBound(args);
    const schemaVersion = WORKSPACE_MIGRATIONS.length;
    const changes = changeCount(ctx.db);
    const key = cursorKeyOf(ctx);
    let start: ExportCursor;
    if (args.cursor !== undefined) start = resume(ctx, decodeCursor(args.cursor, key), schemaVersion, changes);
    else {
      checkTableCoverage();
      start = { workspace: ctx.workspace, schemaVersion, changeCount: changes, line: 0, digest: DIGEST_START, position: { at: "header" } };
    }
    if (start.position.at === "done") {
      fail("INVALID_INPUT", "This export is already complete.", "Nothing to fetch: the previous page ended with the trailer.", {
        field: "cursor",
      });
    }
    const page = readPage(ctx.db, start, bound, ctx.workspace, schemaVersion);
    // The cursor's size is known only now: drop lines from the end (never the first) until the answer fits.
    const { limits } = resolveLimits(args, "default");
    for (;;) {
      const last = page.after[page.lines.length - 1] as ExportCursor;
      const answer = {
        jsonl: `${page.lines.join("\n")}\n`,
        first_line: start.line,
        last_line: last.line - 1,
        line_count: page.lines.length,
        done: last.position.at === "done",
        cursor: last.position.at === "done" ? null : encodeCursor(last, key),
      };
      const text = JSON.stringify(answer);
      const fits =
        text.length <= limits.chars - PAGE_RESERVE_CHARS / 2 &&
        utf8Bytes(text) <= (limits.bytes ?? Number.POSITIVE_INFINITY) - PAGE_RESERVE_CHARS / 2;
      if (fits || page.lines.length === 1) return answer;
      page.lines.pop();
      page.after.pop();
    }
  },
});
