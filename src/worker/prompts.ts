/**
 * MCP prompts for the golden paths (issue 26, item 2; docs/prompts.md): `prompts/list` and
 * `prompts/get`. What each prompt says is catalog/prompt-texts.ts's; this module owns the rest:
 *
 * - checking a `prompts/get`'s arguments (untrusted: required ones present, no unknown names, each a
 *   bounded single line), refusing with InvalidParams (-32602) as the spec asks;
 * - resolving the workspace the calls act in exactly as a tool call would (the URL's lock, the
 *   argument, the token's only workspace), so a prompt never suggests a call the connection refuses;
 * - rendering every call like any suggestion the server makes (catalog/suggestions.ts): the tool the
 *   connection lists in its call form, `workspace` unless the URL locks it, only calls the caller's
 *   role may make. A prompt's calls are therefore pasteable as given, as `call <tool> <JSON args>`.
 *
 * The list is the same for every caller of a URL (mcp.ts caches it publicly): it reads no session.
 */
import { type GetPromptResult, type Prompt, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { findCommand } from "../catalog/catalog";
import { PROMPT_DEFINITIONS, type PromptArgs, type PromptDefinition } from "../catalog/prompt-texts";
import { renderSuggestions } from "../catalog/suggestions";
import type { RenderedSuggestion } from "../shared/suggestion";
import type { CallSession } from "./call-command";
import { renderContextOf } from "./call-command";
import { resolveWorkspace } from "./workspace-resolution";

/**
 * Longest argument value: a workspace name is at most 128 characters, ids far less, and a topic or a
 * question is one line. Anything longer is a paste, not an argument, and would swell every call.
 */
export const MAX_PROMPT_ARGUMENT_CHARS = 256;
/** What a prompt's text aims to stay under with ordinary arguments (tests hold it to it): a prompt is read whole. */
export const PROMPT_TEXT_BUDGET_CHARS = 1500;
/** How a ready call starts its line: the agent (and the tests) find the calls by it. */
export const CALL_LINE_PREFIX = "call ";

// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to reject control characters.
const CONTROL_CHARACTERS = /[\x00-\x1f\x7f]/;

/** Placeholder values for the module-load check below: every argument set, so every step is built. */
function sampleArgs(definition: PromptDefinition): PromptArgs {
  return Object.fromEntries(definition.arguments.map((argument) => [argument.name, `sample-${argument.name}`]));
}

// Every command a prompt names must exist: the renderer would silently drop an unknown one, leaving a
// prompt short of a step. Checked once when the module loads, with every argument given and without.
for (const definition of PROMPT_DEFINITIONS) {
  const required = Object.fromEntries(
    definition.arguments.filter((argument) => argument.required).map((argument) => [argument.name, "sample"]),
  );
  for (const args of [sampleArgs(definition), required]) {
    for (const step of definition.steps(args)) {
      if (findCommand(step.call.tool) === undefined) throw new Error(`prompt ${definition.name} names unknown command ${step.call.tool}`);
    }
  }
}

export function listPrompts(): Prompt[] {
  return PROMPT_DEFINITIONS.map(({ name, title, description, arguments: promptArguments }) => ({
    name,
    title,
    description,
    arguments: promptArguments.map((argument) => ({ ...argument })),
  }));
}

function invalid(message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message);
}

/** The arguments checked: required ones present, known names only, each a bounded single line. Empty counts as absent. */
function checkedArgs(definition: PromptDefinition, raw: Readonly<Record<string, unknown>>): PromptArgs {
  const known = definition.arguments.map((argument) => argument.name);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (!known.includes(name)) {
      throw invalid(`Prompt ${definition.name} has no argument "${name.slice(0, 64)}"; it takes: ${known.join(", ")}.`);
    }
    if (typeof value !== "string") throw invalid(`Prompt argument ${name} must be a string.`);
    const trimmed = value.trim();
    if (trimmed.length > MAX_PROMPT_ARGUMENT_CHARS) {
      throw invalid(`Prompt argument ${name} is ${trimmed.length} characters long; at most ${MAX_PROMPT_ARGUMENT_CHARS}.`);
    }
    if (CONTROL_CHARACTERS.test(trimmed)) throw invalid(`Prompt argument ${name} must be one line without control characters.`);
    if (trimmed !== "") out[name] = trimmed;
  }
  for (const argument of definition.arguments) {
    if (argument.required && out[argument.name] === undefined) {
      throw invalid(`Prompt ${definition.name} needs the argument ${argument.name}: ${argument.description ?? ""}`.trim());
    }
  }
  return out;
}

/** The workspace the calls act in (null: none named, the calls say `<fill: workspace>`), and how the text names it. */
function workspaceOf(session: CallSession, args: PromptArgs): { workspace: string | null; where: string } {
  const resolution = resolveWorkspace(session.principal, session.lock, args.workspace);
  if (resolution.ok) {
    const where = session.lock === undefined ? JSON.stringify(resolution.workspace) : "the workspace this URL names";
    return { workspace: resolution.workspace, where };
  }
  // A workspace named but refused (not granted, ill-formed, not the URL's): the calls would fail too.
  if (args.workspace !== undefined || session.lock !== undefined) throw invalid(`workspace: ${resolution.error.message}`);
  return { workspace: null, where: "your workspace (none named: fill it in each call)" };
}

function callLine(call: RenderedSuggestion): string {
  return `${CALL_LINE_PREFIX}${call.tool} ${JSON.stringify(call.args)}`;
}

export function getPrompt(name: string, rawArgs: Record<string, string>, session: CallSession): GetPromptResult {
  const definition = PROMPT_DEFINITIONS.find((candidate) => candidate.name === name);
  if (definition === undefined) {
    throw invalid(`Unknown prompt "${name.slice(0, 64)}"; prompts: ${PROMPT_DEFINITIONS.map((prompt) => prompt.name).join(", ")}.`);
  }
  const args = checkedArgs(definition, rawArgs);
  const { workspace, where } = workspaceOf(session, args);
  const context = renderContextOf(session, workspace);
  const lines = [`${definition.intro(args, where)} Make these calls in order; each is ready to paste (tool, then its arguments).`];
  let left = 0;
  let number = 0;
  for (const step of definition.steps(args)) {
    // A list drops what the connection cannot call (its toolset, the caller's role) instead of replacing it.
    const [call] = renderSuggestions([step.call], context);
    if (call === undefined) {
      left += 1;
      continue;
    }
    number += 1;
    lines.push(`${number}. ${call.purpose}${step.when === undefined ? "" : ` (${step.when})`}:`, callLine(call));
  }
  if (left > 0) lines.push(`${left} step(s) left out: this connection's toolset or your role cannot make them.`);
  const outro = definition.outro(args);
  if (outro !== "") lines.push(outro);
  lines.push("<fill: …> is yours to choose; writes refuse it unfilled.");
  return {
    description: definition.description,
    messages: [{ role: "user", content: { type: "text", text: lines.join("\n") } }],
  };
}
