/**
 * The export's line format (docs/export.md), written and read here and nowhere else. Every line is one
 * JSON object carrying its position `n` (0 for the header), so any run of consecutive lines can be
 * restored in one call and a restore knows where it stands:
 *
 *   {"n":0,"format":"branchmind-workspace-export","version":1,"schema_version":13,"workspace":"…","clocks":{…}}
 *   {"n":1,"table":"workspace_meta","columns":["key","value"]}            one per table, in export order
 *   {"n":2,"t":"workspace_meta","r":["created_at_ms","1767225600000"]}    one per row, values in column order
 *   {"n":…,"end":true,"lines":…,"rows":{"branches":2,…},"clocks":{…},"digest":"…"}   the trailer, last
 *
 * Keys are written in a fixed order and values as SQLite returned them, so the same rows always give
 * the same bytes. Pure: parsing reports a malformed line as INVALID_INPUT naming its place in the page.
 */

import { fail } from "../../shared/errors";
import { illFormedFields } from "../../shared/stored-text";
import type { SqlValue } from "../../storage/db";
import { isDigest } from "./export-digest";

export const EXPORT_FORMAT = "branchmind-workspace-export";
/** Bumped when the line format changes; a restore refuses versions it does not know. */
export const EXPORT_FORMAT_VERSION = 1;

export type Clocks = Record<string, number>;

export interface HeaderLine {
  kind: "header";
  n: number;
  format: string;
  version: number;
  schema_version: number;
  workspace: string;
  clocks: Clocks;
}

export interface TableLine {
  kind: "table";
  n: number;
  table: string;
  columns: string[];
}

export interface RowLine {
  kind: "row";
  n: number;
  table: string;
  values: SqlValue[];
}

export interface TrailerLine {
  kind: "trailer";
  n: number;
  lines: number;
  rows: Record<string, number>;
  clocks: Clocks;
  digest: string;
}

export type ExportLine = HeaderLine | TableLine | RowLine | TrailerLine;

export function headerText(n: number, schemaVersion: number, workspace: string, clocks: Clocks): string {
  return JSON.stringify({ n, format: EXPORT_FORMAT, version: EXPORT_FORMAT_VERSION, schema_version: schemaVersion, workspace, clocks });
}

export function tableText(n: number, table: string, columns: readonly string[]): string {
  return JSON.stringify({ n, table, columns });
}

export function rowText(n: number, table: string, values: readonly SqlValue[]): string {
  return JSON.stringify({ n, t: table, r: values });
}

export function trailerText(n: number, rows: Record<string, number>, clocks: Clocks, digest: string): string {
  return JSON.stringify({ n, end: true, lines: n + 1, rows, clocks, digest });
}

/** The lines of a page: `\n`-separated, one optional final newline, `\r\n` accepted; no blank lines. */
export function splitPage(jsonl: string): string[] {
  const body = jsonl.endsWith("\n") ? jsonl.slice(0, -1) : jsonl;
  const lines = body.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
  const blank = lines.findIndex((line) => line.trim() === "");
  if (blank >= 0) {
    fail(
      "INVALID_INPUT",
      `Line ${blank + 1} of the page is blank.`,
      "Send the export's lines as they were written, one JSON object per line.",
      {
        page_line: blank + 1,
      },
    );
  }
  return lines;
}

type Json = Record<string, unknown>;

function malformed(pageLine: number, why: string): never {
  return fail(
    "INVALID_INPUT",
    `Line ${pageLine} of the page is not an export line: ${why}.`,
    "The file is damaged or not a workspace_export dump: restore from an intact copy, or export again. Nothing of this page was written.",
    { page_line: pageLine, reason: why },
  );
}

function hasKeys(object: Json, keys: readonly string[]): boolean {
  const own = Object.keys(object);
  return own.length === keys.length && keys.every((key) => key in object);
}

const isCount = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

function isCounts(value: unknown): value is Record<string, number> {
  return value !== null && typeof value === "object" && !Array.isArray(value) && Object.values(value).every(isCount);
}

const isScalar = (value: unknown): value is SqlValue => value === null || typeof value === "string" || typeof value === "number";

/** Parses one line; `pageLine` (1-based) places it in the page for error messages. */
export function parseLine(text: string, pageLine: number): ExportLine {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return malformed(pageLine, "not valid JSON");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return malformed(pageLine, "not a JSON object");
  // A \uD800-style escape parses to a lone surrogate, which SQLite would keep as U+FFFD: refused, never replaced.
  const illFormed = illFormedFields(parsed as Json);
  if (illFormed.length > 0) return malformed(pageLine, `a lone UTF-16 surrogate in ${illFormed.slice(0, 3).join(", ").toWellFormed()}`);
  const line = parsed as Json;
  if (!isCount(line.n)) return malformed(pageLine, "no line number `n`");
  const n = line.n;
  if ("format" in line) {
    if (!hasKeys(line, ["n", "format", "version", "schema_version", "workspace", "clocks"]))
      return malformed(pageLine, "a header with other fields");
    if (typeof line.format !== "string" || !isCount(line.version) || !isCount(line.schema_version) || typeof line.workspace !== "string") {
      return malformed(pageLine, "a header with fields of the wrong type");
    }
    if (!isCounts(line.clocks)) return malformed(pageLine, "a header whose clocks are not counts");
    return {
      kind: "header",
      n,
      format: line.format,
      version: line.version,
      schema_version: line.schema_version,
      workspace: line.workspace,
      clocks: line.clocks,
    };
  }
  if ("table" in line) {
    const columns = line.columns;
    if (!hasKeys(line, ["n", "table", "columns"]) || typeof line.table !== "string") return malformed(pageLine, "a malformed table line");
    if (!Array.isArray(columns) || !columns.every((column) => typeof column === "string"))
      return malformed(pageLine, "columns that are not names");
    return { kind: "table", n, table: line.table, columns: columns as string[] };
  }
  if ("t" in line) {
    if (!hasKeys(line, ["n", "t", "r"]) || typeof line.t !== "string") return malformed(pageLine, "a malformed row line");
    if (!Array.isArray(line.r) || !line.r.every(isScalar)) return malformed(pageLine, "row values that are not strings, numbers or null");
    return { kind: "row", n, table: line.t, values: line.r as SqlValue[] };
  }
  if ("end" in line) {
    if (!hasKeys(line, ["n", "end", "lines", "rows", "clocks", "digest"]) || line.end !== true)
      return malformed(pageLine, "a malformed trailer");
    if (!isCount(line.lines) || !isCounts(line.rows) || !isCounts(line.clocks) || !isDigest(line.digest)) {
      return malformed(pageLine, "a trailer with fields of the wrong type");
    }
    return { kind: "trailer", n, lines: line.lines, rows: line.rows, clocks: line.clocks, digest: line.digest };
  }
  return malformed(pageLine, "neither a header, a table, a row nor a trailer");
}
