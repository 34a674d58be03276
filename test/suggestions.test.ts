// Every suggested call works as given, on every connection. The crawler builds a dozen workspace
// states through MCP, reads each one on every toolset, with and without the workspace lock in the URL,
// as the state's owner and as a newcomer (and once with a read token, once at the smallest budget),
// from every place that suggests calls: status, open, snapshot and resume views, execute.next,
// think_next/frontier/watch, context_pack, help, the records overview and bad calls whose errors carry
// actions. Each suggestion must name a tool the connection lists, pass the published JSON Schemas once
// its <fill: …> markers are filled, and succeed when called as given (a write on a fresh copy of the
// state it was made for). Prose in those answers (a hint, a message, a purpose) that names a flat tool
// the connection does not list fails too. Then: every write refuses an unfilled marker and stores nothing.

import { describe, expect, it } from "vitest";
import { COMMANDS } from "../src/catalog/catalog";
import { exampleArgsOf } from "../src/catalog/command-facts";
import {
  type Connection,
  connectionLabel,
  crawl,
  type Found,
  optionsOf,
  type ProseMention,
  probeLabels,
  proseMentions,
  renamed,
  staticProblems,
  type Toolset,
  toolsOf,
  writes,
} from "./crawl/crawler";
import { NEWCOMER, OWNER, READER, STATES, type State } from "./crawl/states";
import { as, callTool, failure, ok } from "./helpers/mcp";
import { fillIn, type SuggestedCall } from "./helpers/suggestions";

const TOOLSETS: Toolset[] = ["portals", "core", "daily", "full"];
/** Every state must yield at least this many distinct suggestions over all connections. */
const MIN_SUGGESTIONS_PER_STATE = 20;

const CONNECTIONS: Connection[] = [
  ...TOOLSETS.flatMap((toolset) =>
    [false, true].flatMap((locked) => [OWNER, NEWCOMER].map((agent): Connection => ({ toolset, locked, agent, role: "write" }))),
  ),
  { toolset: "portals", locked: false, agent: READER, role: "read" },
  { toolset: "full", locked: false, agent: READER, role: "read" },
  { toolset: "portals", locked: false, agent: OWNER, role: "write", maxChars: 256 },
  { toolset: "full", locked: true, agent: OWNER, role: "write", maxChars: 256 },
];

/** What the crawl did, for its report line. */
const stats = { runs: 0, rebuilds: 0, legitimate: 0 };

interface Checked {
  connection: Connection;
  found: Found;
  problems: string[];
}

interface Refusal {
  code: string;
  message: string;
}

/**
 * Refusals a suggestion legitimately leads to, each with its reason. A refusal not listed here fails
 * the test.
 */
const LEGITIMATE_REFUSALS: { why: string; applies: (found: Found, error: Refusal) => boolean }[] = [
  {
    why:
      "schema.get's example call shows a command's smallest arguments; a command whose target falls back to the " +
      "caller's focus needs a focus, or a plan or task id the example cannot know, in a state that has none",
    applies: (found, error) =>
      /example_(valid_)?call$/.test(found.path) && error.code === "INVALID_INPUT" && error.message.includes("needs a target"),
  },
];

/** Calls a found suggestion as given (its markers filled); a write runs on a fresh copy of the state. */
async function run(state: State, workspace: string, copyName: () => string, c: Connection, found: Found): Promise<string[]> {
  let target = workspace;
  stats.runs++;
  if (writes(found)) {
    stats.rebuilds++;
    target = copyName();
    await state.build(target);
  }
  const options = await optionsOf(c, target);
  const problems: string[] = [];
  for (const call of found.calls) {
    const pasted = renamed(call, workspace, target);
    const result = await callTool(pasted.tool, fillIn(pasted.args), options);
    if (result.isError) {
      const error = (result.structuredContent as { error: Refusal }).error;
      if (LEGITIMATE_REFUSALS.some((refusal) => refusal.applies(found, error))) {
        stats.legitimate++;
        break;
      }
      problems.push(`${JSON.stringify(call)} failed: ${JSON.stringify(result.structuredContent).slice(0, 400)}`);
      break;
    }
  }
  return problems;
}

/**
 * Golden paths are the same in every state (only their workspace differs): each rendering is followed
 * once, in the first state that shows it.
 */
const followedPaths = new Set<string>();

async function check(state: State, probes: boolean): Promise<Checked[]> {
  const workspace = `crawl/${state.name}`;
  await state.build(workspace);
  let copies = 0;
  const copyName = () => `${workspace}-copy${++copies}`;
  const seen = new Set<string>();
  const checked: Checked[] = [];
  for (const connection of CONNECTIONS) {
    const prose: ProseMention[] = [];
    const crawled = await crawl(connection, workspace, state.ref, probes, state.probes, prose);
    const listed = await toolsOf(connection.toolset);
    for (const mention of prose.filter((candidate) => !listed.has(candidate.tool))) {
      const found: Found = { source: mention.source, path: mention.path, calls: [] };
      checked.push({ connection, found, problems: [`prose names ${mention.tool}, not listed here: "${mention.text.slice(0, 160)}"`] });
    }
    for (const found of crawled) {
      const key = `${connectionLabel(connection)} ${JSON.stringify(found.calls)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (found.path.endsWith("golden_path")) {
        const path = `${connectionLabel(connection)} ${JSON.stringify(found.calls).replaceAll(JSON.stringify(workspace), '"<ws>"')}`;
        if (followedPaths.has(path)) continue;
        followedPaths.add(path);
      }
      const problems: string[] = [];
      for (const call of found.calls) problems.push(...(await staticProblems(connection, call)));
      if (problems.length === 0) problems.push(...(await run(state, workspace, copyName, connection, found)));
      checked.push({ connection, found, problems });
    }
  }
  return checked;
}

function kindOf(c: Connection): string {
  return `${c.toolset} ${c.locked ? "/w/<ws>/mcp" : "/mcp"}`;
}

describe("suggested calls", () => {
  it("work as given from every state, on every toolset, URL, identity, role and budget", { timeout: 240_000 }, async () => {
    const results = await Promise.all(STATES.map(async (state, index) => ({ state, checked: await check(state, index === 0) })));
    const perKind = new Map<string, { run: number; passed: number }>();
    const failures: string[] = [];
    for (const { state, checked } of results) {
      expect(checked.length, `${state.name} yields suggestions`).toBeGreaterThanOrEqual(MIN_SUGGESTIONS_PER_STATE);
      // Every bad call of the state reached an error that carries actions.
      const sources = new Set(checked.map(({ found }) => found.source));
      const probes = [...(state === STATES[0] ? probeLabels() : []), ...(state.probes ?? []).map((probe) => probe.code)];
      for (const probe of probes) expect(sources.has(probe), `${state.name}: ${probe} yields actions`).toBe(true);
      for (const { connection, found, problems } of checked) {
        const tally = perKind.get(kindOf(connection)) ?? { run: 0, passed: 0 };
        tally.run++;
        if (problems.length === 0) tally.passed++;
        else failures.push(`[${state.name}] ${connectionLabel(connection)} ${found.source} ${found.path}: ${problems.join("; ")}`);
        perKind.set(kindOf(connection), tally);
      }
    }
    const report = [...perKind.entries()].map(([kind, { run, passed }]) => `${kind}: ${passed}/${run}`).join(", ");
    console.info(`suggested calls executed per connection kind: ${report}`, JSON.stringify(stats));
    if (failures.length > 0) console.info(`FAILURES\n${failures.join("\n")}`);
    expect(failures.slice(0, 20), `${failures.length} of the suggestions failed`).toEqual([]);
  });

  it("would catch a broken suggestion: an unlisted tool, arguments the schema refuses, a call that fails", async () => {
    const core: Connection = { toolset: "core", locked: false, agent: OWNER, role: "write" };
    expect(await staticProblems(core, { tool: "tasks_note", args: { workspace: "crawl/x", note: "hi" } })).toEqual([
      "tasks_note is not listed on toolset core",
    ]);
    const full: Connection = { toolset: "full", locked: false, agent: OWNER, role: "write" };
    expect(
      await staticProblems(full, { tool: "tasks_close_step", args: { workspace: "crawl/x", checkpoints: { criteria: "yes" } } }),
    ).not.toEqual([]);
    expect(await staticProblems(full, { tool: "tasks_radar", args: {} })).toEqual(["tasks.radar suggested without its workspace on /mcp"]);
    const state = STATES[0] as State;
    const broken: Found = {
      source: "test",
      path: "next.action",
      calls: [{ tool: "tasks_radar", args: { workspace: "crawl/broken", task: "TASK-404" } }],
    };
    expect(await run(state, "crawl/broken", () => "crawl/broken-copy1", full, broken)).toHaveLength(1);
  });

  it("would catch prose naming a flat tool, but not a quoted value, a dotted command name or what a writer stored", () => {
    const answer = {
      error: { code: "X", message: 'No op "notes_commit"; try think.context_pack.', recovery_hint: "Call `tasks_context`." },
      entries: [{ content: "plain words: status, open", meta: { note: "tasks_create" } }],
      next: { action: { tool: "tasks", args: { op: "call", cmd: "tasks.close_step" }, purpose: "then jobs_list" } },
    };
    expect(proseMentions("test", answer).map((mention) => `${mention.path} ${mention.tool}`)).toEqual([
      "error.recovery_hint tasks_context",
      "next.action.purpose jobs_list",
    ]);
  });
});

describe("placeholders", () => {
  it("are refused by every write, nested ones included, and nothing is stored", async () => {
    const workspace = "placeholders/none";
    const admin = { path: "/mcp?toolset=full", ...(await as("placeholder-admin", { role: "admin" })) };
    for (const command of COMMANDS.filter((candidate) => candidate.kind === "write")) {
      const args = { ...exampleArgsOf(command), workspace, idempotency_key: "<fill: a key>" };
      const error = await failure(command.tool, args, admin);
      expect(error.code, command.name).toBe("INVALID_INPUT");
      expect(error.details?.fields, command.name).toContain("idempotency_key");
    }
    // Nested: a step title inside a decomposition, and a marker in any case.
    const nested = await failure(
      "tasks_create",
      { workspace, title: "Plan", steps: [{ title: "<FILL: first step>" }] } as Record<string, unknown>,
      admin,
    );
    expect(nested).toMatchObject({ code: "INVALID_INPUT", details: { fields: ["steps.0.title"] } });
    // Nothing reached the workspace: it was never written.
    const status = await ok("status", { workspace }, admin);
    expect(status).toMatchObject({ workspace_exists: false, tick: 0, seq: 0 });
    // The two fields stored exactly as sent take the marker as data.
    const slice = await ok("code_ref_attach", {
      workspace: "placeholders/verbatim",
      path: "a.ts",
      start_line: 1,
      end_line: 1,
      text: "const x = '<fill: y>';\n",
    });
    expect(slice.created).toBe(true);
  });

  it("never pass as filled: a suggestion pasted with its marker unfilled is refused", async () => {
    const workspace = "placeholders/pasted";
    const status = await ok("status", { workspace }, { path: "/mcp?toolset=portals" });
    const action = status.capsule.next.action as SuggestedCall;
    expect(JSON.stringify(action.args)).toContain("<fill:");
    const refused = await callTool(action.tool, action.args, { path: "/mcp?toolset=portals" });
    expect(refused.isError).toBe(true);
    expect((refused.structuredContent as { error: { code: string } }).error.code).toBe("INVALID_INPUT");
    expect((await ok("status", { workspace }, { path: "/mcp?toolset=full" })).workspace_exists).toBe(false);
  });
});
