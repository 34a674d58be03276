/**
 * What the common suite measures: the commands an agent calls most (the portals' golden ops, made flat
 * on `?toolset=full`), reads and writes, in one workspace seeded by `common-seed.ts`, with `ping` as
 * the floor. Every answer is checked on the fly by a cheap predicate that fails if the command did not
 * do what it is measured for (a page of the right length, the focused task, the seeded hits…), so a
 * fast error is never taken for a fast answer. Writes use a fresh id or text per round.
 */
import type { Call, Json, McpClient } from "../lib/mcp-http.ts";
import { COMMON_JOBS, type CommonSetup, SEARCH_HITS, SEARCH_WORD } from "./common-seed.ts";
import { noteText, PAGE_LIMIT } from "./layout.ts";
import { type CallOrder, type OpSet, sampleRounds } from "./sampling.ts";

/**
 * The graph ops name `main`'s graph, where the thinking cards are: with a focus set, the graph
 * commands would default to the focused task's own graph.
 */
const MAIN_GRAPH = { branch: "main", doc: "graph" };
/** Cards, nodes and records per measured list page: fewer than the seeded ones, so every page is full. */
const LIST_LIMIT = 20;

export const COMMON_OPS = [
  "ping",
  "status",
  "open",
  "tasks_snapshot",
  "tasks_execute_next",
  "tasks_evidence_capture",
  "think_card",
  "think_query",
  "think_next",
  "context_pack",
  "knowledge_upsert",
  "knowledge_recall",
  "knowledge_query",
  "jobs_create",
  "jobs_list",
  "jobs_radar",
  "jobs_open",
  "graph_apply",
  "graph_query",
  "notes_commit",
  "log",
  "docs_list",
  "show",
  "diff",
  "create_record",
  "search_records",
  "list_records",
] as const;
export type CommonOpName = (typeof COMMON_OPS)[number];

const LABELS: Partial<Record<CommonOpName, string>> = {
  ping: "ping (floor)",
  open: "open <card>",
  show: `show main notes ${PAGE_LIMIT}`,
  diff: "diff chain/1 → main",
  search_records: `search_records (${SEARCH_HITS} hits)`,
};

export function commonOpSet(): OpSet<CommonOpName> {
  const labels = Object.fromEntries(COMMON_OPS.map((op) => [op, LABELS[op] ?? op])) as Record<CommonOpName, string>;
  return { ops: COMMON_OPS, floor: "ping", reference: [], labels };
}

const list = (value: Json, field: string): unknown[] => (Array.isArray(value[field]) ? (value[field] as unknown[]) : []);
const object = (value: Json, field: string): Json =>
  typeof value[field] === "object" && value[field] !== null ? (value[field] as Json) : {};

/** The call and the check of each op; `round` makes each write's id or text unique. */
function opRequest(setup: CommonSetup, op: CommonOpName, round: number): { tool: string; args: Json; ok: (value: Json) => boolean } {
  const unique = round < 0 ? "check" : `${round}`;
  switch (op) {
    case "ping":
      return { tool: "ping", args: {}, ok: () => true };
    case "status":
      return { tool: "status", args: {}, ok: (v) => v.workspace === setup.workspace && typeof v.tick === "number" };
    case "open":
      return { tool: "open", args: { id: setup.card }, ok: (v) => v.kind === "card" && v.ref === setup.card };
    case "tasks_snapshot":
      return { tool: "tasks_snapshot", args: {}, ok: (v) => JSON.stringify(v).includes(setup.task) };
    case "tasks_execute_next":
      return { tool: "tasks_execute_next", args: {}, ok: (v) => object(v, "where").focus === setup.task };
    case "tasks_evidence_capture":
      return { tool: "tasks_evidence_capture", args: { step: "focus", checks: [`CMD: npm test #${unique}`] }, ok: (v) => !("error" in v) };
    case "think_card":
      return {
        tool: "think_card",
        args: { card: `Measured card ${unique}` },
        ok: (v) => typeof v.card_id === "string" && v.inserted === true,
      };
    case "think_query":
      return { tool: "think_query", args: { limit: LIST_LIMIT }, ok: (v) => list(v, "cards").length === LIST_LIMIT };
    case "think_next":
      return { tool: "think_next", args: {}, ok: (v) => typeof v.next === "object" && v.next !== null };
    case "context_pack":
      return { tool: "context_pack", args: {}, ok: (v) => list(object(v, "notes"), "entries").length > 0 };
    case "knowledge_upsert":
      return {
        tool: "knowledge_upsert",
        args: { anchor: "a:bench", key: `measured-${unique}`, card: `Claim: measured fact ${unique}` },
        ok: (v) => v.created === true,
      };
    case "knowledge_recall":
      return { tool: "knowledge_recall", args: { anchor: "a:storage" }, ok: (v) => list(v, "cards").length > 0 };
    case "knowledge_query":
      return { tool: "knowledge_query", args: {}, ok: (v) => list(v, "cards").length > 0 };
    case "jobs_create":
      return {
        tool: "jobs_create",
        args: { title: `Measured job ${unique}`, prompt: "Check the measured path." },
        ok: (v) => typeof object(v, "job").id === "string",
      };
    case "jobs_list":
      return { tool: "jobs_list", args: { limit: LIST_LIMIT }, ok: (v) => list(v, "jobs").length === LIST_LIMIT };
    case "jobs_radar":
      return { tool: "jobs_radar", args: {}, ok: (v) => Number(object(v, "counts").QUEUED) >= COMMON_JOBS };
    case "jobs_open":
      return { tool: "jobs_open", args: { job: setup.job }, ok: (v) => object(v, "job").id === setup.job };
    case "graph_apply":
      return {
        tool: "graph_apply",
        args: { ...MAIN_GRAPH, ops: [{ op: "node_upsert", id: `BENCH-${unique}`, type: "hypothesis", text: `Measured node ${unique}` }] },
        ok: (v) => object(v, "applied").nodes_upserted === 1,
      };
    case "graph_query":
      return { tool: "graph_query", args: { ...MAIN_GRAPH, limit: LIST_LIMIT }, ok: (v) => list(v, "nodes").length === LIST_LIMIT };
    case "notes_commit":
      return {
        tool: "notes_commit",
        args: { content: noteText(2_000_000 + round, "common commit") },
        ok: (v) => typeof object(v, "entry").seq === "number",
      };
    case "log":
      return { tool: "log", args: {}, ok: (v) => list(v, "commits").length > 0 };
    case "docs_list":
      return { tool: "docs_list", args: {}, ok: (v) => list(v, "docs").length > 0 };
    case "show":
      return {
        tool: "show",
        args: { branch: "main", doc: "notes", limit: PAGE_LIMIT },
        ok: (v) => list(v, "entries").length === PAGE_LIMIT,
      };
    case "diff":
      return { tool: "diff", args: { from: "chain/1", to: "main", doc: "notes" }, ok: (v) => list(v, "entries").length > 0 };
    case "create_record":
      return {
        tool: "create_record",
        args: { type: "note", title: `Measured record ${unique}`, summary: "A measured write.", body: "Written by the benchmark." },
        ok: (v) => typeof object(v, "record").id === "string",
      };
    case "search_records":
      return { tool: "search_records", args: { query: SEARCH_WORD }, ok: (v) => v.total === SEARCH_HITS };
    case "list_records":
      return { tool: "list_records", args: { limit: LIST_LIMIT }, ok: (v) => list(v, "records").length === LIST_LIMIT };
  }
}

/** One checked call of every op (before measuring), so a wrong setup fails before any sample is taken. */
export async function checkCommon(client: McpClient, setup: CommonSetup): Promise<void> {
  for (const op of COMMON_OPS) await commonCall(client, setup, op, -1);
}

/**
 * Rounds of `create_record` one Record-Sync session takes: each new record joins the agent's open
 * session, which holds at most 200 active records; before that, the session is closed (unmeasured) and
 * the next record starts a fresh one, so any number of samples fits.
 */
const RECORDS_PER_SESSION = 150;

/** One call of `op` (its unique text from `round`; -1 for a check), failing on a wrong answer. */
export async function commonCall(client: McpClient, setup: CommonSetup, op: CommonOpName, round: number): Promise<Call> {
  if (op === "create_record" && round > 0 && round % RECORDS_PER_SESSION === 0) {
    // The agent's only open session (the one its records started).
    await client.callTool("close_session", { workspace: setup.workspace });
  }
  const request = opRequest(setup, op, round);
  const result = await client.callTool(request.tool, { workspace: setup.workspace, ...request.args });
  if (!request.ok(result.value)) {
    throw new Error(`${request.tool} on ${setup.workspace}: unexpected answer ${JSON.stringify(result.value).slice(0, 400)}`);
  }
  return result;
}

export function measureCommon(
  client: McpClient,
  setup: CommonSetup,
  warmup: number,
  samples: number,
  order?: CallOrder<CommonOpName>,
): Promise<Record<CommonOpName, number[]>> {
  return sampleRounds(COMMON_OPS, (op, round) => commonCall(client, setup, op, round), warmup, samples, order);
}
