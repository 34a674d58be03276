/**
 * What the portals suite measures: five calls in pairs, each once as a flat tool on `?toolset=full`
 * and once through its portal on `?toolset=portals` (same agent, same workspace, same arguments), plus
 * `tools/list` on both toolsets. The flat `ping` is the floor. Every answer is checked on the fly (see
 * `checkAnswer`): a portal answer must carry the full capsule of the seeded focus, a flat one no
 * capsule (but `tasks_snapshot`, which keeps its own), so a broken answer fails the run instead of
 * being timed.
 */
import { shutdownSignal } from "../lib/dev-server.ts";
import { type Call, type Json, type McpClient, PROTOCOL_VERSION, parseMessage, requestSignal, timedFetch } from "../lib/mcp-http.ts";
import { type OpSet, sampleRounds } from "./sampling.ts";

export const PORTAL_OPS = [
  "ping",
  "ping_portal",
  "status",
  "status_portal",
  "show",
  "show_portal",
  "notes_commit",
  "notes_commit_portal",
  "snapshot",
  "snapshot_portal",
  "list_full",
  "list_portals",
] as const;
export type PortalOpName = (typeof PORTAL_OPS)[number];

/** The suite's target: a portal call's median at most this many times its flat twin's (reported, not asserted). */
export const TARGET_MAX_PORTAL_TO_FLAT = 1.15;

/** One flat call and its portal twin. */
export interface Pair {
  name: string;
  flat: PortalOpName;
  portal: PortalOpName;
}

export const PAIRS: readonly Pair[] = [
  { name: "ping", flat: "ping", portal: "ping_portal" },
  { name: "status", flat: "status", portal: "status_portal" },
  { name: "show", flat: "show", portal: "show_portal" },
  { name: "notes_commit", flat: "notes_commit", portal: "notes_commit_portal" },
  { name: "tasks_snapshot", flat: "snapshot", portal: "snapshot_portal" },
  { name: "tools/list", flat: "list_full", portal: "list_portals" },
];

/** Entries per `show` page: the seeded notes on `main` fill it exactly. */
export const SHOW_LIMIT = 20;
/** The measured writes go to this doc on `main`, which no measured read reads (see `writeArgs`). */
export const WRITE_DOC = "bench-writes";

export function portalsOpSet(): OpSet<PortalOpName> {
  return {
    ops: PORTAL_OPS,
    floor: "ping",
    reference: [],
    labels: {
      ping: "ping (floor)",
      ping_portal: "system call system.ping",
      status: "status",
      status_portal: "status (portal)",
      show: `show notes ${SHOW_LIMIT}`,
      show_portal: `docs show notes ${SHOW_LIMIT}`,
      notes_commit: "notes_commit",
      notes_commit_portal: "vcs notes.commit",
      snapshot: "tasks_snapshot",
      snapshot_portal: "tasks snapshot",
      list_full: "tools/list full",
      list_portals: "tools/list portals",
    },
  };
}

/** What the seeding left, which every checked answer must reflect. */
export interface PortalsWorld {
  workspace: string;
  agent: string;
  plan: string;
  task: string;
  /** The task's first open step: the capsule's step focus. */
  step: { id: string; path: string };
  /** Seqs of the newest SHOW_LIMIT notes on `main`, oldest first: exactly the `show` page. */
  showSeqs: number[];
  /** The newest seq written so far; every measured write must go past it. */
  lastSeq: number;
}

/** The two MCP clients (same agent) and the server's MCP URL, without a query, for `tools/list`. */
export interface PortalsTarget {
  flat: McpClient;
  portal: McpClient;
  /** `http://127.0.0.1:<port>/mcp`, without a query. */
  mcpUrl: string;
  agent: string;
}

/** A `tools/list` answer: its latency, its body (characters and UTF-8 bytes) and the tools' names. */
export interface Listing extends Call {
  chars: number;
  bytes: number;
  names: string[];
}

let nextListId = 1;

/** One stateless `tools/list` request in the 2026-07-28 envelope, timed like a tool call (fetch + body read). */
export async function listTools(target: PortalsTarget, toolset: "full" | "portals"): Promise<Listing> {
  const id = nextListId++;
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/list",
    params: {
      _meta: {
        "io.modelcontextprotocol/protocolVersion": PROTOCOL_VERSION,
        "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  });
  const { ms, response, text } = await timedFetch(`${target.mcpUrl}?toolset=${toolset}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": PROTOCOL_VERSION,
      "mcp-method": "tools/list",
      "x-agent-id": target.agent,
    },
    body,
    signal: requestSignal(shutdownSignal),
  });
  if (response.status !== 200) throw new Error(`tools/list ${toolset}: HTTP ${response.status}: ${text.slice(0, 500)}`);
  const message = parseMessage(text, response.headers.get("content-type") ?? "", id);
  const tools = (message.result as { tools?: { name: string }[] } | undefined)?.tools;
  if (!Array.isArray(tools)) throw new Error(`tools/list ${toolset}: no tools in ${text.slice(0, 500)}`);
  const value: Json = { tools };
  return { ms, value, chars: text.length, bytes: Buffer.byteLength(text), names: tools.map((tool) => tool.name) };
}

const asObject = (value: unknown): Json | undefined =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;

function fail(label: string, what: string, value: unknown): never {
  throw new Error(`${label}: ${what}; answer: ${JSON.stringify(value).slice(0, 1_500)}`);
}

/**
 * The portal capsule in its full form for the seeded focus: where the workspace, the focused task and
 * its first open step, next the best action (the work on that step, aimed at the task) and a backup.
 */
function checkPortalCapsule(label: string, value: Json, world: PortalsWorld): void {
  const capsule = asObject(value.capsule);
  const where = asObject(capsule?.where);
  const next = asObject(capsule?.next);
  const action = asObject(next?.action);
  if (where?.workspace !== world.workspace) fail(label, `capsule.where.workspace is not ${world.workspace}`, value);
  if (where.focus !== world.task) fail(label, `capsule.where.focus is not ${world.task}`, value);
  if (asObject(where.step_focus)?.step_id !== world.step.id) fail(label, `capsule.where.step_focus is not ${world.step.id}`, value);
  if (action === undefined || typeof action.tool !== "string") fail(label, "capsule.next.action is missing", value);
  if (asObject(asObject(action.args)?.args)?.task !== world.task) fail(label, `capsule.next.action is not aimed at ${world.task}`, value);
  if (asObject(next?.backup) === undefined) fail(label, "capsule.next.backup is missing", value);
}

function checkNoCapsule(label: string, value: Json): void {
  if ("capsule" in value) fail(label, "a flat answer carries a capsule", value);
}

/** The task's own capsule (resume views keep theirs, flat or portal): the seeded task, its step, a next action. */
function checkTaskCapsule(label: string, value: Json, world: PortalsWorld): void {
  const capsule = asObject(value.capsule);
  const where = asObject(capsule?.where);
  if (where?.workspace !== world.workspace) fail(label, `capsule.where.workspace is not ${world.workspace}`, value);
  if (asObject(where.target)?.id !== world.task) fail(label, `capsule.where.target is not ${world.task}`, value);
  if (asObject(where.step_focus)?.step_id !== world.step.id) fail(label, `capsule.where.step_focus is not ${world.step.id}`, value);
  if (typeof asObject(asObject(capsule?.next)?.action)?.tool !== "string") fail(label, "capsule.next.action is missing", value);
}

function checkUntrimmed(label: string, value: Json): void {
  const budget = asObject(value.budget);
  if (budget === undefined || typeof budget.used_chars !== "number") fail(label, "no budget.used_chars", value);
  if (budget.truncated !== false) fail(label, "the answer was trimmed to its budget", value);
}

/**
 * Checks one answer (throws on a mismatch). Reads must be untrimmed so that both sides of a pair did
 * the same work; writes must land past the previous write, on `main`'s write doc.
 */
export function checkAnswer(op: PortalOpName, call: Call, world: PortalsWorld): void {
  const label = `${op} on ${world.workspace}`;
  const { value } = call;
  const portal = op.endsWith("_portal");
  switch (op) {
    case "ping":
    case "ping_portal":
      if (value.pong !== true || value.workspace !== world.workspace || value.agent_id !== world.agent) fail(label, "not a pong", value);
      break;
    case "status":
    case "status_portal":
      if (value.workspace !== world.workspace || value.checkout !== "main" || value.workspace_exists !== true) {
        fail(label, "not the seeded workspace's status on main", value);
      }
      checkUntrimmed(label, value);
      break;
    case "show":
    case "show_portal": {
      const seqs = Array.isArray(value.entries) ? value.entries.map((entry) => asObject(entry)?.seq) : [];
      if (value.branch !== "main" || value.doc !== "notes" || seqs.join() !== world.showSeqs.join()) {
        fail(label, `expected main/notes seqs [${world.showSeqs.join(", ")}], got [${seqs.join(", ")}]`, value);
      }
      checkUntrimmed(label, value);
      break;
    }
    case "notes_commit":
    case "notes_commit_portal": {
      const entry = asObject(value.entry);
      if (entry?.branch !== "main" || entry.doc !== WRITE_DOC || typeof entry.seq !== "number" || entry.seq <= world.lastSeq) {
        fail(label, `expected a new entry on main/${WRITE_DOC} past seq ${world.lastSeq}`, value);
      }
      world.lastSeq = entry.seq;
      break;
    }
    case "snapshot":
    case "snapshot_portal": {
      if (asObject(value.target)?.id !== world.task) fail(label, `not a snapshot of ${world.task}`, value);
      checkTaskCapsule(label, value, world);
      checkUntrimmed(label, value);
      return;
    }
    case "list_full":
    case "list_portals":
      return;
  }
  if (portal) checkPortalCapsule(label, value, world);
  else checkNoCapsule(label, value);
}

/** The full listing holds the flat tools this suite calls; the portal listing holds portals only (each with the envelope). */
export function checkListing(toolset: "full" | "portals", listing: Listing): void {
  const names = new Set(listing.names);
  const want =
    toolset === "full" ? ["ping", "status", "show", "notes_commit", "tasks_snapshot"] : ["status", "system", "docs", "vcs", "tasks"];
  const missing = want.filter((name) => !names.has(name));
  if (missing.length > 0) throw new Error(`tools/list ${toolset}: missing ${missing.join(", ")} (got ${listing.names.join(", ")})`);
  if (toolset === "portals") {
    if (names.has("ping") || names.has("notes_commit")) throw new Error(`tools/list portals lists flat tools: ${listing.names.join(", ")}`);
    for (const tool of (listing.value.tools ?? []) as { name: string; inputSchema?: { properties?: Json } }[]) {
      if (!("op" in (tool.inputSchema?.properties ?? {}))) throw new Error(`tools/list portals: ${tool.name} has no envelope (op)`);
    }
  }
}

/** The measured write's arguments: the content varies by round; `doc` keeps it off the focused task's notes (see the module comment of `portals-suite.ts`). */
export function writeArgs(round: number, portal: boolean): Json {
  return { content: `bench write ${round}${portal ? " (portal)" : ""}: one note appended to ${WRITE_DOC} on main`, doc: WRITE_DOC };
}

/** One call of `op`, unchecked. */
export async function callOp(target: PortalsTarget, world: PortalsWorld, op: PortalOpName, round: number): Promise<Call> {
  const { flat, portal } = target;
  const workspace = world.workspace;
  const show = { doc: "notes", limit: SHOW_LIMIT };
  switch (op) {
    case "ping":
      return flat.callTool("ping", { workspace });
    case "ping_portal":
      return portal.callTool("system", { workspace, op: "call", cmd: "system.ping" });
    case "status":
      return flat.callTool("status", { workspace });
    case "status_portal":
      return portal.callTool("status", { workspace });
    case "show":
      return flat.callTool("show", { workspace, ...show });
    case "show_portal":
      return portal.callTool("docs", { workspace, op: "show", args: show });
    case "notes_commit":
      return flat.callTool("notes_commit", { workspace, ...writeArgs(round, false) });
    case "notes_commit_portal":
      return portal.callTool("vcs", { workspace, op: "notes.commit", args: writeArgs(round, true) });
    case "snapshot":
      return flat.callTool("tasks_snapshot", { workspace });
    case "snapshot_portal":
      return portal.callTool("tasks", { workspace, op: "snapshot" });
    case "list_full":
    case "list_portals": {
      const toolset = op === "list_full" ? "full" : "portals";
      const listing = await listTools(target, toolset);
      checkListing(toolset, listing);
      return listing;
    }
  }
}

/** Samples every op, each answer checked (see `checkAnswer`). */
export function measurePortals(
  target: PortalsTarget,
  world: PortalsWorld,
  warmup: number,
  samples: number,
): Promise<Record<PortalOpName, number[]>> {
  const call = async (op: PortalOpName, round: number): Promise<Call> => {
    const result = await callOp(target, world, op, round);
    checkAnswer(op, result, world);
    return result;
  };
  return sampleRounds(PORTAL_OPS, call, warmup, samples);
}
