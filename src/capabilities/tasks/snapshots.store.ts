/** Where each agent's last `tasks_snapshot` with delta left off, per target (migration 0007). */
import type { CommandContext } from "../../commands/context";

export function baselineOf(ctx: CommandContext, target: string): number | undefined {
  return ctx.db.one<{ seq: number }>(
    "SELECT seq FROM snapshot_baselines WHERE agent_id = ? AND target_id = ?",
    ctx.principal.agent_id,
    target,
  )?.seq;
}

/** One statement: the caller's baseline for `target` moves to `seq` (bookkeeping; no tick, no journal row). */
export function setBaseline(ctx: CommandContext, target: string, seq: number): void {
  ctx.db.run(
    `INSERT INTO snapshot_baselines (agent_id, target_id, seq, updated_at_ms) VALUES (?, ?, ?, ?)
     ON CONFLICT (agent_id, target_id) DO UPDATE SET seq = excluded.seq, updated_at_ms = excluded.updated_at_ms`,
    ctx.principal.agent_id,
    target,
    seq,
    ctx.nowMs,
  );
}
