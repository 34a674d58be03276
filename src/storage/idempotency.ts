/**
 * Idempotency keys (DESIGN §5): scoped to (workspace, agent). The first successful result of a write
 * is stored with a fingerprint of its arguments; a replay with the same arguments returns it and
 * writes nothing; the same key with other arguments is refused.
 */
import { fail } from "../shared/errors";
import { fnv1a64 } from "../shared/hash";
import { canonicalJson } from "../shared/json";
import type { Db } from "./db";

export function fingerprint(command: string, args: Record<string, unknown>): string {
  const { idempotency_key: _key, ...rest } = args;
  return fnv1a64(canonicalJson({ command, args: rest }));
}

/** The stored result for this key, or undefined when the key is new. */
export function replay(db: Db, agentId: string, key: string, command: string, print: string): unknown {
  const row = db.one<{
    command: string;
    fingerprint: string;
    result_json: string;
  }>("SELECT command, fingerprint, result_json FROM idempotency_keys WHERE agent_id = ? AND key = ?", agentId, key);
  if (!row) return undefined;
  if (row.command !== command || row.fingerprint !== print) {
    fail(
      "IDEMPOTENCY_KEY_REUSED",
      `idempotency_key "${key}" was already used by this agent for a different call (${row.command}).`,
      "Use a fresh idempotency_key for a different call, or repeat the original arguments exactly.",
      { key, first_command: row.command },
    );
  }
  return JSON.parse(row.result_json);
}

export function remember(db: Db, agentId: string, key: string, command: string, print: string, result: unknown, nowMs: number): void {
  db.run(
    "INSERT INTO idempotency_keys (agent_id, key, command, fingerprint, result_json, created_at_ms) VALUES (?, ?, ?, ?, ?, ?)",
    agentId,
    key,
    command,
    print,
    JSON.stringify(result),
    nowMs,
  );
}
