/**
 * What the `visualize` tool answers (its `structuredContent`), which the host hands to the app: the
 * workspace, the caller and its role, the plan or task to open on, a summary in words, and for each
 * read the board makes the tool call that runs it on this connection.
 */
import type { BoardCommand } from "../tasks/types";

/** A read as the server suggests it: the tool, its arguments (with `budget_profile` where a command's own go), and why. */
export interface ReadSuggestion {
  tool: string;
  args: Record<string, unknown>;
  purpose: string;
}

export interface VisualizeTarget {
  id: string;
  kind: "plan" | "task";
  title: string;
  status: string;
  plan_id?: string;
}

export interface VisualizeAnswer {
  what: "tasks";
  workspace: string;
  agent_id: string;
  role: "read" | "write" | "admin";
  tick: number;
  /** The caller's scope: the target asked for, else its focus, else null. */
  target: VisualizeTarget | null;
  scope: "argument" | "focus" | "none";
  summary: string;
  reads: Record<BoardCommand, ReadSuggestion>;
}

export const BOARD_COMMANDS: readonly BoardCommand[] = ["tasks.context", "tasks.resume_super", "open", "system.status"];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isReadSuggestion(value: unknown): value is ReadSuggestion {
  return isRecord(value) && typeof value.tool === "string" && value.tool !== "" && (value.args === undefined || isRecord(value.args));
}

/**
 * The answer when it has what the board needs (a tasks view, a workspace, a call for every read), or
 * a sentence saying what is missing.
 */
export function visualizeAnswer(content: unknown): VisualizeAnswer | string {
  if (!isRecord(content)) return "The host passed no answer to draw.";
  if (content.what !== "tasks") return `This app does not draw the view "${String(content.what)}" yet.`;
  if (typeof content.workspace !== "string" || typeof content.agent_id !== "string") return "The answer names no workspace or agent.";
  const reads = content.reads;
  if (!isRecord(reads)) return "The answer lists no reads.";
  const missing = BOARD_COMMANDS.filter((command) => !isReadSuggestion(reads[command]));
  if (missing.length > 0) return `The answer has no usable call for: ${missing.join(", ")}.`;
  return content as unknown as VisualizeAnswer;
}
