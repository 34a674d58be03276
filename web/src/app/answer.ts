/**
 * What the `visualize` tool answers (its `structuredContent`), which the host hands to the app: the
 * view (`tasks`, `graph` or `session`), the workspace, the caller and its role, the view's scope, a
 * summary in words, and for each read the view makes the tool call that runs it on this connection.
 * The graph view also gets the one write a person may make from the app (deciding a conflict), and
 * only when the caller's role allows writes.
 */
import type { BoardCommand } from "../tasks/types";

/** A call as the server suggests it: the tool, its arguments (with `budget_profile` where a command's own go), and why. */
export interface ReadSuggestion {
  tool: string;
  args: Record<string, unknown>;
  purpose: string;
}

export type Role = "read" | "write" | "admin";

export interface VisualizeTarget {
  id: string;
  kind: "plan" | "task";
  title: string;
  status: string;
  plan_id?: string;
}

interface AnswerBase {
  workspace: string;
  agent_id: string;
  role: Role;
  tick: number;
  summary: string;
}

export interface TasksAnswer extends AnswerBase {
  what: "tasks";
  /** The caller's scope: the target asked for, else its focus, else null. */
  target: VisualizeTarget | null;
  scope: "argument" | "focus" | "none";
  reads: Record<BoardCommand, ReadSuggestion>;
}

/** The reads the graph view makes. */
export type GraphCommand = "think.frontier.graph" | "graph.conflict.show" | "graph.node.show";
/** The one write the graph view makes, offered only to a role that may write. */
export type GraphWrite = "graph.conflict.resolve";

export interface GraphAnswer extends AnswerBase {
  what: "graph";
  graph: { branch: string; graph_doc: string; target?: string };
  reads: Record<GraphCommand, ReadSuggestion>;
  /** Absent for a read grant: the app then shows conflicts without the buttons. */
  writes?: Partial<Record<GraphWrite, ReadSuggestion>>;
}

/** The reads the session view makes. */
export type SessionCommand = "records.list" | "records.activity" | "records.sessions";

export interface ActiveRecord {
  id: string;
  type: string;
  title: string;
  state: string;
}

export interface SessionFacts {
  session_id: string;
  agent_id: string;
  status: "active" | "stale" | "closed";
  last_sync_tick: number;
  tick_gap: number;
  project_tick: number;
  /** The first active records, with their titles. */
  active_records: ActiveRecord[];
  /** Every active record's id (up to the session's cap): the tree marks these. */
  active_record_ids: string[];
  active_records_total: number;
  /** Records changed by other sessions since this one's last sync (counted up to a cap). */
  changed_by_others: number;
  changed_by_others_capped: boolean;
}

export interface SessionAnswer extends AnswerBase {
  what: "session";
  /** The session shown: the one asked for, else the caller's most recent open one; null when it has none. */
  session: SessionFacts | null;
  reads: Record<SessionCommand, ReadSuggestion>;
}

export type VisualizeAnswer = TasksAnswer | GraphAnswer | SessionAnswer;

export const BOARD_COMMANDS: readonly BoardCommand[] = ["tasks.context", "tasks.resume_super", "open", "system.status"];
export const GRAPH_COMMANDS: readonly GraphCommand[] = ["think.frontier.graph", "graph.conflict.show", "graph.node.show"];
export const SESSION_COMMANDS: readonly SessionCommand[] = ["records.list", "records.activity", "records.sessions"];

const COMMANDS_OF = { tasks: BOARD_COMMANDS, graph: GRAPH_COMMANDS, session: SESSION_COMMANDS } as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isReadSuggestion(value: unknown): value is ReadSuggestion {
  return isRecord(value) && typeof value.tool === "string" && value.tool !== "" && (value.args === undefined || isRecord(value.args));
}

/**
 * The answer when it has what its view needs (a known view, a workspace, a call for every read), or a
 * sentence saying what is missing.
 */
export function visualizeAnswer(content: unknown): VisualizeAnswer | string {
  if (!isRecord(content)) return "The host passed no answer to draw.";
  const what = content.what;
  if (what !== "tasks" && what !== "graph" && what !== "session") return `This app does not draw the view "${String(what)}".`;
  if (typeof content.workspace !== "string" || typeof content.agent_id !== "string") return "The answer names no workspace or agent.";
  const reads = content.reads;
  if (!isRecord(reads)) return "The answer lists no reads.";
  const missing = COMMANDS_OF[what].filter((command) => !isReadSuggestion(reads[command]));
  if (missing.length > 0) return `The answer has no usable call for: ${missing.join(", ")}.`;
  if (what === "graph" && !isRecord(content.graph)) return "The answer names no graph to draw.";
  return content as unknown as VisualizeAnswer;
}

/** The call that decides a conflict, when the answer offers it (a role that may write). */
export function conflictDecision(answer: GraphAnswer): ReadSuggestion | undefined {
  if (answer.role === "read") return undefined;
  const write = answer.writes?.["graph.conflict.resolve"];
  return isReadSuggestion(write) ? write : undefined;
}
