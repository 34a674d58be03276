/**
 * What the task board reads and how it reaches the server and moves between targets. The board is
 * drawn by the viewer and by the MCP App alike, so it knows neither `/api` nor the host: each gives
 * it a `Reader` (one read command, answered with the command's payload) and a `BoardNavigation`.
 */
import type { Child } from "../dom";

/** The read commands the board makes, and nothing else. */
export type BoardCommand = "tasks.context" | "tasks.resume_super" | "open" | "system.status";

/** Runs one read command with its own arguments and answers its payload, or throws. */
export type Reader = <T>(command: BoardCommand, args: Record<string, unknown>) => Promise<T>;

export interface ReasoningRef {
  branch: string;
  notes_doc: string;
  trace_doc: string;
  graph_doc: string;
}

/** How a person moves from the board to another plan or task, and to a branch's reasoning. */
export interface BoardNavigation {
  /** An element that opens a plan or task when clicked: a hash link in the viewer, a button in the app. */
  openLink(id: string, label: string): HTMLElement;
  /** Links to the reasoning trace and graph of a branch; none where the surface has no such views. */
  reasoningLinks(ref: ReasoningRef): Child[];
}

/** Runs a load a click started; a failure shows in `status`, next to the control, and the board stays. */
export type ClickGuard = (status: HTMLElement, load: () => Promise<void>) => Promise<void>;

export interface Entity {
  id: string;
  kind: "plan" | "task";
  title: string;
  status: string;
  plan_id?: string;
  priority?: string;
  revision?: number;
  /** A task in a list: the unfinished tasks it waits for (absent when none, and from older servers). */
  blocked_by?: string[];
  /** A task in a list: the agent that has taken it. */
  taken_by?: string;
}

export interface ContextPage {
  counts: { plans: number; tasks: number };
  plans: Entity[];
  tasks: Entity[];
  plans_pagination: { has_more: boolean; next_cursor?: string };
  tasks_pagination: { has_more: boolean; next_cursor?: string };
}

export interface Lease {
  holder: string;
  expires_tick: number;
  acquired_tick?: number;
}

export interface StepSummary {
  id: string;
  path: string;
  title: string;
  completed: boolean;
  blocked: boolean;
}

export interface StepDetail extends StepSummary {
  checkpoints: Record<string, boolean>;
  proof_modes?: Record<string, string>;
  success_criteria: string[];
  tests: string[];
  blockers: string[];
}

/** One step as `open STEP-…` gives it: the step and its live lease. */
export interface OpenedStep {
  step: StepDetail;
  lease: Lease | null;
  /** The checkpoints the step's close still needs, as the server's gate counts them (absent from older servers). */
  missing_proof?: string[];
}

/** A call an agent could make next, as the server suggests it. */
export interface SuggestedCall {
  tool: string;
  args?: unknown;
  purpose?: string;
}

/** A task another one waits for, as the resume view gives it (its title may be cut short). */
export interface Blocker {
  id: string;
  title: string;
  status: string;
  finished: boolean;
}

export interface Resume {
  target: Entity & { description?: string; contract?: string; tags?: string[] };
  /** What a task waits for; null for a plan (absent from older servers). */
  dependencies?: { blocked_by: Blocker[]; waiting: boolean };
  /** Who has taken the task and until which tick; null when nobody has (absent from older servers). */
  claim?: { holder: string; expires_tick: number };
  radar: { now: string; why: string; verify: string[]; next: string[]; blockers: string[] };
  steps: StepSummary[];
  timeline?: { events: { event_id: string; tick: number; ts_ms: number; type: string; path?: string }[] };
  capsule?: {
    where?: Record<string, unknown>;
    why?: string[];
    next?: { action?: SuggestedCall; backup?: SuggestedCall };
  };
  reasoning_ref?: ReasoningRef;
  /** The target's notes, newest first (the resume view's memory). */
  memory?: { notes: NoteEntry[] };
}

/** A note of the target's notes document, as the resume view shows it. */
export interface NoteEntry {
  seq: number;
  ts: string;
  agent_id: string;
  title?: string;
  content?: string;
}
