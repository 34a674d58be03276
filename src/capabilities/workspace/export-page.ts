/**
 * One page of an export: the lines from the cursor's position on, as many as fit the page bound
 * (docs/export.md). A page is measured as it travels — each line JSON-escaped inside the answer, and
 * again inside the workspace_import call that restores it — in characters and in UTF-8 bytes, so a page
 * that fits its bound fits the read budget and the request cap alike. Lines are never cut or trimmed:
 * a line that does not fit ends the page, and a page always carries at least one line.
 */
import { fail } from "../../shared/errors";
import { utf8Bytes } from "../../shared/json";
import type { Db } from "../../storage/db";
import { type Column, countRows, readClocks, rowsAfter, tableColumns } from "./export.store";
import type { ExportCursor, ExportPosition } from "./export-cursor";
import { digestLines } from "./export-digest";
import { headerText, rowText, tableText, trailerText } from "./export-format";
import { EXPORT_TABLES } from "./export-tables.store";

/** Rows read per statement: whole rows (a note may hold 256 KB), so 50 stays far below the memory cap. */
const ROW_BATCH = 50;

export interface PageBound {
  /** Characters of the page's lines, JSON-escaped, newlines included. */
  chars: number;
  /** The same in UTF-8 bytes. */
  bytes: number;
  /** The largest bound any call may ask for: a line above it cannot be exported at all. */
  ceiling: { chars: number; bytes: number };
}

export interface Page {
  lines: string[];
  /** Where each line's page would end if it were the last (cursor after it). */
  after: ExportCursor[];
  /** The cursor the page started from. */
  start: ExportCursor;
}

interface NextLine {
  text: string;
  position: ExportPosition;
}

/** How a line travels: JSON-escaped, followed by an escaped newline (`\n`: two characters). */
function transportSize(text: string): { chars: number; bytes: number } {
  const escaped = JSON.stringify(text);
  // The escaped form's two quotes stand in for the two characters of the newline escape.
  return { chars: escaped.length, bytes: utf8Bytes(escaped) };
}

function afterTable(table: number): ExportPosition {
  return table + 1 < EXPORT_TABLES.length ? { at: "table", table: table + 1 } : { at: "trailer" };
}

class PageReader {
  private readonly columns = new Map<number, Column[]>();

  constructor(
    private readonly db: Db,
    private readonly workspace: string,
    private readonly schemaVersion: number,
  ) {}

  private columnsOf(table: number): Column[] {
    let columns = this.columns.get(table);
    if (columns === undefined) {
      columns = tableColumns(this.db, (EXPORT_TABLES[table] as (typeof EXPORT_TABLES)[number]).name);
      this.columns.set(table, columns);
    }
    return columns;
  }

  /** The lines that follow `cursor`, at most one batch; empty only when the export is done. */
  next(cursor: ExportCursor): NextLine[] {
    let position = cursor.position;
    for (;;) {
      const n = cursor.line;
      switch (position.at) {
        case "done":
          return [];
        case "header":
          return [{ text: headerText(n, this.schemaVersion, this.workspace, readClocks(this.db)), position: { at: "table", table: 0 } }];
        case "table": {
          const table = EXPORT_TABLES[position.table];
          if (table === undefined) return [];
          const names = this.columnsOf(position.table).map((column) => column.name);
          return [{ text: tableText(n, table.name, names), position: { at: "rows", table: position.table, after: null } }];
        }
        case "rows": {
          const index = position.table;
          const table = EXPORT_TABLES[index];
          if (table === undefined) return [];
          const rows = rowsAfter(this.db, table, this.columnsOf(index), position.after, ROW_BATCH);
          if (rows.length === 0) {
            position = afterTable(index);
            continue;
          }
          return rows.map((row, offset) => ({
            text: rowText(n + offset, table.name, row.values),
            position: { at: "rows", table: index, after: row.key },
          }));
        }
        case "trailer": {
          const rows = Object.fromEntries(EXPORT_TABLES.map((table) => [table.name, countRows(this.db, table)]));
          return [{ text: trailerText(n, rows, readClocks(this.db), cursor.digest), position: { at: "done" } }];
        }
      }
    }
  }
}

function lineTooLarge(text: string, size: { chars: number; bytes: number }, bound: PageBound): never {
  const parsed = JSON.parse(text) as { n: number; t?: string };
  const [line, table] = [parsed.n, parsed.t ?? null];
  if (size.chars > bound.ceiling.chars || size.bytes > bound.ceiling.bytes) {
    fail(
      "PAYLOAD_TOO_LARGE",
      `Line ${line}${table ? ` (a row of ${table})` : ""} takes ${size.chars} characters (${size.bytes} bytes) as it travels, above the ${bound.ceiling.chars} a page may hold: it cannot be exported.`,
      "Only a near-maximal note made mostly of characters JSON escapes can be this large; see docs/export.md (limits).",
      { line, table, chars: size.chars, bytes: size.bytes, max_chars: bound.ceiling.chars },
    );
  }
  return fail(
    "BUDGET_EXCEEDED",
    `Line ${line}${table ? ` (a row of ${table})` : ""} takes ${size.chars} characters as it travels; this call's budget leaves a page ${bound.chars}.`,
    "Repeat the call with the same cursor and a larger max_chars (up to 1000000): the page bound is max_chars minus a small reserve.",
    { line, table, chars: size.chars, bytes: size.bytes, page_chars: bound.chars },
  );
}

/** The lines from `start` that fit `bound`, and the cursor after each. */
export function readPage(db: Db, start: ExportCursor, bound: PageBound, workspace: string, schemaVersion: number): Page {
  const reader = new PageReader(db, workspace, schemaVersion);
  const lines: string[] = [];
  const after: ExportCursor[] = [];
  let cursor = start;
  let chars = 0;
  let bytes = 0;
  for (;;) {
    const batch = reader.next(cursor);
    if (batch.length === 0) return { lines, after, start };
    for (const line of batch) {
      const size = transportSize(line.text);
      if (chars + size.chars > bound.chars || bytes + size.bytes > bound.bytes) {
        if (lines.length === 0) lineTooLarge(line.text, size, bound);
        return { lines, after, start };
      }
      chars += size.chars;
      bytes += size.bytes;
      // The digest covers the tables and rows: neither the header (it names the source) nor the trailer.
      const digested = cursor.position.at !== "header" && line.position.at !== "done";
      cursor = {
        ...cursor,
        line: cursor.line + 1,
        digest: digested ? digestLines(cursor.digest, [line.text]) : cursor.digest,
        position: line.position,
      };
      lines.push(line.text);
      after.push(cursor);
    }
  }
}
