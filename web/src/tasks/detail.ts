/**
 * One plan or task on the board (`task-detail`): where it sits (its plan, and a plan's tasks), what a
 * task waits for and who has taken it, its radar and capsule, its steps with checkpoints, missing
 * proof and leases, its recent notes and task events.
 * It reads `tasks.resume_super`, `system.status` (the tick now) and `open` for each step.
 */
import { badge, type Child, el, table } from "../dom";
import { time } from "../format";
import { capsuleSection, radarSection } from "./capsule";
import { entityItem, statusBadge } from "./entities";
import { readStepDetails, stepsTable } from "./steps";
import type { Blocker, BoardNavigation, Entity, Reader, Resume } from "./types";

export interface DetailSources {
  read: Reader;
  navigation: BoardNavigation;
  /** The plans and tasks the board has listed so far: a plan's title, a plan's tasks. */
  entities: Entity[];
}

/** Where the target sits: its plan (a link), and the target's place among that plan's listed tasks. */
function placeLine(sources: DetailSources, target: Resume["target"]): HTMLElement | null {
  if (target.kind !== "task" || !target.plan_id) return null;
  const plan = sources.entities.find((entity) => entity.id === target.plan_id);
  const siblings = sources.entities.filter((entity) => entity.kind === "task" && entity.plan_id === target.plan_id);
  const position = siblings.findIndex((entity) => entity.id === target.id);
  return el(
    "p",
    { class: "board-place", testid: "board-place" },
    "Plan ",
    sources.navigation.openLink(target.plan_id, plan ? `${plan.id} ${plan.title}` : target.plan_id),
    ` › task ${target.id}`,
    position >= 0 ? el("span", { class: "muted" }, ` (${position + 1} of ${siblings.length} listed tasks of this plan)`) : null,
  );
}

function headerLine(sources: DetailSources, resume: Resume): HTMLElement {
  const { target } = resume;
  const reasoning: Child[] = resume.reasoning_ref ? sources.navigation.reasoningLinks(resume.reasoning_ref) : [];
  return el(
    "p",
    {},
    badge(target.kind),
    " ",
    statusBadge(target.status),
    " ",
    target.priority ? badge(target.priority) : null,
    reasoning.length > 0 ? el("span", { class: "muted" }, " · reasoning: ", ...reasoning) : null,
  );
}

/** A blocker as a link to it, with its status. */
function blockerItem(sources: DetailSources, blocker: Blocker): Child[] {
  return [sources.navigation.openLink(blocker.id, `${blocker.id} ${blocker.title}`), ` (${blocker.status})`];
}

/**
 * What a task waits for (`waits-for`): its unfinished blockers, each a link with its status; once
 * every one is finished, that it waits for nothing now. Absent when it waits for no task.
 */
function waitsFor(sources: DetailSources, resume: Resume): HTMLElement | null {
  const blockers = resume.dependencies?.blocked_by ?? [];
  if (blockers.length === 0) return null;
  const open = blockers.filter((blocker) => !blocker.finished);
  if (open.length === 0) {
    const finished = blockers.map((blocker) => `${blocker.id} (${blocker.status})`).join(", ");
    return el("p", { class: "waits-for", testid: "waits-for" }, "Waits for: nothing now ", el("span", { class: "muted" }, `(${finished})`));
  }
  const items = open.flatMap((blocker, index) => [...(index > 0 ? [", "] : []), ...blockerItem(sources, blocker)]);
  return el("p", { class: "waits-for waiting", testid: "waits-for" }, "Waits for: ", ...items);
}

/** Who has taken the task (`taken-by`), on the tick clock; absent when nobody has. */
function takenBy(resume: Resume): HTMLElement | null {
  const claim = resume.claim;
  if (!claim) return null;
  return el("p", { class: "taken-by", testid: "taken-by" }, `Taken by ${claim.holder} until tick ${claim.expires_tick}`);
}

function planTasks(sources: DetailSources, target: Resume["target"]): HTMLElement | null {
  if (target.kind !== "plan") return null;
  const tasks = sources.entities.filter((entity) => entity.kind === "task" && entity.plan_id === target.id);
  return el(
    "section",
    { class: "plan-tasks", testid: "plan-tasks" },
    el("h4", {}, `Tasks of ${target.id} (${tasks.length})`),
    tasks.length > 0
      ? el("ul", { class: "entity-list" }, ...tasks.map((entity) => entityItem(sources.navigation, entity, undefined)))
      : el("p", { class: "muted" }, "No tasks listed for this plan."),
  );
}

function recentEvents(resume: Resume): HTMLElement | null {
  const events = resume.timeline?.events ?? [];
  if (events.length === 0) return null;
  return el(
    "details",
    { attrs: { open: "" } },
    el("summary", {}, `Recent events (${events.length})`),
    table(
      ["Tick", "Event", "Step", "Time"],
      [...events].reverse().map((event) => [String(event.tick), event.type.replace(/_/g, " "), event.path ?? "", time(event.ts_ms)]),
    ),
  );
}

/** Longest note text shown in the table: a note is read whole with `open <doc>@<seq>`. */
const MAX_NOTE_CHARS = 300;

/** The target's recent notes, newest first, as text (what agents wrote is never markup). */
function recentNotes(resume: Resume): HTMLElement | null {
  const notes = resume.memory?.notes ?? [];
  if (notes.length === 0) return null;
  const shown = (text: string) => (text.length > MAX_NOTE_CHARS ? `${text.slice(0, MAX_NOTE_CHARS - 1)}…` : text);
  return el(
    "section",
    { class: "notes", testid: "notes" },
    el("h4", {}, `Recent notes (${notes.length})`),
    table(
      ["Seq", "By", "Note", "Time"],
      notes.map((note) => [String(note.seq), note.agent_id, shown([note.title, note.content].filter(Boolean).join(" — ")), time(note.ts)]),
    ),
  );
}

/** Reads plan or task `id` and draws it; answers the drawing, which the caller puts in place. */
export async function renderDetail(sources: DetailSources, id: string): Promise<HTMLElement> {
  const [resume, status] = await Promise.all([
    sources.read<Resume>("tasks.resume_super", { target: id, view: "full" }),
    sources.read<{ tick: number }>("system.status", {}),
  ]);
  const details = await readStepDetails(sources.read, resume.steps);
  const { target } = resume;
  return el(
    "article",
    { testid: "task-detail", data: { id: target.id } },
    placeLine(sources, target),
    el("h3", {}, `${target.id}: ${target.title}`),
    headerLine(sources, resume),
    waitsFor(sources, resume),
    takenBy(resume),
    planTasks(sources, target),
    radarSection(resume.radar),
    resume.capsule ? capsuleSection(resume.capsule) : null,
    el("h4", {}, `Steps (${resume.steps.length})`),
    resume.steps.length === 0
      ? el("p", { class: "muted" }, target.kind === "plan" ? "Plans have tasks, not steps." : "No steps.")
      : stepsTable(resume.steps, details, status.tick),
    el("p", { class: "muted" }, `Workspace tick now: ${status.tick}. Leases expire on this tick clock, not on wall time.`),
    recentNotes(resume),
    recentEvents(resume),
  );
}
