/**
 * Puts a records layout into a fresh workspace through the bulk path (`workspace_import` record ops,
 * batched under the server's limits; every call's first and last record id checked against the
 * layout), seeds the small projects that `list_projects` lists (a `create_project` and an import each),
 * waits until the Directory shows every one's pushed summary, and checks answers against the model:
 * the search totals and results, the big record's ref and context bundle, the first page of its
 * children, the overview's counts, and a list_projects page of at least LISTED_PROJECTS projects. The
 * same checks run on every measured answer (see `records-measure.ts`).
 */
import { performance } from "node:perf_hooks";
import { log } from "../lib/dev-server.ts";
import type { Json, McpClient } from "../lib/mcp-http.ts";
import {
  BIG_CHILDREN,
  COUNT_CAP,
  type ExpectedBundle,
  type ExpectedSearch,
  LISTED_PROJECTS,
  PROJECT_PAGE,
  PROJECT_PREFIX,
  type RecordOp,
  type RecordsLayout,
  recordId,
  type SmallProject,
} from "./records-layout.ts";

/** Server limits of one import call (MAX_IMPORT_OPS), and a body safely under its 1 MiB cap. */
const MAX_OPS_PER_IMPORT = 2_000;
const MAX_IMPORT_BODY_BYTES = 900_000;
/** The bundle budget `activate` uses by default (DEFAULT_BUNDLE_CHARS). */
export const BUNDLE_CHARS = 20_000;
/** The list_projects call: the largest page, under the audit profile (80,000 characters) so 200+ fit. */
export const LIST_PROJECTS_ARGS = { limit: PROJECT_PAGE, budget_profile: "audit" } as const;
/** Small projects are created this many at a time. */
const PROJECT_CONCURRENCY = 8;
/** Summaries reach the Directory about 2 s after a write; wait at most this long for all of them. */
const SUMMARY_WAIT_MS = 60_000;
const SUMMARY_POLL_MS = 500;

export interface RecordsSeeding {
  ms: number;
  calls: number;
  records: number;
  records_per_s: number;
  max_call_ms: number;
  roots: number;
  max_depth: number;
  states: Record<string, number>;
}

export interface ProjectsSeeding {
  projects: number;
  calls: number;
  ms: number;
  /** From the last write until list_projects showed every summary. */
  summary_wait_ms: number;
  polls: number;
}

function batches(ops: RecordOp[]): { ops: RecordOp[]; first: number }[] {
  const out: { ops: RecordOp[]; first: number }[] = [];
  let batch: RecordOp[] = [];
  let first = 1;
  let bytes = 0;
  ops.forEach((op, index) => {
    const opBytes = Buffer.byteLength(JSON.stringify(op)) + 1;
    if (batch.length > 0 && (batch.length >= MAX_OPS_PER_IMPORT || bytes + opBytes > MAX_IMPORT_BODY_BYTES)) {
      out.push({ ops: batch, first });
      batch = [];
      bytes = 0;
      first = index + 1;
    }
    batch.push(op);
    bytes += opBytes;
  });
  if (batch.length > 0) out.push({ ops: batch, first });
  return out;
}

export async function seedRecords(client: McpClient, workspace: string, layout: RecordsLayout): Promise<RecordsSeeding> {
  const calls = batches(layout.ops);
  let maxCall = 0;
  let records = 0;
  const started = performance.now();
  for (const [index, call] of calls.entries()) {
    const { ms, value } = await client.callTool("workspace_import", { workspace, ops: call.ops });
    const want = { first: recordId(call.first), last: recordId(call.first + call.ops.length - 1) };
    if (value.records_imported !== call.ops.length || value.first_record_id !== want.first || value.last_record_id !== want.last) {
      throw new Error(
        `seeding ${workspace}: expected records ${want.first}-${want.last}, got ${String(value.first_record_id)}-${String(value.last_record_id)} ` +
          `(${String(value.records_imported)} records; is the workspace fresh?)`,
      );
    }
    records += call.ops.length;
    maxCall = Math.max(maxCall, ms);
    if ((index + 1) % 10 === 0 || index === calls.length - 1)
      log(`  seeded ${records.toLocaleString("en-US")} / ${layout.size.toLocaleString("en-US")} records`);
  }
  const ms = performance.now() - started;
  return {
    ms,
    calls: calls.length,
    records,
    records_per_s: records / (ms / 1000),
    max_call_ms: maxCall,
    roots: layout.roots,
    max_depth: layout.maxDepth,
    states: layout.states,
  };
}

async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

/** Creates the small projects (create_project, then their records by import) and waits for their summaries. */
export async function seedProjects(client: McpClient, projects: SmallProject[]): Promise<ProjectsSeeding> {
  const started = performance.now();
  let calls = 0;
  await pool(projects, PROJECT_CONCURRENCY, async (project) => {
    const created = (await client.callTool("create_project", { id: project.id, name: project.name, description: project.description }))
      .value;
    if (created.id !== project.id || created.outcome !== "created") {
      throw new Error(`create_project ${project.id}: expected a new project, got ${JSON.stringify(created).slice(0, 500)}`);
    }
    const imported = (await client.callTool("workspace_import", { workspace: project.id, ops: project.records })).value;
    if (imported.records_imported !== project.records.length) throw new Error(`seeding ${project.id}: ${JSON.stringify(imported)}`);
    calls += 2;
  });
  const written = performance.now();
  let polls = 0;
  for (;;) {
    polls++;
    const value = (await client.callTool("list_projects", { ...LIST_PROJECTS_ARGS })).value;
    calls++;
    const problem = projectsProblem(value, projects);
    if (problem === undefined) break;
    if (performance.now() - written > SUMMARY_WAIT_MS) {
      throw new Error(`list_projects did not show every seeded project's summary within ${SUMMARY_WAIT_MS / 1000} s: ${problem}`);
    }
    await new Promise((resolve) => setTimeout(resolve, SUMMARY_POLL_MS));
  }
  const done = performance.now();
  return { projects: projects.length, calls, ms: done - started, summary_wait_ms: done - written, polls };
}

// ---- checks ------------------------------------------------------------------------------------

interface ProjectItem {
  id: string;
  name: string;
  description?: string;
  tick: number;
  open_records: number;
  open_sessions: number;
  pending?: boolean;
}

/** Why a list_projects page is not what the seeded projects imply, or undefined when it is. */
export function projectsProblem(value: Json, projects: SmallProject[]): string | undefined {
  const items = (value.projects ?? []) as ProjectItem[];
  if (items.length < LISTED_PROJECTS) return `${items.length} projects in one call, expected at least ${LISTED_PROJECTS}`;
  const byId = new Map(items.map((item) => [item.id, item]));
  const page = value.pagination as { has_more?: boolean } | undefined;
  for (const project of projects) {
    const item = byId.get(project.id);
    if (item === undefined) {
      // Only a full page may leave seeded projects for the next one.
      if (page?.has_more === true) continue;
      return `${project.id} is missing`;
    }
    if (item.name !== project.name || item.description !== project.description || item.pending === true) {
      return `${project.id}: ${JSON.stringify(item)}`;
    }
    if (item.tick !== project.records.length || item.open_records !== project.open || item.open_sessions !== 0) {
      return `${project.id}: summary not pushed yet (tick ${item.tick}, open_records ${item.open_records}; expected ${project.records.length} and ${project.open})`;
    }
  }
  const seeded = items.filter((item) => item.id.startsWith(PROJECT_PREFIX)).length;
  if (page?.has_more !== true && seeded !== projects.length) return `${seeded} seeded projects listed, expected ${projects.length}`;
  return undefined;
}

export function checkProjects(label: string, value: Json, projects: SmallProject[]): number {
  const problem = projectsProblem(value, projects);
  if (problem !== undefined) throw new Error(`${label}: ${problem}`);
  return ((value.projects ?? []) as unknown[]).length;
}

interface SearchResult {
  id: string;
  relevance: number;
  snippet: string;
}

/** A search answer against the model: the total, the page size, every result one of the newest matches, ranked, with the word in bold. */
export function checkSearch(label: string, value: Json, want: ExpectedSearch): void {
  const results = (value.results ?? []) as SearchResult[];
  const fail = (why: string): never => {
    throw new Error(`${label}: ${why}`);
  };
  if (value.total !== want.total || value.total_capped !== want.total_capped) {
    fail(`total ${String(value.total)} (capped ${String(value.total_capped)}), expected ${want.total} (capped ${want.total_capped})`);
  }
  if (results.length !== want.results) fail(`${results.length} results, expected ${want.results}`);
  if (value.ranked !== want.ranked.size) fail(`ranked ${String(value.ranked)}, expected ${want.ranked.size}`);
  const bold = `**${want.word}**`;
  results.forEach((result, index) => {
    if (!want.matches.has(Number(result.id.slice(1)))) fail(`${result.id} does not hold "${want.word}"`);
    if (!want.ranked.has(Number(result.id.slice(1)))) fail(`${result.id} is not among the ${want.ranked.size} newest matches`);
    if (!result.snippet.toLowerCase().includes(bold)) fail(`${result.id}'s snippet has no ${bold}: ${result.snippet}`);
    if (index > 0 && result.relevance > (results[index - 1] as SearchResult).relevance) fail("results are not ranked best first");
  });
  // Relevance is absolute (docs/records.md "Search"): within (0, 1], not 1 for the best hit by construction.
  for (const result of results) {
    if (!(result.relevance > 0 && result.relevance <= 1)) fail(`${result.id}'s relevance is ${String(result.relevance)}, not in (0, 1]`);
  }
  if (want.results === want.total) {
    const got = results.map((result) => Number(result.id.slice(1))).sort((a, b) => a - b);
    const all = [...want.matches].sort((a, b) => a - b);
    if (got.join() !== all.join()) fail(`results ${got.join(", ")}, expected every match: ${all.join(", ")}`);
  }
}

/** What a checked bundle held. */
export interface BundleShape {
  chars: number;
  open_full: number;
  open_refs: number;
  other: number;
  grandchildren: number;
  omitted: number;
}

const idsOf = (list: unknown): string[] => ((list ?? []) as { id: string }[]).map((item) => item.id);

/** `got` must be the tail of `loaded` (the bundle drops oldest first). */
function isTail(got: string[], loaded: string[]): boolean {
  const start = loaded.length - got.length;
  return start >= 0 && got.every((id, index) => id === loaded[start + index]);
}

/**
 * An activation of the big record in a fresh session: a new session, nothing loaded before, no other
 * session holding it; the target and its parent whole; the counts of the layout; each list the tail of
 * what the server loads (it drops oldest first), the OPEN children (full, then as refs) one run; the
 * bundle within its budget.
 */
export function checkActivation(label: string, value: Json, want: ExpectedBundle): BundleShape {
  const fail = (why: string): never => {
    throw new Error(`${label}: ${why}`);
  };
  if (value.session_started !== true || value.already_loaded !== false || value.conflict !== undefined) {
    fail(
      `expected a new session with nothing loaded and no conflict, got ${JSON.stringify({ ...value, context: undefined }).slice(0, 500)}`,
    );
  }
  const context = value.context as Json;
  const target = context.target as { id: string; children_count: number; open_children_count: number; body: string };
  const parent = context.parent as { id: string; body: string } | null;
  if (target.id !== want.target || parent?.id !== want.parent || typeof target.body !== "string" || typeof parent.body !== "string") {
    fail(`target ${target.id} with parent ${String(parent?.id)}, expected ${want.target} with parent ${want.parent}, both whole`);
  }
  if (target.children_count !== BIG_CHILDREN || target.open_children_count !== want.open_children) {
    fail(`target has ${target.children_count} children (${target.open_children_count} OPEN)`);
  }
  const counts = context.counts as { open_children: number; other_children: number; grandchildren: number; omitted: number };
  if (
    counts.open_children !== want.open_children ||
    counts.other_children !== want.other_children ||
    counts.grandchildren !== want.grandchildren
  ) {
    fail(
      `counts ${JSON.stringify(counts)}, expected ${want.open_children} open, ${want.other_children} other, ${want.grandchildren} grandchildren`,
    );
  }
  const children = context.children as Json;
  const open = idsOf(children.open);
  const openRefs = idsOf(children.open_refs);
  const other = idsOf(children.other);
  const grand = idsOf(context.grandchildren);
  if (!isTail([...openRefs, ...open], want.open_loaded))
    fail(`OPEN children ${[...openRefs, ...open].join(",")} are not a run of the loaded ones`);
  if (!isTail(other, want.other_loaded)) fail("other children are not a tail of the loaded ones");
  if (!isTail(grand, want.grand_loaded)) fail("grandchildren are not a tail of the loaded ones");
  if (open.length + openRefs.length === 0) fail("no OPEN child in the bundle");
  const chars = JSON.stringify(context).length;
  if (chars > BUNDLE_CHARS) fail(`the bundle has ${chars} characters, over its ${BUNDLE_CHARS} budget`);
  const shown = open.length + openRefs.length + other.length + grand.length;
  if (counts.omitted !== want.open_children + want.other_children + want.grandchildren - shown)
    fail(`omitted ${counts.omitted} does not add up`);
  return {
    chars,
    open_full: open.length,
    open_refs: openRefs.length,
    other: other.length,
    grandchildren: grand.length,
    omitted: counts.omitted,
  };
}

/** An activation of the leaf record in a fresh session: the record and its parent, nothing below, nothing else. */
export function checkLeafActivation(label: string, value: Json, want: { target: string; parent: string }): void {
  const context = value.context as Json;
  const counts = context.counts as Record<string, number>;
  const children = context.children as Record<string, unknown[]>;
  const ok =
    value.session_started === true &&
    value.already_loaded === false &&
    value.conflict === undefined &&
    (context.target as { id: string }).id === want.target &&
    (context.parent as { id: string } | null)?.id === want.parent &&
    Object.values(counts).every((n) => n === 0) &&
    Object.values(children).every((list) => list.length === 0) &&
    (context.grandchildren as unknown[]).length === 0;
  if (!ok)
    throw new Error(
      `${label}: expected ${want.target} under ${want.parent} alone in a new session, got ${JSON.stringify(value).slice(0, 600)}`,
    );
}

export function checkRef(label: string, value: Json, want: ExpectedBundle): void {
  if (value.id !== want.target || value.children_count !== BIG_CHILDREN || value.open_children_count !== want.open_children) {
    throw new Error(
      `${label}: ${JSON.stringify(value)}, expected ${want.target} with ${BIG_CHILDREN} children, ${want.open_children} OPEN`,
    );
  }
}

/** Checks before measuring that only the layout explains: the overview's counts and the first page of the big record's children. */
export async function checkLayout(client: McpClient, workspace: string, layout: RecordsLayout, want: ExpectedBundle): Promise<void> {
  const overview = (await client.callTool("get_project_overview", { workspace })).value;
  const project = overview.project as { tick: number };
  const capped = (n: number) => Math.min(n, COUNT_CAP);
  const wantOverview = {
    tick: layout.size,
    roots: capped(layout.roots),
    open: capped(layout.states.OPEN),
    later: capped(layout.states.LATER),
  };
  const got = {
    tick: project.tick,
    roots: overview.root_records_total,
    open: overview.open_records_total,
    later: overview.later_records_total,
  };
  if (JSON.stringify(got) !== JSON.stringify(wantOverview)) {
    throw new Error(`get_project_overview on ${workspace}: ${JSON.stringify(got)}, expected ${JSON.stringify(wantOverview)}`);
  }
  const page = (await client.callTool("list_records", { workspace, parent_id: want.target, limit: 200, budget_profile: "audit" })).value;
  const children: string[] = [];
  for (let num = 1; num <= layout.size && children.length < 200; num++)
    if (layout.parent[num] === layout.bigNum) children.push(recordId(num));
  const gotIds = idsOf(page.records);
  if (gotIds.join() !== children.join()) throw new Error(`list_records under ${want.target}: not the first 200 children in number order`);
}
