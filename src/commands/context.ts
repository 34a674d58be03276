/**
 * What a command handler receives besides its arguments: the workspace database, the caller, the
 * request's clock reading, and three recorders — `journal` (this call changed domain rows: advance the
 * tick), `event` (a task event: a journal row of its own, now) and `warn` (a non-fatal note for the caller). Handlers are synchronous: nothing awaits inside
 * the transaction that wraps a write.
 */

import type { Warning } from "../shared/result";
import type { Db } from "../storage/db";
import type { JournalEvent, TaskEventFields } from "../storage/journal";

export type Role = "read" | "write" | "admin";

/** The roles in order: each allows everything the ones before it do. */
export const ROLE_RANK: Readonly<Record<Role, number>> = { read: 0, write: 1, admin: 2 };

export interface Principal {
  agent_id: string;
  /** Workspace patterns the token grants: `*` one segment, `**` any depth. */
  workspaces: string[];
  role: Role;
  /** Key id of the token, or "dev" in dev mode. */
  key_id: string;
}

export interface JournalNote {
  target: string;
  summary: string;
}

export interface CommandContext {
  db: Db;
  principal: Principal;
  workspace: string;
  /** Wall-clock reading taken once per call: recorded, never used to order or expire anything. */
  nowMs: number;
  /**
   * Characters a read may show at most (its resolved budget), so reads load no more than this + 1 of
   * any text; undefined for writes, which need whole rows.
   */
  readLimitChars: number | undefined;
  journal(note: JournalNote): void;
  /** Appends a task event to the journal now (it replaces the call's summary row) and returns it. */
  event(event: TaskEventFields & JournalNote): JournalEvent;
  warn(warning: Warning): void;
  /**
   * Deletes what every store keeps of the branch (each store registers its own cleaner in the catalog):
   * the branch delete command calls it, then deletes the branch's own rows.
   */
  forgetBranch(branchId: string): void;
  /** The Directory's name and description of this workspace's project, for commands that ask (`needsProject`). */
  project?: ProjectFacts | undefined;
  /**
   * What one call computes once and reads again, the command and its portal capsule alike (the engine's
   * slice of a scope, say), by its owner's key; gone with the call. An owner that reads the database
   * checks `db.rowsWritten` against what it stored, since the call may write in between.
   */
  memo: Map<string, unknown>;
}

export interface ProjectFacts {
  name: string;
  description: string;
}
