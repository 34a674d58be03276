/**
 * The Directory: one Durable Object per deployment listing its workspaces. Workspaces are the source
 * of truth; they push summaries here after writes (coalesced by their alarm). A push is idempotent and
 * never moves a summary backwards (`as_of_tick` only grows), so late or repeated pushes are harmless.
 */
import { DurableObject } from "cloudflare:workers";
import directoryInit from "../../migrations/directory/0001_directory.sql";
import { MAX_LIST_LIMIT } from "../shared/limits";
import { Db } from "../workspace/db";
import { type Migration, migrate } from "../workspace/migrate";
import type { WorkspaceSummary } from "../workspace/workspace-object";

const DIRECTORY_MIGRATIONS: readonly Migration[] = [{ id: 1, name: "directory", sql: directoryInit }];

export interface DirectoryEntry extends WorkspaceSummary {
  registered_at_ms: number;
  updated_at_ms: number;
}

export class DirectoryObject extends DurableObject<Env> {
  private readonly db: Db;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.db = new Db(ctx.storage.sql, ctx.storage);
    void ctx.blockConcurrencyWhile(async () => {
      migrate(this.db, DIRECTORY_MIGRATIONS, Date.now());
    });
  }

  report(summary: WorkspaceSummary): void {
    const now = Date.now();
    this.db.run(
      `INSERT INTO workspaces (name, registered_at_ms, updated_at_ms, tick, seq, branches, as_of_tick)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET updated_at_ms = excluded.updated_at_ms, tick = excluded.tick, seq = excluded.seq,
         branches = excluded.branches, as_of_tick = excluded.as_of_tick
       WHERE excluded.as_of_tick >= workspaces.as_of_tick`,
      summary.name,
      now,
      now,
      summary.tick,
      summary.seq,
      summary.branches,
      summary.as_of_tick,
    );
  }

  list(after: string | undefined, limit: number): { workspaces: DirectoryEntry[]; has_more: boolean } {
    const bounded = Math.min(Math.max(limit, 1), MAX_LIST_LIMIT);
    const rows = this.db.all<DirectoryEntry & Record<string, string | number>>(
      "SELECT name, registered_at_ms, updated_at_ms, tick, seq, branches, as_of_tick FROM workspaces WHERE name > ? ORDER BY name LIMIT ?",
      after ?? "",
      bounded + 1,
    );
    return {
      workspaces: rows.slice(0, bounded),
      has_more: rows.length > bounded,
    };
  }
}
