/**
 * Each agent's focus (migration 0004): the plan or task its calls act on when they name none. A
 * place rule (seed 001's focus-first order), read by every capability that resolves a target.
 */
import type { CommandContext } from "../commands/context";
import type { Db } from "../storage/db";

export function focusOf(db: Db, agentId: string): string | undefined {
  return db.one<{ target_id: string }>("SELECT target_id FROM focus WHERE agent_id = ?", agentId)?.target_id;
}

export function setFocus(ctx: CommandContext, targetId: string): void {
  ctx.db.run(
    "INSERT INTO focus (agent_id, target_id, set_at_ms) VALUES (?, ?, ?) ON CONFLICT (agent_id) DO UPDATE SET target_id = excluded.target_id, set_at_ms = excluded.set_at_ms",
    ctx.principal.agent_id,
    targetId,
    ctx.nowMs,
  );
}

export function clearFocus(ctx: CommandContext): void {
  ctx.db.run("DELETE FROM focus WHERE agent_id = ?", ctx.principal.agent_id);
}
