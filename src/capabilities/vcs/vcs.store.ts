/**
 * VCS refs over the append-only log: a branch head (set by `reset`, followed by later commits),
 * tags (named seq pointers) and the reflog of their movements. Effective views ignore all of it.
 */
import type { CommandContext } from "../../commands/context";
import type { Branch } from "../../place/branches.store";
import { read } from "../../storage/clocks";
import type { Db } from "../../storage/db";

export interface Tag {
  name: string;
  branch_id: string;
  seq: number;
  message: string | null;
  created_at_ms: number;
  created_by: string;
}

export interface ReflogRow {
  id: number;
  ref_id: string;
  ref_name: string;
  action: string;
  old_seq: number | null;
  new_seq: number | null;
  agent_id: string;
  tick: number;
  ts_ms: number;
}

export function headOf(db: Db, branch: Branch): number | null {
  return db.one<{ seq: number }>("SELECT seq FROM branch_heads WHERE branch_id = ?", branch.id)?.seq ?? null;
}

export function setHead(db: Db, branch: Branch, seq: number): void {
  db.run(
    "INSERT INTO branch_heads (branch_id, seq) VALUES (?, ?) ON CONFLICT (branch_id) DO UPDATE SET seq = excluded.seq",
    branch.id,
    seq,
  );
}

/** Records a ref movement under the tick this operation will be journaled with. */
export function logRef(
  ctx: CommandContext,
  ref: { id: string; name: string },
  action: string,
  oldSeq: number | null,
  newSeq: number | null,
): void {
  ctx.db.run(
    "INSERT INTO reflog (ref_id, ref_name, action, old_seq, new_seq, agent_id, tick, ts_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    ref.id,
    ref.name,
    action,
    oldSeq,
    newSeq,
    ctx.principal.agent_id,
    read(ctx.db, "tick") + 1,
    ctx.nowMs,
  );
}

export function reflogPage(db: Db, refId: string, before: number | undefined, limit: number): { rows: ReflogRow[]; has_more: boolean } {
  const rows = db.all<ReflogRow & Record<string, string | number | null>>(
    "SELECT id, ref_id, ref_name, action, old_seq, new_seq, agent_id, tick, ts_ms FROM reflog WHERE ref_id = ? AND id < ? ORDER BY id DESC LIMIT ?",
    refId,
    before ?? Number.MAX_SAFE_INTEGER,
    limit + 1,
  );
  return { rows: rows.slice(0, limit), has_more: rows.length > limit };
}

export function findTag(db: Db, name: string): Tag | undefined {
  return db.one<Tag & Record<string, string | number | null>>(
    "SELECT name, branch_id, seq, message, created_at_ms, created_by FROM tags WHERE name = ?",
    name,
  );
}

export function insertTag(db: Db, tag: Tag): void {
  db.run(
    "INSERT INTO tags (name, branch_id, seq, message, created_at_ms, created_by) VALUES (?, ?, ?, ?, ?, ?)",
    tag.name,
    tag.branch_id,
    tag.seq,
    tag.message,
    tag.created_at_ms,
    tag.created_by,
  );
}

export function deleteTag(db: Db, name: string): void {
  db.run("DELETE FROM tags WHERE name = ?", name);
}

export function tagPage(db: Db, after: string | undefined, limit: number): { rows: Tag[]; has_more: boolean } {
  const rows = db.all<Tag & Record<string, string | number | null>>(
    "SELECT name, branch_id, seq, message, created_at_ms, created_by FROM tags WHERE name > ? ORDER BY name LIMIT ?",
    after ?? "",
    limit + 1,
  );
  return { rows: rows.slice(0, limit), has_more: rows.length > limit };
}

/** A note appended to a branch whose head was set moves the head along (commits continue from it). */
export function followHead(db: Db, branch: Branch, seq: number): void {
  db.run("UPDATE branch_heads SET seq = ? WHERE branch_id = ?", seq, branch.id);
}

/** A deleted branch's head and tags, forgotten with it (a branch-rows cleaner); its reflog stays as history. */
export function deleteBranchRefs(db: Db, branchId: string): void {
  db.run("DELETE FROM branch_heads WHERE branch_id = ?", branchId);
  db.run("DELETE FROM tags WHERE branch_id = ?", branchId);
}
