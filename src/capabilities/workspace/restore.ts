/**
 * Restore (docs/export.md): rebuilds a workspace from the lines of a workspace_export dump, sent in
 * order over several workspace_import calls, each one transaction. The header is accepted only into an
 * empty workspace and only in a format and schema version this server knows; every later call must
 * continue at the line the restore expects (RESTORE_OUT_OF_ORDER otherwise), so a page is never applied
 * twice and a failed page can simply be sent again. Rows go in as exported (ids, seqs, ticks included);
 * the trailer checks the line count, the digest and every table's row count, then sets the clocks.
 * Until then the workspace refuses every other write (RESTORE_IN_PROGRESS, in the executor).
 */
import type { CommandContext } from "../../commands/context";
import { fail } from "../../shared/errors";
import type { Db, SqlValue } from "../../storage/db";
import { oldestRestorableVersion } from "../../storage/migrate";
import { WORKSPACE_MIGRATIONS } from "../../storage/migrations";
import { type Column, checkTableCoverage, countRows, readClocks, tableColumns } from "./export.store";
import { DIGEST_START, digestLines } from "./export-digest";
import {
  EXPORT_FORMAT,
  EXPORT_FORMAT_VERSION,
  type ExportLine,
  type HeaderLine,
  parseLine,
  type RowLine,
  splitPage,
  type TableLine,
  type TrailerLine,
} from "./export-format";
import { EXPORT_TABLES, INSTANCE_META_KEYS } from "./export-tables.store";
import { clockNames, emptyWorkspace, nonEmptyParts, recordExists, rowWriter, setClocks, settleResolvedBy } from "./restore.store";
import { clearRestore, markRestored, type RestoredMark, type RestoreState, readRestore, readRestored, writeRestore } from "./restore-state";

export interface RestoreOutcome {
  status: "in_progress" | "complete" | "aborted";
  source_workspace: string;
  first_line: number | null;
  last_line: number | null;
  lines_applied: number;
  rows_applied: number;
  /** The line the next call must start with; null once the restore is complete or given up. */
  next_line: number | null;
  tick?: number;
  seq?: number;
}

const DAMAGED = "The export is damaged or was edited: restore from an intact copy, or export again. Nothing of this page was written.";

function damaged(message: string, details: Record<string, unknown>): never {
  return fail("INVALID_INPUT", message, DAMAGED, details);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

function outOfOrder(expected: number, first: number, source: string): never {
  const already = first < expected;
  return fail(
    "RESTORE_OUT_OF_ORDER",
    already
      ? `Lines from ${first} were already restored; the restore expects line ${expected} next.`
      : `The restore expects line ${expected} next, but this page starts at line ${first}: lines are missing.`,
    `Send the export's lines from line ${expected} on (npm run restore resumes there by itself).`,
    { expected_line: expected, first_line: first, source_workspace: source },
  );
}

/** The header of a new restore: a format, version and schema this server knows, into an empty workspace. */
function begin(db: Db, header: HeaderLine): RestoreState {
  if (header.format !== EXPORT_FORMAT) {
    damaged(`The header names format "${header.format}", not ${EXPORT_FORMAT}.`, { format: header.format });
  }
  const schemaVersion = WORKSPACE_MIGRATIONS.length;
  const oldest = oldestRestorableVersion(WORKSPACE_MIGRATIONS);
  if (header.version !== EXPORT_FORMAT_VERSION || header.schema_version < oldest || header.schema_version > schemaVersion) {
    const versions = oldest === schemaVersion ? `schema version ${schemaVersion}` : `schema versions ${oldest} to ${schemaVersion}`;
    fail(
      "INVALID_INPUT",
      `This export has format version ${header.version} and schema version ${header.schema_version}; this server reads format version ${EXPORT_FORMAT_VERSION} at ${versions}.`,
      "Restore on a server of the version that made the export (the schema version is the last migration it applied), then upgrade it.",
      {
        format_version: header.version,
        schema_version: header.schema_version,
        supported_format_version: EXPORT_FORMAT_VERSION,
        supported_schema_version: schemaVersion,
        oldest_restorable_schema_version: oldest,
      },
    );
  }
  if (!sameList(Object.keys(header.clocks).sort(), clockNames(db))) {
    damaged("The header's clocks are not this schema's clocks.", { clocks: Object.keys(header.clocks) });
  }
  checkTableCoverage();
  const parts = nonEmptyParts(db);
  if (parts.length > 0) {
    fail(
      "WORKSPACE_NOT_EMPTY",
      `A restore needs an empty workspace; this one already holds data (${parts.slice(0, 5).join(", ")}${parts.length > 5 ? ", …" : ""}).`,
      "Restore into a workspace name that was never written to; a restore never merges into existing data.",
      { non_empty: parts.slice(0, 20) },
    );
  }
  return {
    source_workspace: header.workspace,
    schema_version: schemaVersion,
    clocks: header.clocks,
    next_line: 0,
    table: -1,
    digest: DIGEST_START,
    pending_resolved_by: {},
  };
}

/** Column names and the STRICT type each value must have. */
function checkValues(row: RowLine, columns: readonly Column[]): void {
  if (row.values.length !== columns.length) {
    damaged(`Line ${row.n} has ${row.values.length} values; ${row.table} has ${columns.length} columns.`, {
      line: row.n,
      table: row.table,
    });
  }
  row.values.forEach((value, index) => {
    const column = columns[index] as Column;
    const type = column.type.toUpperCase();
    const fits =
      value === null ||
      (type === "TEXT" && typeof value === "string") ||
      ((type === "INTEGER" || type === "INT") && typeof value === "number" && Number.isSafeInteger(value)) ||
      (type === "REAL" && typeof value === "number") ||
      !["TEXT", "INTEGER", "INT", "REAL"].includes(type);
    if (!fits)
      damaged(`Line ${row.n}: ${row.table}.${column.name} must be ${type}.`, { line: row.n, table: row.table, column: column.name });
  });
}

/** Applies one page's lines in the transaction of the call; returns the outcome. */
class PageRestore {
  private readonly columns = new Map<string, Column[]>();
  private readonly writers = new Map<string, (values: SqlValue[], line: number) => void>();
  rows = 0;
  finished: TrailerLine | undefined;

  constructor(
    private readonly db: Db,
    readonly state: RestoreState,
  ) {}

  private columnsOf(table: string): Column[] {
    let columns = this.columns.get(table);
    if (columns === undefined) {
      columns = tableColumns(this.db, table);
      this.columns.set(table, columns);
    }
    return columns;
  }

  apply(line: ExportLine, text: string, isLast: boolean): void {
    if (line.kind === "header") {
      if (line.n !== 0) damaged(`Line ${line.n} is a second header.`, { line: line.n });
      // Not digested: the header names the source, which a re-export of the copy names differently.
      this.state.next_line++;
      return;
    }
    if (line.kind === "table") this.table(line);
    else if (line.kind === "row") this.row(line);
    else {
      if (!isLast) damaged(`The trailer (line ${line.n}) is not the last line of the page.`, { line: line.n });
      this.trailer(line);
      return;
    }
    this.state.digest = digestLines(this.state.digest, [text]);
    this.state.next_line++;
  }

  private leaveTable(): void {
    const pending = Object.keys(this.state.pending_resolved_by);
    if (pending.length > 0) {
      damaged(`Records name resolved_by ${pending.slice(0, 5).join(", ")}, which the export does not hold.`, {
        missing_records: pending.slice(0, 20),
      });
    }
  }

  private table(line: TableLine): void {
    const expected = EXPORT_TABLES[this.state.table + 1];
    if (expected === undefined || line.table !== expected.name) {
      damaged(`Line ${line.n} starts table ${line.table}; the restore expects ${expected?.name ?? "the trailer"}.`, {
        line: line.n,
        table: line.table,
        expected: expected?.name ?? null,
      });
    }
    const columns = this.columnsOf(line.table).map((column) => column.name);
    if (!sameList(line.columns, columns)) {
      damaged(`Line ${line.n}: the columns of ${line.table} differ from this schema's.`, { line: line.n, table: line.table, columns });
    }
    this.leaveTable();
    this.state.table++;
  }

  private row(line: RowLine): void {
    const table = EXPORT_TABLES[this.state.table];
    if (table === undefined || line.table !== table.name) {
      damaged(`Line ${line.n} is a row of ${line.table}, inside table ${table?.name ?? "(none yet)"}.`, {
        line: line.n,
        table: line.table,
      });
    }
    const columns = this.columnsOf(table.name);
    checkValues(line, columns);
    let writer = this.writers.get(table.name);
    if (writer === undefined) {
      writer = rowWriter(this.db, table, columns);
      this.writers.set(table.name, writer);
    }
    if (table.name === "workspace_meta" && INSTANCE_META_KEYS.includes(String(line.values[0]))) {
      damaged(`Line ${line.n} carries the instance key ${String(line.values[0])}, which no export holds.`, { line: line.n });
    }
    if (table.name === "records") this.record(line, columns, writer);
    else writer(line.values, line.n);
    this.rows++;
  }

  /**
   * A record whose `resolved_by` names a record not restored yet is written resolved by itself (the
   * schema wants a RESOLVED record to name an existing one) and settled when that record arrives.
   */
  private record(line: RowLine, columns: readonly Column[], writer: (values: SqlValue[], line: number) => void): void {
    const idIndex = columns.findIndex((column) => column.name === "id");
    const resolvedIndex = columns.findIndex((column) => column.name === "resolved_by");
    const id = line.values[idIndex];
    const resolvedBy = line.values[resolvedIndex];
    const pending = this.state.pending_resolved_by;
    if (typeof id === "string" && typeof resolvedBy === "string" && resolvedBy !== id && !recordExists(this.db, resolvedBy)) {
      const values = [...line.values];
      values[resolvedIndex] = id;
      writer(values, line.n);
      pending[resolvedBy] = [...(pending[resolvedBy] ?? []), id];
    } else writer(line.values, line.n);
    const waiting = typeof id === "string" ? pending[id] : undefined;
    if (typeof id === "string" && waiting !== undefined) {
      settleResolvedBy(this.db, waiting, id);
      delete pending[id];
    }
  }

  private trailer(line: TrailerLine): void {
    if (this.state.table !== EXPORT_TABLES.length - 1) {
      damaged(`The trailer (line ${line.n}) comes before every table was restored.`, { line: line.n });
    }
    this.leaveTable();
    if (line.lines !== line.n + 1 || line.digest !== this.state.digest) {
      damaged(
        "The trailer's line count or digest does not match the lines restored: lines were changed, dropped or mixed from two exports.",
        {
          line: line.n,
        },
      );
    }
    if (
      !sameList(
        Object.keys(line.rows),
        EXPORT_TABLES.map((table) => table.name),
      )
    ) {
      damaged("The trailer's row counts do not name this schema's tables.", { line: line.n });
    }
    const mismatched = EXPORT_TABLES.filter((table) => countRows(this.db, table) !== line.rows[table.name]).map((table) => table.name);
    if (mismatched.length > 0)
      damaged(`Row counts differ from the trailer's in ${mismatched.join(", ")}.`, { line: line.n, tables: mismatched });
    if (!sameList(Object.keys(line.clocks).sort(), clockNames(this.db)))
      damaged("The trailer's clocks are not this schema's clocks.", { line: line.n });
    setClocks(this.db, line.clocks);
    this.state.next_line++;
    this.finished = line;
  }
}

/** The header of the export this workspace was restored from, and nothing written since (its clocks stand). */
function isRestoredFrom(db: Db, restored: RestoredMark, header: HeaderLine): boolean {
  const now = readClocks(db);
  return (
    header.workspace === restored.source_workspace &&
    header.clocks.tick === restored.tick &&
    header.clocks.seq === restored.seq &&
    now.tick === restored.tick &&
    now.seq === restored.seq
  );
}

/** One page of a restore: its lines in order, in the call's transaction. */
export function restorePage(ctx: CommandContext, jsonl: string): RestoreOutcome {
  const texts = splitPage(jsonl);
  const lines = texts.map((text, index) => parseLine(text, index + 1));
  const first = lines[0] as ExportLine;
  let state = readRestore(ctx.db);
  if (state === undefined) {
    const restored = readRestored(ctx.db);
    if (restored !== undefined && (first.kind !== "header" || isRestoredFrom(ctx.db, restored, first))) {
      fail(
        "RESTORE_OUT_OF_ORDER",
        `This workspace's restore from ${restored.source_workspace} is complete (${restored.lines} lines); no line is expected.`,
        "Nothing to do: the workspace is restored. To restore again, use a new, empty workspace.",
        { expected_line: null, first_line: first.n, source_workspace: restored.source_workspace },
      );
    }
    if (first.kind !== "header") outOfOrder(0, first.n, "");
    state = begin(ctx.db, first);
  } else if (first.n !== state.next_line) outOfOrder(state.next_line, first.n, state.source_workspace);
  const page = new PageRestore(ctx.db, state);
  lines.forEach((line, index) => {
    if (line.n !== state.next_line)
      damaged(`Line ${index + 1} of the page is numbered ${line.n}, not ${state.next_line}.`, { line: line.n });
    page.apply(line, texts[index] as string, index === lines.length - 1);
  });
  const outcome: RestoreOutcome = {
    status: page.finished ? "complete" : "in_progress",
    source_workspace: state.source_workspace,
    first_line: first.n,
    last_line: (lines[lines.length - 1] as ExportLine).n,
    lines_applied: lines.length,
    rows_applied: page.rows,
    next_line: page.finished ? null : state.next_line,
  };
  if (page.finished) {
    const clocks = readClocks(ctx.db);
    const [tick, seq] = [clocks.tick ?? 0, clocks.seq ?? 0];
    markRestored(ctx.db, { source_workspace: state.source_workspace, lines: state.next_line, digest: state.digest, tick, seq });
    return { ...outcome, tick, seq };
  }
  writeRestore(ctx.db, state);
  return outcome;
}

/** Gives up an unfinished restore: every restored row goes, and the workspace is empty again. */
export function abortRestore(ctx: CommandContext): RestoreOutcome {
  const state = readRestore(ctx.db);
  if (state === undefined) {
    fail(
      "INVALID_INPUT",
      "No restore is in progress in this workspace; abort_restore empties only a workspace whose restore is unfinished.",
      "Nothing to abort. (A workspace in use is never emptied by this call.)",
      { field: "abort_restore" },
    );
  }
  emptyWorkspace(ctx.db);
  clearRestore(ctx.db);
  return {
    status: "aborted",
    source_workspace: state.source_workspace,
    first_line: null,
    last_line: null,
    lines_applied: 0,
    rows_applied: 0,
    next_line: null,
  };
}
