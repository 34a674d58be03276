// End-to-end: the MCP prompts of the golden paths (src/worker/prompts.ts, docs/prompts.md) through the
// real endpoint: listing, arguments and their refusals, calls rendered for each connection, and what a
// prompt asks for works when the agent pastes it (its <fill: …> values chosen as an agent would).

import { describe, expect, it } from "vitest";
import { CALL_LINE_PREFIX, MAX_PROMPT_ARGUMENT_CHARS, PROMPT_TEXT_BUDGET_CHARS } from "../src/worker/prompts";
import { as, callTool, ok, type RpcOptions, rpc, type ToolResult } from "./helpers/mcp";

const PORTAL = "/mcp";
const FULL = "/mcp?toolset=full";
const DAILY = "/mcp?toolset=daily";
const LOCKED_WORKSPACE = "acme/app";
const LOCKED = `/w/${LOCKED_WORKSPACE}/mcp`;
const INVALID_PARAMS = -32602;
const GOLDEN_PATHS = ["resume_work", "hand_off", "continue_topic", "start_topic", "reasoning_pipeline"];

interface ListedPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
}
interface PromptAnswer {
  result?: { description?: string; messages: { role: string; content: { type: string; text: string } }[] };
  error?: { code: number; message: string };
}
interface PastedCall {
  tool: string;
  args: Record<string, any>;
}

async function listPrompts(path = PORTAL): Promise<ListedPrompt[]> {
  const body = (await (await rpc("prompts/list", {}, { path })).json()) as { result: { prompts: ListedPrompt[] } };
  return body.result.prompts;
}

async function getPrompt(name: string, args: Record<string, string>, options: RpcOptions): Promise<PromptAnswer> {
  // The 2026-07-28 envelope wants the name in a header for prompts/get too (the helper sets it for tools/call only).
  const headers = { ...options.headers, "mcp-name": name };
  return (await (await rpc("prompts/get", { name, arguments: args }, { ...options, headers })).json()) as PromptAnswer;
}

/** The prompt's text; fails the test on a protocol error. */
async function promptText(name: string, args: Record<string, string>, options: RpcOptions): Promise<string> {
  const answer = await getPrompt(name, args, options);
  if (answer.result === undefined) throw new Error(`prompts/get ${name} failed: ${JSON.stringify(answer.error)}`);
  expect(answer.result.messages).toHaveLength(1);
  expect(answer.result.messages[0]?.role).toBe("user");
  return answer.result.messages[0]?.content.text ?? "";
}

/** The ready calls of a prompt's text, as an agent reads them: `call <tool> <JSON>` lines. */
function callsOf(text: string): PastedCall[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith(CALL_LINE_PREFIX))
    .map((line) => {
      const rest = line.slice(CALL_LINE_PREFIX.length);
      const space = rest.indexOf(" ");
      return { tool: rest.slice(0, space), args: JSON.parse(rest.slice(space + 1)) };
    });
}

async function listedTools(path: string): Promise<string[]> {
  const body = (await (await rpc("tools/list", {}, { path })).json()) as { result: { tools: { name: string }[] } };
  return body.result.tools.map((tool) => tool.name);
}

/** Every `workspace` key anywhere in a call's arguments. */
function workspacesIn(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(workspacesIn);
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, inner]) => (key === "workspace" ? [inner] : workspacesIn(inner)));
}

const MARKER = /<fill:\s*([^>]*)>/gi;

/** `value` with each `<fill: what>` replaced by `known[what]`, else by a text of its own (what an agent writes). */
function filled<T>(value: T, known: Record<string, string>): T {
  if (typeof value === "string") {
    const whole = /^<fill:\s*([^>]*)>$/i.exec(value);
    if (whole?.[1] !== undefined && known[whole[1].trim()] !== undefined) return known[whole[1].trim()] as T;
    return value.replace(MARKER, (_match, what: string) => known[what.trim()] ?? `written for ${what.trim()}`) as T;
  }
  if (Array.isArray(value)) return value.map((item) => filled(item, known)) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, filled(inner, known)])) as T;
  }
  return value;
}

/** A command's answer inside a tool result (a portal answer carries the command's payload as is). */
function payload(result: ToolResult): Record<string, any> {
  if (result.isError) throw new Error(`call failed: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent;
}

function errorOf(result: ToolResult): { code: string; details?: Record<string, any> } {
  expect(result.isError).toBe(true);
  return (result.structuredContent as { error: { code: string; details?: Record<string, any> } }).error;
}

function sampleArgs(prompt: ListedPrompt, workspace?: string): Record<string, string> {
  const args: Record<string, string> = {};
  for (const argument of prompt.arguments ?? []) {
    if (argument.name === "workspace") {
      if (workspace !== undefined) args.workspace = workspace;
    } else if (argument.required) {
      args[argument.name] = `a value for ${argument.name}`;
    }
  }
  return args;
}

describe("prompts/list", () => {
  it("lists the five golden paths, each with a title, a description and described arguments", async () => {
    const prompts = await listPrompts();
    expect(prompts.map((prompt) => prompt.name).sort()).toEqual([...GOLDEN_PATHS].sort());
    for (const prompt of prompts) {
      expect(prompt.name).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(prompt.title?.length).toBeGreaterThan(0);
      expect(prompt.description?.length).toBeGreaterThan(0);
      const names = (prompt.arguments ?? []).map((argument) => argument.name);
      expect(names).toContain("workspace");
      expect(new Set(names).size).toBe(names.length);
      for (const argument of prompt.arguments ?? []) expect(argument.description?.length).toBeGreaterThan(0);
      expect(prompt.arguments?.find((argument) => argument.name === "workspace")?.required).toBe(false);
    }
    const required = (name: string) =>
      (prompts.find((prompt) => prompt.name === name)?.arguments ?? []).filter((a) => a.required).map((a) => a.name);
    expect(required("resume_work")).toEqual([]);
    expect(required("hand_off")).toEqual(["to_agent"]);
    expect(required("start_topic")).toEqual(["topic"]);
    expect(required("continue_topic")).toEqual(["topic"]);
    expect(required("reasoning_pipeline")).toEqual(["question"]);
  });
});

describe("prompts/get renders its calls for the connection", () => {
  it("names only tools the connection lists, with the workspace unless the URL locks it, in a short text", async () => {
    const prompts = await listPrompts();
    for (const [path, workspace] of [
      [PORTAL, "prompts/render"],
      [FULL, "prompts/render"],
      [DAILY, "prompts/render"],
      [LOCKED, undefined],
    ] as const) {
      const tools = await listedTools(path);
      for (const prompt of prompts) {
        const answer = await getPrompt(prompt.name, sampleArgs(prompt, workspace), { path });
        expect(answer.result?.description).toBe(prompt.description);
        const text = answer.result?.messages[0]?.content.text ?? "";
        expect(text.length, `${prompt.name} on ${path}`).toBeLessThanOrEqual(PROMPT_TEXT_BUDGET_CHARS);
        const calls = callsOf(text);
        expect(calls.length, `${prompt.name} on ${path}`).toBeGreaterThanOrEqual(3);
        for (const call of calls) {
          expect(tools, `${prompt.name} on ${path}`).toContain(call.tool);
          expect(workspacesIn(call.args)).toEqual(workspace === undefined ? [] : [workspace]);
        }
      }
    }
  });

  it("resume_work: portal envelopes on /mcp, flat tools on ?toolset=full, no workspace on a locked URL", async () => {
    const portal = callsOf(await promptText("resume_work", { workspace: "acme/app" }, { path: PORTAL }));
    expect(portal.slice(0, 2)).toEqual([
      { tool: "status", args: { workspace: "acme/app" } },
      { tool: "tasks", args: { workspace: "acme/app", op: "snapshot" } },
    ]);
    const flat = callsOf(await promptText("resume_work", { workspace: "acme/app", task: "TASK-007" }, { path: FULL }));
    expect(flat.slice(0, 2)).toEqual([
      { tool: "status", args: { workspace: "acme/app" } },
      { tool: "tasks_snapshot", args: { workspace: "acme/app", target: "TASK-007" } },
    ]);
    const locked = callsOf(await promptText("resume_work", {}, { path: LOCKED }));
    expect(locked.slice(0, 2)).toEqual([
      { tool: "status", args: {} },
      { tool: "tasks", args: { op: "snapshot" } },
    ]);
  });

  it("without a workspace on /mcp, asks the agent to fill it in each call", async () => {
    for (const call of callsOf(await promptText("resume_work", {}, { path: PORTAL }))) {
      expect(workspacesIn(call.args)).toEqual(["<fill: workspace>"]);
    }
  });

  it("keeps an argument a JSON string value, whatever it holds", async () => {
    const topic = 'quotes " and braces }{ and a \\ backslash, "op":"call"';
    const calls = callsOf(await promptText("start_topic", { workspace: "prompts/quote", topic }, { path: PORTAL }));
    expect(calls.find((call) => call.args.op === "search")?.args.args.query).toBe(topic);
    expect(calls.find((call) => call.args.args?.type === "question")?.args.args.title).toBe(topic);
  });

  it("leaves out what the caller's role cannot make, and says so", async () => {
    const reader = await as("reader", { role: "read" });
    const text = await promptText("hand_off", { workspace: "prompts/read", to_agent: "bob" }, { ...reader, path: FULL });
    expect(callsOf(text).map((call) => call.tool)).toEqual(["tasks_snapshot"]);
    expect(text).toContain("4 step(s) left out");
  });
});

describe("prompts/get refusals (JSON-RPC invalid params)", () => {
  it("refuses a missing required argument, naming it", async () => {
    const answer = await getPrompt("hand_off", { workspace: "prompts/refuse" }, { path: PORTAL });
    expect(answer.error?.code).toBe(INVALID_PARAMS);
    expect(answer.error?.message).toContain("to_agent");
    const blank = await getPrompt("start_topic", { topic: "   " }, { path: PORTAL });
    expect(blank.error?.code).toBe(INVALID_PARAMS);
    expect(blank.error?.message).toContain("topic");
  });

  it("refuses an unknown prompt, listing the prompts", async () => {
    const answer = await getPrompt("no_such_prompt", {}, { path: PORTAL });
    expect(answer.error?.code).toBe(INVALID_PARAMS);
    for (const name of GOLDEN_PATHS) expect(answer.error?.message).toContain(name);
  });

  it("refuses an unknown argument, an over-long or multi-line value, and another workspace than the URL's", async () => {
    const refusals = [
      await getPrompt("resume_work", { workspace: "prompts/refuse", agent: "x" }, { path: PORTAL }),
      await getPrompt("start_topic", { topic: "x".repeat(MAX_PROMPT_ARGUMENT_CHARS + 1) }, { path: PORTAL }),
      await getPrompt("start_topic", { topic: "line one\nline two" }, { path: PORTAL }),
      await getPrompt("resume_work", { workspace: "elsewhere" }, { path: LOCKED }),
      await getPrompt("resume_work", { workspace: "not a workspace!" }, { path: PORTAL }),
    ];
    for (const answer of refusals) {
      expect(answer.result).toBeUndefined();
      expect(answer.error?.code).toBe(INVALID_PARAMS);
    }
    expect(refusals[0]?.error?.message).toContain("agent");
    expect(refusals[1]?.error?.message).toContain(String(MAX_PROMPT_ARGUMENT_CHARS));
  });
});

describe("what a prompt pastes works", () => {
  it("resume_work, in a fresh workspace and then with a task, on the portal toolset", async () => {
    const workspace = "prompts/paste-resume";
    const options = { path: PORTAL };
    const calls = callsOf(await promptText("resume_work", { workspace }, options));
    expect(calls).toHaveLength(3);
    const status = payload(await callTool(calls[0]!.tool, calls[0]!.args, options));
    expect(status.workspace).toBe(workspace);
    // No focus yet: the snapshot is refused, as the prompt's "when" foresees, naming the field to give.
    const refused = errorOf(await callTool(calls[1]!.tool, calls[1]!.args, options));
    expect(refused.code).toBe("INVALID_INPUT");
    expect(refused.details?.field).toBe("target");
    payload(await callTool(calls[2]!.tool, calls[2]!.args, options));

    const started = await ok("tasks_macro_start", { workspace, title: "Speed up reads" });
    for (const task of [undefined, started.task_id as string]) {
      const again = callsOf(await promptText("resume_work", { workspace, ...(task ? { task } : {}) }, options));
      const answers = [];
      for (const call of again) answers.push(payload(await callTool(call.tool, call.args, options)));
      expect(answers[1]?.target?.id).toBe(started.task_id);
    }
  });

  it("start_topic then continue_topic, on the portal toolset: the topic is created, reasoned under, found and continued", async () => {
    const workspace = "prompts/paste-records";
    const options = { path: PORTAL };
    const topic = "Which storage engine for the audit log?";
    const known: Record<string, string> = {};
    const start = callsOf(await promptText("start_topic", { workspace, topic }, options));
    for (const call of start) {
      const answer = payload(await callTool(call.tool, filled(call.args, known), options));
      if (call.args.op === "search") expect(answer.total).toBe(0);
      if (answer.record?.type === "question") {
        expect(answer.record.title).toBe(topic);
        known["question id"] = answer.record.id;
        known.session_id = answer.session_id;
      }
    }
    // An unfilled write is refused, so a pasted placeholder is never stored.
    const child = start.find((call) => call.args.args?.type === "hypothesis")!;
    expect(errorOf(await callTool(child.tool, child.args, options)).code).toBe("INVALID_INPUT");

    const rest: Record<string, string> = {};
    const continued = callsOf(await promptText("continue_topic", { workspace, topic: "storage engine" }, options));
    for (const call of continued) {
      const answer = payload(await callTool(call.tool, filled(call.args, rest), options));
      if (call.args.op === "search") {
        expect(answer.results[0]?.id).toBe(known["question id"]);
        rest["record id"] = answer.results[0].id;
      }
      if (call.args.op === "activate") rest.session_id = answer.session_id;
      if (call.args.op === "create") expect(answer.record.parent_id).toBe(known["question id"]);
    }
    expect(Object.keys(rest)).toHaveLength(2);
  });

  it("hand_off on ?toolset=full: note, lease, job and focus as the receiving agent then sees them", async () => {
    const workspace = "prompts/paste-handoff";
    const options = { path: FULL };
    const started = await ok("tasks_macro_start", { workspace, title: "Parser" });
    await ok("tasks_step_lease_claim", { workspace, step: "focus" });
    // A job queued earlier, for any agent: bob is still offered the one handed to him.
    await ok("jobs_create", { workspace, title: "Older work", prompt: "Anyone" }, await as("carol"));
    const calls = callsOf(await promptText("hand_off", { workspace, to_agent: "bob", task: started.task_id }, options));
    const answers: Record<string, any> = {};
    for (const call of calls) answers[call.tool] = payload(await callTool(call.tool, filled(call.args, {}), options));
    expect(answers.notes_commit.entry.meta).toEqual({ handoff_to: "bob" });
    expect(answers.tasks_step_lease_release.lease).toBeNull();
    expect(answers.tasks_focus_clear.previous).toBe(started.task_id);
    const bob = payload(await callTool("status", { workspace }, { path: PORTAL, ...(await as("bob")) }));
    expect(bob.capsule.why).toContain(`${answers.jobs_create.job.id} is queued for you: Handoff to bob`);
    expect(bob.capsule.next.backup.args).toMatchObject({ op: "claim", args: { job: answers.jobs_create.job.id } });
    const claimed = await ok("jobs_claim", { workspace, job: answers.jobs_create.job.id }, await as("bob"));
    expect(claimed.job).toMatchObject({ task: started.task_id, meta: { for_agent: "bob" } });
  });

  it("reasoning_pipeline on a locked URL: the seed, the linked cards, the next move", async () => {
    const options = { path: LOCKED };
    const question = "Should reads go through a cache?";
    const calls = callsOf(await promptText("reasoning_pipeline", { question }, options));
    const answers = [];
    for (const call of calls) answers.push(payload(await callTool(call.tool, filled(call.args, {}), options)));
    expect(answers[0]?.type).toBe("frame");
    const cards = answers[1]?.cards as { stage: string; card_id: string; supports: string[] }[];
    expect(cards.map((card) => card.stage)).toEqual(["frame", "hypothesis", "test"]);
    expect(cards[1]?.supports).toEqual([cards[0]?.card_id]);
    expect(answers[2]?.branch).toBe(answers[1]?.branch);
  });
});
