/**
 * The load test's agents and their ledger. Each agent runs `ops` operations, chosen by weight: a note
 * (`notes_commit`, unique content marker, idempotency key), a think card (`think_add_note`, unique id,
 * idempotency key), a record (`create_record`, unique title, idempotency key), a step lease claim or
 * the release of the lease it holds, and reads (`show`, `status`). Half the operations go to the hot
 * workspace, the rest spread over the others. Every write lands in the ledger as `acked` (the server
 * answered it), `rejected` (the server answered with a tool error) or `unknown` (no answer: in flight
 * when the server was killed). After the restart an agent replays its unknown writes once with the
 * same idempotency key; a replayed write that is acked counts as acked.
 */
import { performance } from "node:perf_hooks";
import { type Call, createMcpClient, type Json, McpCallError, type McpClient } from "../lib/mcp-http.ts";

export type WriteKind = "note" | "card" | "record" | "claim" | "release";
export type Outcome = "acked" | "rejected" | "unknown";

export interface WriteEntry {
  kind: WriteKind;
  agent: string;
  ws: string;
  /** Note marker, card id, record title, or the step id of a lease op. */
  key: string;
  outcome: Outcome;
  /** Before or after the kill (by when the call started). */
  phase: "before" | "after";
  replayed: boolean;
  /** notes: entry.seq; cards: last_seq (trace seq). */
  seq?: number;
  /** lease ops: acquired/expires of the lease granted, now_tick of a release. */
  acquired?: number;
  expires?: number;
  tick?: number;
  holder?: string | null;
  error?: string;
  args: Json;
  tool: string;
}

export interface WorkspaceSetup {
  ws: string;
  task: string;
  steps: string[];
}

export interface Shared {
  endpoint: string;
  signal: AbortSignal;
  /** Resolves when the server is up; replaced while it is down. */
  gate: Promise<void> | null;
  killed: boolean;
  opsDone: number;
  writesAcked: number;
  errors: number;
  latencies: number[];
  ledger: WriteEntry[];
  /** Called after each op: triggers the kill at the threshold. */
  onOp: () => void;
}

const LEASE_TICKS = 10_000;

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)] as T;
}

export async function setupWorkspace(client: McpClient, ws: string, steps: number): Promise<WorkspaceSetup> {
  await client.callTool("init", { workspace: ws });
  const plan = await client.callTool("tasks_create", { workspace: ws, kind: "plan", title: "load plan" });
  const task = await client.callTool("tasks_create", {
    workspace: ws,
    kind: "task",
    parent: String(plan.value.id),
    title: "load task",
    steps: Array.from({ length: steps }, (_, i) => ({ title: `step ${i + 1}` })),
  });
  const stepIds = (task.value.steps as Json[]).map((step) => String(step.step_id ?? step.id));
  return { ws, task: String(task.value.id), steps: stepIds };
}

function errorText(error: unknown): string {
  if (error instanceof McpCallError && error.kind === "tool-error") {
    const detail = error.detail as { error?: { code?: string } } | undefined;
    return detail?.error?.code ?? error.message.slice(0, 200);
  }
  return error instanceof Error ? error.message.slice(0, 200) : String(error);
}

export async function runAgent(index: number, ops: number, setups: readonly WorkspaceSetup[], shared: Shared): Promise<void> {
  const agent = `load-a${index}`;
  const client = createMcpClient({
    endpoint: shared.endpoint,
    agentId: agent,
    clientName: "load",
    signal: shared.signal,
    timeoutMs: 30_000,
  });
  let held: { setup: WorkspaceSetup; step: string } | null = null;
  const toReplay: WriteEntry[] = [];

  async function call(entry: WriteEntry | null, tool: string, args: Json): Promise<Call | null> {
    const killedAtStart = shared.killed;
    const started = performance.now();
    try {
      const result = await client.callTool(tool, args);
      shared.latencies.push(performance.now() - started);
      if (entry !== null) {
        entry.outcome = "acked";
        shared.writesAcked++;
      }
      return result;
    } catch (error) {
      if (shared.signal.aborted) throw error;
      const answered = error instanceof McpCallError && error.kind === "tool-error";
      if (!answered) shared.errors++;
      if (entry !== null) {
        entry.outcome = answered ? "rejected" : "unknown";
        entry.error = errorText(error);
        if (!answered && !killedAtStart && !shared.killed) entry.error = `(no kill) ${entry.error}`;
        if (answered && entry.error === "STEP_LEASE_HELD") {
          const details = (error as McpCallError).detail as { error?: { details?: { holder?: string } } };
          entry.holder = details.error?.details?.holder ?? null;
        }
      }
      return null;
    }
  }

  function newEntry(kind: WriteEntry["kind"], setup: WorkspaceSetup, key: string, tool: string, args: Json): WriteEntry {
    const entry: WriteEntry = {
      kind,
      agent,
      ws: setup.ws,
      key,
      outcome: "unknown",
      phase: shared.killed ? "after" : "before",
      replayed: false,
      tool,
      args,
    };
    shared.ledger.push(entry);
    return entry;
  }

  async function write(kind: "note" | "card" | "record", setup: WorkspaceSetup, n: number): Promise<void> {
    const key = `load:${setup.ws}:${agent}:${n}`;
    const idempotency_key = `${agent}:${n}`;
    let tool: string;
    let args: Json;
    if (kind === "note") {
      tool = "notes_commit";
      args = { workspace: setup.ws, branch: "main", doc: "notes", content: `${key} note body`, idempotency_key };
    } else if (kind === "card") {
      tool = "think_add_note";
      args = { workspace: setup.ws, branch: "main", id: `c-${agent}-${n}`, title: key, text: "load card", idempotency_key };
    } else {
      tool = "create_record";
      args = { project_id: setup.ws, type: "note", title: key, summary: "load", body: `${key} body`, idempotency_key };
    }
    const entry = newEntry(kind, setup, kind === "card" ? `c-${agent}-${n}` : key, tool, args);
    const result = await call(entry, tool, args);
    if (result !== null) record(entry, result.value);
    else if (entry.outcome === "unknown") toReplay.push(entry);
  }

  function record(entry: WriteEntry, value: Json): void {
    if (entry.kind === "note") entry.seq = Number((value.entry as Json | undefined)?.seq);
    if (entry.kind === "card") entry.seq = Number(value.last_seq);
  }

  async function claim(setup: WorkspaceSetup): Promise<void> {
    const step = pick(setup.steps);
    const args = { workspace: setup.ws, task: setup.task, step_id: step, ticks: LEASE_TICKS };
    const entry = newEntry("claim", setup, step, "tasks_step_lease_claim", args);
    const result = await call(entry, "tasks_step_lease_claim", args);
    if (result !== null) {
      const lease = result.value.lease as Json | null;
      entry.holder = (lease?.holder as string | undefined) ?? null;
      entry.acquired = Number(lease?.acquired_tick);
      entry.expires = Number(lease?.expires_tick);
      entry.tick = Number(result.value.now_tick);
      held = { setup, step };
    } else if (entry.outcome === "unknown") {
      // Maybe granted: release it after the restart (a NOT_HELD answer is fine).
      held = { setup, step };
    }
  }

  async function release(): Promise<void> {
    if (held === null) return;
    const { setup, step } = held;
    const args = { workspace: setup.ws, task: setup.task, step_id: step };
    const entry = newEntry("release", setup, step, "tasks_step_lease_release", args);
    const result = await call(entry, "tasks_step_lease_release", args);
    if (result !== null) entry.tick = Number(result.value.now_tick);
    if (entry.outcome !== "unknown") held = null;
  }

  for (let n = 0; n < ops; n++) {
    if (shared.signal.aborted) return;
    while (shared.gate !== null) await shared.gate;
    if (shared.killed && toReplay.length > 0) {
      for (const entry of toReplay.splice(0)) {
        const replay: WriteEntry = { ...entry, replayed: true, phase: "after", outcome: "unknown" };
        shared.ledger.push(replay);
        const result = await call(replay, entry.tool, entry.args);
        if (result !== null) record(replay, result.value);
      }
    }
    const setup = setups.length === 1 || Math.random() < 0.5 ? (setups[0] as WorkspaceSetup) : pick(setups.slice(1));
    const roll = Math.random();
    if (held !== null && roll < 0.6) await release();
    else if (roll < 0.3) await write("note", setup, n);
    else if (roll < 0.5) await write("card", setup, n);
    else if (roll < 0.65) await write("record", setup, n);
    else if (roll < 0.8 && held === null) await claim(setup);
    else if (roll < 0.9) await call(null, "show", { workspace: setup.ws, branch: "main", doc: "notes", limit: 20 });
    else await call(null, "status", { workspace: setup.ws });
    shared.opsDone++;
    shared.onOp();
  }
  if (held !== null) {
    while (shared.gate !== null) await shared.gate;
    await release();
  }
}
