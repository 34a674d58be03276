/**
 * What a task waits for and who has taken it, as every read that shows a task shows it (docs/tasks.md
 * "Dependencies, taking a task and the ready queue"): the radar's "waits for" line, the resume views'
 * (and so `open`'s) `dependencies` and `claim`, and the marks of `tasks_context`'s items. Read-only and
 * bounded: a task waits for at most MAX_BLOCKERS tasks, and a resume view cuts their titles short.
 */
import { z } from "zod";
import type { EntityRow } from "../../place/targets.store";
import { clip } from "../../shared/text";
import type { Db } from "../../storage/db";
import { type Blocker, blockersOf, claimOf } from "./readiness.store";
import { holdersOfTasks, openBlockersOfTasks } from "./task-marks.store";

/** A blocker's title in a resume view: enough to recognize it; `open` of its id reads it whole. */
const MAX_BLOCKER_TITLE_CHARS = 60;

export const dependenciesViewSchema = z
  .object({
    blocked_by: z
      .array(z.object({ id: z.string(), title: z.string(), status: z.string(), finished: z.boolean() }))
      .describe("Every task it waits for, finished or not, in id order (titles cut to 60 characters)."),
    waiting: z.boolean().describe("True while one of them is neither DONE nor CANCELED."),
  })
  .optional()
  .describe("What the task waits for (tasks_dependency_add); given when it waits, or waited, for any task.");

export const claimViewSchema = z
  .object({ holder: z.string(), expires_tick: z.number() })
  .optional()
  .describe("Who has taken the task (tasks_take) and until which tick; given while someone has.");

/** Unfinished blockers the "waits for" line names at most; it counts the rest. */
const MAX_NAMED_BLOCKERS = 10;

/** A blocker as every line that names one writes it: `TASK-001 (ACTIVE)`. */
export function blockerLabel(blocker: Pick<Blocker, "id" | "status">): string {
  return `${blocker.id} (${blocker.status})`;
}

/**
 * The unfinished ones of `blockers`, as "waits for TASK-001 (ACTIVE), TASK-002 (TODO)" (the first
 * MAX_NAMED_BLOCKERS, then "and N more"); undefined when none is.
 */
export function waitsForLine(blockers: readonly Blocker[]): string | undefined {
  const open = blockers.filter((blocker) => !blocker.finished);
  if (open.length === 0) return undefined;
  const named = open.slice(0, MAX_NAMED_BLOCKERS).map(blockerLabel);
  const more = open.length - named.length;
  return `waits for ${named.join(", ")}${more > 0 ? `, and ${more} more` : ""}`;
}

/**
 * A resume view's `dependencies` and `claim`, each only when there is something to say (a task with
 * blockers, a taken task), so that a view of a task with neither costs its budget nothing.
 */
export function dependencyFields(
  db: Db,
  entity: EntityRow,
): { dependencies?: NonNullable<z.infer<typeof dependenciesViewSchema>>; claim?: NonNullable<z.infer<typeof claimViewSchema>> } {
  if (entity.kind !== "task") return {};
  const blockers = blockersOf(db, entity.id).map((blocker) => ({ ...blocker, title: clip(blocker.title, MAX_BLOCKER_TITLE_CHARS) }));
  const claim = claimOf(db, entity.id);
  return {
    ...(blockers.length === 0 ? {} : { dependencies: { blocked_by: blockers, waiting: blockers.some((blocker) => !blocker.finished) } }),
    ...(claim === undefined ? {} : { claim: { holder: claim.holder, expires_tick: claim.expires_tick } }),
  };
}

/** What a list item of a task adds: its unfinished blockers' ids, when it has any, and its holder, when taken. */
export interface TaskMarks {
  blocked_by?: string[];
  taken_by?: string;
}

/** The marks of a page of tasks, two statements for the whole page (task-marks.store.ts). */
export function taskMarks(db: Db, taskIds: readonly string[]): Map<string, TaskMarks> {
  const waiting = openBlockersOfTasks(db, taskIds);
  const holders = holdersOfTasks(db, taskIds);
  const marks = new Map<string, TaskMarks>();
  for (const id of taskIds) {
    const blockedBy = waiting.get(id);
    const holder = holders.get(id);
    if (blockedBy === undefined && holder === undefined) continue;
    marks.set(id, { ...(blockedBy === undefined ? {} : { blocked_by: blockedBy }), ...(holder === undefined ? {} : { taken_by: holder }) });
  }
  return marks;
}
