/**
 * The suggestion crawler: reads a workspace state as an agent would, on one connection (a toolset, a
 * URL with or without the workspace lock, a token), from every place the server suggests calls, and
 * collects each suggested call. Then it checks each one as pasted: the tool is listed on that
 * connection, its arguments pass the published JSON Schemas once the `<fill: …>` markers are filled,
 * and calling it succeeds.
 */
import { type Schema, Validator } from "@cfworker/json-schema";
import { findCommand } from "../../src/catalog/catalog";
import { argsSchemaOf } from "../../src/catalog/command-facts";
import { CALL_OP, findPortal, placeOf } from "../../src/catalog/portals";
import type { Command } from "../../src/commands/registry";
import { as, callTool, type RpcOptions, rpc } from "../helpers/mcp";
import { fillIn, type SuggestedCall } from "../helpers/suggestions";

export type Toolset = "portals" | "core" | "daily" | "full";

export interface Connection {
  toolset: Toolset;
  locked: boolean;
  agent: string;
  role: "read" | "write";
  /** A budget for every read the crawler makes (the smallest one). */
  maxChars?: number;
}

export function connectionLabel(c: Connection): string {
  return `${c.toolset}${c.locked ? "@/w" : "@/mcp"} ${c.agent}${c.role === "read" ? " (read)" : ""}${c.maxChars ? ` max_chars=${c.maxChars}` : ""}`;
}

const tokens = new Map<string, Promise<RpcOptions>>();

export async function optionsOf(c: Connection, workspace: string): Promise<RpcOptions> {
  const base = c.locked ? `/w/${workspace}/mcp` : "/mcp";
  const key = `${c.agent} ${c.role}`;
  let token = tokens.get(key);
  if (!token) {
    token = as(c.agent, { role: c.role });
    tokens.set(key, token);
  }
  return { path: `${base}?toolset=${c.toolset}`, ...(await token) };
}

const listed = new Map<Toolset, Map<string, Record<string, unknown>>>();

/** The tools a toolset lists, with their input schemas (from tools/list, as a client sees them). */
export async function toolsOf(toolset: Toolset): Promise<Map<string, Record<string, unknown>>> {
  let tools = listed.get(toolset);
  if (!tools) {
    const response = await rpc("tools/list", {}, { path: `/mcp?toolset=${toolset}` });
    const message = (await response.json()) as { result: { tools: { name: string; inputSchema: Record<string, unknown> }[] } };
    tools = new Map(message.result.tools.map((tool) => [tool.name, tool.inputSchema]));
    listed.set(toolset, tools);
  }
  return tools;
}

/**
 * A place the server answers with suggestions: the same read in the portal form and the flat form.
 * A probe is a bad call whose error carries actions; its answer does not depend on the state, so the
 * crawler sends the probes in the first state only.
 */
interface Source {
  label: string;
  portal: SuggestedCall;
  flat: SuggestedCall;
  read: boolean;
}

/** The labels of the bad calls every crawl of the first state sends (each must yield actions somewhere). */
export function probeLabels(): string[] {
  return sources(undefined)
    .filter((source) => !source.read)
    .map((source) => source.label);
}

function sources(ref: string | undefined): Source[] {
  const read = (label: string, portal: SuggestedCall, flat: SuggestedCall): Source => ({ label, portal, flat, read: true });
  const probe = (label: string, portal: SuggestedCall, flat: SuggestedCall): Source => ({ label, portal, flat, read: false });
  return [
    read("status", { tool: "status", args: {} }, { tool: "status", args: {} }),
    ...(ref ? [read("open", { tool: "open", args: { id: ref } }, { tool: "open", args: { id: ref } })] : []),
    read("snapshot", { tool: "tasks", args: { op: "snapshot" } }, { tool: "tasks_snapshot", args: {} }),
    read("resume", { tool: "tasks", args: { op: CALL_OP, cmd: "tasks.resume_super" } }, { tool: "tasks_resume_super", args: {} }),
    read("execute.next", { tool: "tasks", args: { op: "execute.next" } }, { tool: "tasks_execute_next", args: {} }),
    read("think_next", { tool: "think", args: { op: "next" } }, { tool: "think_next", args: {} }),
    read("think_frontier", { tool: "think", args: { op: CALL_OP, cmd: "think.frontier" } }, { tool: "think_frontier", args: {} }),
    read("think_watch", { tool: "think", args: { op: CALL_OP, cmd: "think.watch" } }, { tool: "think_watch", args: {} }),
    read("context_pack", { tool: "think", args: { op: "pack" } }, { tool: "context_pack", args: {} }),
    read("help", { tool: "system", args: { op: "help" } }, { tool: "help", args: {} }),
    read("records overview", { tool: "records", args: { op: "overview" } }, { tool: "get_project_overview", args: {} }),
    // Bad calls whose errors carry actions.
    probe(
      "UNKNOWN_CMD",
      { tool: "system", args: { op: CALL_OP, cmd: "notes_comit" } },
      { tool: "schema_get", args: { cmd: "notes_comit" } },
    ),
    probe("UNKNOWN_OP", { tool: "tasks", args: { op: "notes_commit" } }, { tool: "schema_get", args: { cmd: "tasks.snapshot" } }),
    probe("INVALID_INPUT", { tool: "tasks", args: { op: "plan.create", args: {} } }, { tool: "tasks_create", args: {} }),
    // Bad calls of one command: the portal toolset sends them through the command's portal.
    ...[
      { code: "UNKNOWN_ID (task)", tool: "tasks_radar", args: { task: "TASK-999" } },
      { code: "UNKNOWN_ID (job)", tool: "jobs_open", args: { job: "JOB-999" } },
      { code: "UNKNOWN_ID (node)", tool: "graph_node_show", args: { id: "NOPE" } },
      { code: "RECORD_NOT_FOUND", tool: "activate", args: { id: "R999" } },
    ].map((flat) => probe(flat.code, viaPortal(flat), flat)),
  ];
}

/** A suggestion as found: where, and for a golden path the whole path (it is followed in order). */
export interface Found {
  source: string;
  path: string;
  calls: SuggestedCall[];
}

function isCall(value: unknown): value is SuggestedCall {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return typeof record.tool === "string" && record.args !== null && typeof record.args === "object" && !Array.isArray(record.args);
}

/** Every suggested call in an answer; a golden path is one item (its calls build on each other). */
export function harvest(source: string, value: unknown, path = ""): Found[] {
  if (isCall(value)) return [{ source, path, calls: [value] }];
  if (Array.isArray(value)) {
    if (path.endsWith("golden_path") && value.every(isCall)) return [{ source, path, calls: value }];
    return value.flatMap((item, index) => harvest(source, item, `${path}.${index}`));
  }
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([key, item]) => harvest(source, item, path ? `${path}.${key}` : key));
  }
  return [];
}

/**
 * A word shaped like a flat tool name with an underscore (`tasks_create`; plain words like `status` are
 * left alone), not inside a dotted command name (`think.context_pack`) and not a value in double quotes
 * (an op echoed back: `no op "notes_commit"`).
 */
const TOOL_WORD = /(?<![\w.\-/"])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w\-/"])/g;

/**
 * Keys whose values are not prose: `meta` is what a writer stored, `details` an error's machine-readable
 * facts (the name it echoes among them), `command` the recorded name of the command that wrote an event.
 */
const NOT_PROSE = new Set(["meta", "details", "command"]);

/** Where an answer's prose names a flat tool: the path of the text and the name. */
export interface ProseMention {
  source: string;
  path: string;
  tool: string;
  text: string;
}

/**
 * Every flat tool an answer's prose names, outside suggested calls (checked as calls) and the keys that
 * hold no prose. A name counts when it is a command's flat tool, whatever the connection lists.
 */
export function proseMentions(source: string, value: unknown, path = ""): ProseMention[] {
  if (typeof value === "string") {
    const names = [...value.matchAll(TOOL_WORD)].map((match) => match[0]).filter((word) => findCommand(word)?.tool === word);
    return [...new Set(names)].map((tool) => ({ source, path, tool, text: value }));
  }
  if (isCall(value)) {
    const purpose = (value as { purpose?: unknown }).purpose;
    return purpose === undefined ? [] : proseMentions(source, purpose, `${path}.purpose`);
  }
  if (Array.isArray(value)) return value.flatMap((item, index) => proseMentions(source, item, `${path}.${index}`));
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([key, item]) =>
      NOT_PROSE.has(key) ? [] : proseMentions(source, item, path ? `${path}.${key}` : key),
    );
  }
  return [];
}

/** A flat call as the portal toolset sends it: through the command's portal, `op: "call"`. */
function viaPortal(call: SuggestedCall): SuggestedCall {
  const command = findCommand(call.tool) as Command;
  return { tool: placeOf(command).portal.name, args: { op: CALL_OP, cmd: command.name, args: call.args } };
}

export interface StateProbe {
  code: string;
  tool: string;
  args: Record<string, unknown>;
}

/**
 * Reads every source of a state on one connection and returns the suggestions its answers carry; the
 * flat tools their prose names are added to `prose`.
 */
export async function crawl(
  c: Connection,
  workspace: string,
  ref: string | undefined,
  probes: boolean,
  stateProbes: readonly StateProbe[] = [],
  prose: ProseMention[] = [],
): Promise<Found[]> {
  const options = await optionsOf(c, workspace);
  const found: Found[] = [];
  const own = stateProbes.map((probe): Source => ({ label: probe.code, portal: viaPortal(probe), flat: probe, read: false }));
  for (const source of [...sources(ref).filter((candidate) => probes || candidate.read), ...own]) {
    const call = c.toolset === "portals" ? source.portal : source.flat;
    const args: Record<string, unknown> = { ...call.args };
    if (!c.locked) args.workspace = workspace;
    if (c.maxChars !== undefined && source.read) {
      if (c.toolset === "portals") args.args = { ...(args.args as Record<string, unknown> | undefined), max_chars: c.maxChars };
      else args.max_chars = c.maxChars;
    }
    const result = await callTool(call.tool, args, options);
    found.push(...harvest(source.label, result.structuredContent));
    // Prose answers a call the connection lists (a flat probe on a toolset without it is the crawler's own).
    if ((await toolsOf(c.toolset)).has(call.tool)) prose.push(...proseMentions(source.label, result.structuredContent));
  }
  return found;
}

/** The command a suggested call runs, and its own arguments (portal envelopes unwrapped). */
export function commandOf(call: SuggestedCall): { command: Command | undefined; args: Record<string, unknown> } {
  const portal = findPortal(call.tool);
  const direct = findCommand(call.tool);
  // An envelope: a portal's, or status/open's as portals (the portal toolset) when it names an op.
  if (portal && (!direct || typeof call.args.op === "string")) {
    const op = (call.args.op as string | undefined) ?? portal.defaultOp;
    const name = op === CALL_OP ? (call.args.cmd as string) : op === undefined ? undefined : portal.ops[op];
    return { command: name === undefined ? undefined : findCommand(name), args: (call.args.args as Record<string, unknown>) ?? {} };
  }
  if (portal && direct && call.args.args !== undefined) return { command: direct, args: call.args.args as Record<string, unknown> };
  const { workspace: _workspace, ...args } = call.args;
  return { command: direct, args };
}

function schemaErrors(schema: Record<string, unknown>, value: unknown): string[] {
  const verdict = new Validator(schema as Schema, "2020-12", false).validate(value);
  return verdict.errors.map((error) => `${error.instanceLocation}: ${error.error}`);
}

/** What is wrong with a suggestion before it is called (empty: nothing): unlisted tool, or arguments the schemas refuse. */
export async function staticProblems(c: Connection, call: SuggestedCall): Promise<string[]> {
  const tools = await toolsOf(c.toolset);
  const inputSchema = tools.get(call.tool);
  if (!inputSchema) return [`${call.tool} is not listed on toolset ${c.toolset}`];
  const filled = fillIn(call.args);
  const problems = schemaErrors(inputSchema, filled).map((problem) => `${call.tool} inputSchema: ${problem}`);
  const { command, args } = commandOf({ tool: call.tool, args: filled });
  if (!command) return [...problems, `${call.tool} runs no known command`];
  problems.push(...schemaErrors(argsSchemaOf(command), args).map((problem) => `${command.name} args schema: ${problem}`));
  if (!c.locked && command.scope === "workspace" && !("project_id" in args)) {
    const named = call.args.workspace ?? (call.args.args as Record<string, unknown> | undefined)?.workspace;
    if (typeof named !== "string") problems.push(`${command.name} suggested without its workspace on /mcp`);
  }
  return problems;
}

/** Whether any call of a found suggestion writes (then it runs on a fresh copy of the state). */
export function writes(found: Found): boolean {
  return found.calls.some((call) => commandOf(call).command?.kind !== "read");
}

/** The call with the workspace renamed (a copy of the state), nothing else changed. */
export function renamed(call: SuggestedCall, from: string, to: string): SuggestedCall {
  const swap = (args: Record<string, unknown>): Record<string, unknown> => (args.workspace === from ? { ...args, workspace: to } : args);
  const args = swap(call.args);
  if (args.args !== null && typeof args.args === "object" && !Array.isArray(args.args)) {
    return { ...call, args: { ...args, args: swap(args.args as Record<string, unknown>) } };
  }
  return { ...call, args };
}
