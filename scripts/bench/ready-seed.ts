/**
 * Seeds the ready suite's workspaces through the restore path of `workspace_import {jsonl}`
 * (docs/export.md): the layout's plans and tasks, its dependencies and one layout's claims, written as
 * an export file and restored in calls of at most CHUNK_BYTES. The file's frame comes from the server
 * itself: the export of the still-empty target workspace gives the header (format, schema version,
 * clock names) and every exported table with its columns in schema order, so the file always matches
 * the server's schema; rows go in each table's export order (src/capabilities/workspace/export-tables.store.ts),
 * and the trailer carries the row counts, the clocks (plan 10, task 10,000, tick TICK) and the digest
 * (the server's own function). `task_readiness` is derived and not in the file: the restore's triggers
 * rebuild it as the rows arrive. Every call's answer is checked (the next line, then "complete").
 */
import { performance } from "node:perf_hooks";
import { DIGEST_START, digestLines } from "../../src/capabilities/workspace/export-digest.ts";
import { transportBytes } from "../lib/backup-cli.ts";
import type { Json, McpClient } from "../lib/mcp-http.ts";
import { type Claim, type LayoutName, type ReadyLayout, TASKS_PER_PLAN, TICK } from "./ready-layout.ts";

/** Escaped bytes of lines per restore call: under the 1 MiB request cap with the call's envelope (restore.ts allows 800,000). */
const CHUNK_BYTES = 700_000;
/** Creation times of the rows: fixed, so the same layout always gives the same file. */
const BASE_MS = 1_790_000_000_000;
const CREATOR = "bench";

type Value = string | number | null;
type Row = Record<string, Value>;

interface Skeleton {
  header: Json & { clocks: Record<string, number> };
  /** Exported tables in order, with their columns. */
  tables: { table: string; columns: string[] }[];
}

export interface ReadySeeding {
  lines: number;
  rows: Record<string, number>;
  calls: number;
  bytes: number;
  ms: number;
  max_call_ms: number;
  digest: string;
}

/** The frame of an export file: the export of the still-empty workspace, in one page. */
async function skeletonOf(client: McpClient, workspace: string): Promise<Skeleton> {
  const { value } = await client.callTool("workspace_export", { workspace, max_chars: 800_000 });
  if (value.done !== true || typeof value.jsonl !== "string") throw new Error(`workspace_export of ${workspace}: not one page`);
  const lines = value.jsonl
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Json);
  const header = lines[0] as Skeleton["header"];
  const trailer = lines.at(-1) as Json;
  if (header.format !== "branchmind-workspace-export" || typeof header.clocks !== "object" || trailer.end !== true) {
    throw new Error(`workspace_export of ${workspace}: no header and trailer (${value.jsonl.slice(0, 300)})`);
  }
  const counts = Object.values(trailer.rows as Record<string, number>);
  if (counts.some((count) => count !== 0)) throw new Error(`${workspace} is not empty: ${JSON.stringify(trailer.rows)}`);
  const tables = lines.slice(1, -1).map((line) => ({ table: String(line.table), columns: line.columns as string[] }));
  return { header, tables };
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Each table's rows in its export order; tables not named here are empty. */
function tableRows(layout: ReadyLayout, claims: readonly Claim[]): Map<string, Row[]> {
  const common = { description: null, context: null, contract: null, tags_json: "[]", parked_until_ms: null, revision: 0 };
  const plans: Row[] = layout.plans.map((id, p) => ({
    ...common,
    id,
    kind: "plan",
    plan_id: null,
    title: `Ready bench plan ${p + 1}`,
    status: "ACTIVE",
    priority: "MEDIUM",
    created_at_ms: BASE_MS + p * TASKS_PER_PLAN * 1_000,
    updated_at_ms: BASE_MS + p * TASKS_PER_PLAN * 1_000,
    created_by: CREATOR,
    reasoning_mode: "normal",
  }));
  const tasks: Row[] = layout.tasks.map((task) => ({
    ...common,
    id: task.id,
    kind: "task",
    plan_id: task.plan,
    title: task.title,
    status: task.status,
    priority: task.priority,
    revision: task.status === "TODO" ? 0 : 1,
    created_at_ms: BASE_MS + task.num * 1_000,
    updated_at_ms: BASE_MS + task.num * 1_000 + (task.status === "TODO" ? 0 : 500),
    created_by: CREATOR,
    reasoning_mode: "normal",
  }));
  const dependencies: Row[] = layout.tasks.flatMap((task) =>
    [...new Set(task.blockers)].map((num) => ({ task_id: task.id, blocker_id: layout.tasks[num - 1]?.id ?? "", added_tick: task.num })),
  );
  const sorted = (rows: Row[], ...keys: string[]): Row[] =>
    rows.sort((a, b) => keys.reduce((order, key) => order || byText(String(a[key]), String(b[key])), 0));
  return new Map([
    ["workspace_meta", [{ key: "created_at_ms", value: String(BASE_MS) }]],
    ["tasks", sorted([...plans, ...tasks], "id")],
    ["task_dependencies", sorted(dependencies, "task_id", "blocker_id")],
    [
      "task_claims",
      sorted(
        claims.map((c) => ({ task_id: c.task, holder: c.holder, acquired_tick: c.acquired_tick, expires_tick: c.expires_tick })),
        "task_id",
      ),
    ],
  ]);
}

/** The export file of `layout` with `claims`, as lines. */
function exportLines(skeleton: Skeleton, layout: ReadyLayout, claims: readonly Claim[]): { lines: string[]; rows: Record<string, number> } {
  const clocks = { ...skeleton.header.clocks };
  for (const name of Object.keys(clocks)) clocks[name] = 0;
  Object.assign(clocks, { plan: layout.plans.length, task: layout.tasks.length, tick: TICK });
  if (Object.keys(clocks).length !== Object.keys(skeleton.header.clocks).length)
    throw new Error("the server has no plan, task or tick clock");
  const lines = [JSON.stringify({ ...skeleton.header, clocks })];
  const counts: Record<string, number> = {};
  const rowsOf = tableRows(layout, claims);
  for (const { table, columns } of skeleton.tables) {
    lines.push(JSON.stringify({ n: lines.length, table, columns }));
    const rows = rowsOf.get(table) ?? [];
    for (const row of rows) {
      const values = columns.map((column) => {
        const value = row[column];
        if (value === undefined) throw new Error(`the ready layout has no value for ${table}.${column} (a new column?)`);
        return value;
      });
      lines.push(JSON.stringify({ n: lines.length, t: table, r: values }));
    }
    counts[table] = rows.length;
    rowsOf.delete(table);
  }
  if (rowsOf.size > 0) throw new Error(`the server exports no table ${[...rowsOf.keys()].join(", ")}`);
  const digest = digestLines(DIGEST_START, lines.slice(1));
  const n = lines.length;
  lines.push(JSON.stringify({ n, end: true, lines: n + 1, rows: counts, clocks, digest }));
  return { lines, rows: counts };
}

/** Restores `layout` with the claims of `name` into the empty `workspace`. */
export async function seedReady(client: McpClient, workspace: string, layout: ReadyLayout, name: LayoutName): Promise<ReadySeeding> {
  const skeleton = await skeletonOf(client, workspace);
  const { lines, rows } = exportLines(skeleton, layout, layout.claims[name]);
  const digest = String(JSON.parse(lines.at(-1) as string).digest);
  const started = performance.now();
  const totals = { calls: 0, bytes: 0, max_call_ms: 0 };
  for (let first = 0; first < lines.length; ) {
    let end = first;
    let bytes = 0;
    while (end < lines.length && (end === first || bytes + transportBytes(lines[end] as string) <= CHUNK_BYTES)) {
      bytes += transportBytes(lines[end] as string);
      end++;
    }
    const { ms, value } = await client.callTool("workspace_import", { workspace, jsonl: `${lines.slice(first, end).join("\n")}\n` });
    const restore = value.restore as { status?: string; next_line?: number | null } | undefined;
    const want = end === lines.length ? { status: "complete", next_line: null } : { status: "in_progress", next_line: end };
    if (restore?.status !== want.status || restore.next_line !== want.next_line) {
      throw new Error(`restoring ${workspace}, lines ${first}-${end - 1}: expected ${JSON.stringify(want)}, got ${JSON.stringify(value)}`);
    }
    totals.calls++;
    totals.bytes += bytes;
    totals.max_call_ms = Math.max(totals.max_call_ms, ms);
    first = end;
  }
  return { lines: lines.length, rows, ...totals, ms: performance.now() - started, digest };
}
