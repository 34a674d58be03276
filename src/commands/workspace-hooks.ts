/**
 * What capabilities register with the workspace executor besides their commands, so that the executor
 * (src/hosts/workspace/execute.ts) and the workspace object know no capability: the guards every write
 * meets, the portal capsule, the domain counts of the summary pushed to the Directory, the stores'
 * cleaners of a deleted branch's rows, and the work a migration leaves for after the object starts. The
 * catalog (src/catalog/catalog.ts) assembles one `WorkspaceHooks`.
 */
import type { WorkspaceSummary } from "../shared/workspace-summary";
import type { Db, SqlValue } from "../storage/db";
import type { CommandContext } from "./context";
import type { WorkspaceCommand } from "./registry";

/** A write as a guard sees it: the command, and the value of the guard's probe read for this call. */
export interface GuardedWrite {
  command: WorkspaceCommand;
  probe: SqlValue;
}

/**
 * A check or preparation every write meets, inside its transaction. A restore's own calls
 * (`WorkspaceCommand.isRestore`) skip every guard.
 */
export interface WriteGuard {
  /**
   * A statement of one row and one column that the guard needs (say, whether a branch exists). The
   * executor reads every guard's probe in one statement, since a Durable Object pays per statement.
   */
  probe: string;
  /** Before the idempotency replay: refuses the write by throwing a CommandError. */
  beforeReplay?(write: GuardedWrite): void;
  /** For a fresh write (not a replay), before its handler: makes what every write needs. */
  beforeHandler?(ctx: CommandContext, write: GuardedWrite): void;
}

/**
 * Deletes the rows one store keeps of a branch (its notes, refs, graph, anchor links, …), run for every
 * store when the branch delete command forgets a branch (`CommandContext.forgetBranch`), before the
 * branch's own rows go.
 */
export type BranchRowsCleaner = (db: Db, branchId: string) => void;

/** The counts of a workspace's summary that its capabilities keep (beside its name and clocks). */
export type SummaryCounts = Omit<WorkspaceSummary, "name" | "tick" | "seq" | "as_of_tick">;

/**
 * Work a migration leaves for after the object starts (indexing what was written before it, say), so the
 * start never waits for it: the object's alarm runs one step at a time until none is pending. Reads must
 * not depend on how far it got.
 */
export interface MaintenanceTask {
  pending(db: Db): boolean;
  /** One short step, in a transaction of its own. */
  step(db: Db): void;
}

export interface WorkspaceHooks {
  /** In the order they run. */
  writeGuards: readonly WriteGuard[];
  /** The portal capsule (seed 003) of the caller's position, before its suggestions are rendered. */
  capsule(ctx: CommandContext): Record<string, unknown>;
  /** The capsule's compact form, from the rendered capsule, for answers that must save characters. */
  compactCapsule(rendered: Record<string, unknown>): Record<string, unknown>;
  summaryCounts(db: Db): SummaryCounts;
  /** Every store's cleaner of a deleted branch's rows. */
  branchRows: readonly BranchRowsCleaner[];
  /** In the order they run: a task's steps until it is done, then the next's. */
  maintenance: readonly MaintenanceTask[];
}
