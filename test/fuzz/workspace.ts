// The fuzz workspace, shared by the fuzz test files: the tokens, the ids and names that exist after
// setup (so valid calls reach the handlers), the setup calls, and `setUpFuzzing`, which aims the harness
// at a file's own workspace and registers the suite's hooks (setup before, the summary after).

import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, vi } from "vitest";
import { rpc, token } from "../helpers/mcp";
import { read } from "./checks";
import { abbreviate, BASE_SEED, serverLog, stats, TOTAL_RUNS, target } from "./harness";

const OTHER_AGENT = "rival";
/** The workspace's project guard (stored by setup's init); valid arguments carry it or nothing. */
export const GUARD = "fuzz-guard";

export const bearers: Record<string, string> = {};

/** Ids and names that exist after setup, so valid calls reach the handlers rather than UNKNOWN_ID (filled by setup). */
export const KNOWN: string[] = [];

const knownBeforeSetup = (workspace: string) => [
  "main",
  "experiment",
  "notes",
  "graph",
  "trace",
  "v1",
  "PLAN-001",
  "TASK-001",
  "TASK-002",
  "s:0",
  "s:1",
  "CARD-1",
  "CARD-2",
  "CARD-3",
  "JOB-001",
  "R001",
  "R002",
  "notes@1",
  "notes@2",
  "a:storage",
  "a:fuzz",
  "kb/main",
  workspace,
  // Names that are also Object.prototype members: a lookup in a plain object finds something.
  "constructor",
  "hasOwnProperty",
  "__proto__",
];

const SETUP: [tool: string, args: Record<string, unknown>][] = [
  ["init", { project_guard: GUARD }],
  ["notes_commit", { content: "first note" }],
  ["branch_create", { name: "experiment" }],
  ["notes_commit", { branch: "experiment", content: "on the experiment" }],
  ["tag_create", { name: "v1" }],
  ["tasks_macro_start", { title: "Fuzz the server" }],
  ["tasks_create", { title: "Second task" }],
  ["think_card", { card: "Notes stay append-only" }],
  ["think_add_hypothesis", { title: "The parser drops NULs" }],
  ["think_add_question", { title: "Does the budget hold?" }],
  ["jobs_create", { title: "Review the parser", prompt: "List the edge cases." }],
  ["anchors_bootstrap", { anchors: [{ id: "a:storage", title: "Storage engine", kind: "component", refs: ["path:src/storage"] }] }],
  [
    "knowledge_upsert",
    { anchor: "a:storage", key: "wal-mode", card: "Claim: SQLite runs in WAL mode\nScope: storage\nExpiry: 2030-01-01" },
  ],
  ["code_ref_attach", { path: "src/app.ts", start_line: 1, end_line: 2, text: "export const a = 1;\nexport const b = 2;\n" }],
  ["graph_apply", { ops: [{ op: "node_upsert", id: "H-cache", type: "hypothesis" }] }],
  ["create_record", { parent_id: null, type: "question", title: "Which storage engine?", summary: "Pick one.", body: "We need one." }],
  ["create_record", { parent_id: "R001", type: "task", title: "Benchmark", summary: "Measure.", body: "Run the bench." }],
];

async function setupWorkspace(): Promise<void> {
  const workspace = target.workspace;
  KNOWN.push(...knownBeforeSetup(workspace));
  bearers.admin = await token({ agent: "fuzzer", workspaces: [workspace], role: "admin" });
  bearers.read = await token({ agent: "fuzzer", workspaces: [workspace], role: "read" });
  bearers.rival = await token({ agent: OTHER_AGENT, workspaces: [workspace], role: "write" });
  for (const [tool, args] of SETUP) {
    const answer = await read(await rpc("tools/call", { name: tool, arguments: { workspace, ...args } }, { bearer: bearers.admin }));
    const result = answer.message?.result as { isError?: boolean; structuredContent?: Record<string, unknown> } | undefined;
    if (!result || result.isError) throw new Error(`fuzz setup: ${tool} failed: ${abbreviate(answer.text)}`);
    const ref = result.structuredContent?.ref;
    if (tool === "code_ref_attach" && typeof ref === "string") KNOWN.push(ref);
  }
  // The workspace's first summary push registers it in the Directory; run it now, not mid-fuzz.
  await runDurableObjectAlarm(env.WORKSPACES.getByName(workspace));
}

/**
 * Aims the harness at this file's workspace (`file`, the test file's path, goes into the reproduce line)
 * and registers the suite's hooks: the console spies and the workspace's setup before, the summary after.
 * Call it inside the file's describe block.
 */
export function setUpFuzzing(workspace: string, file: string): void {
  target.workspace = workspace;
  target.file = file;
  beforeAll(async () => {
    stats.startedAt = Date.now();
    // The front door logs one line per call (call-log.ts): thousands of them would bury the summary.
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    // The MCP handler logs every refused request; keep the lines for reports instead of the console.
    vi.spyOn(console, "error").mockImplementation((...parts: unknown[]) => {
      serverLog.count++;
      serverLog.errors.push(parts.map((part) => (part instanceof Error ? (part.stack ?? part.message) : String(part))).join(" "));
    });
    await setupWorkspace();
  }, 60_000);

  afterAll(() => {
    vi.restoreAllMocks();
    const seconds = ((Date.now() - stats.startedAt) / 1000).toFixed(1);
    const v = stats.violations;
    console.log(
      [
        `fuzz summary (seed ${BASE_SEED}, target ${TOTAL_RUNS} calls): ${stats.calls} calls (shrinking included) and ${stats.repeats} repeats in ${seconds} s`,
        `  groups: flat ${stats.groups.flat}, portal ${stats.groups.portal}, json-rpc ${stats.groups.jsonrpc}, body ${stats.groups.body}`,
        `  outcomes: ok ${stats.outcomes.ok}, tool errors ${stats.outcomes["tool-error"]}, protocol errors ${stats.outcomes["protocol-error"]}, http errors ${stats.outcomes["http-error"]}`,
        `  tool error codes: ${Object.entries(stats.codes)
          .sort((a, b) => b[1] - a[1])
          .map(([code, count]) => `${code} ${count}`)
          .join(", ")}`,
        `  server console.error lines: ${serverLog.count}`,
        `  violations: 5xx ${v["5xx"]}, internal ${v.internal}, untyped errors ${v.untyped}, state changes on rejection ${v["state-change"]}, output-schema ${v["output-schema"]}, malformed answers ${v["malformed-answer"]}, nondeterministic reads ${v.nondeterministic}, failed replays ${v.replay}`,
        ...stats.failures,
      ].join("\n"),
    );
  });
}
