/**
 * The Directory: one Durable Object per deployment listing its workspaces. Workspaces are the source
 * of truth; they push summaries here after writes (coalesced by their alarm).
 */
import { DurableObject } from "cloudflare:workers";
import directoryInit from "../../migrations/directory/0001_directory.sql";
import { Db } from "../workspace/db";
import { type Migration, migrate } from "../workspace/migrate";
import type { WorkspaceSummary } from "../workspace/workspace-object";
import { type DirectoryEntry, listWorkspaces, upsertSummary } from "./directory.store";

const DIRECTORY_MIGRATIONS: readonly Migration[] = [{ id: 1, name: "directory", sql: directoryInit }];

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
    upsertSummary(this.db, summary, Date.now());
  }

  list(after: string | undefined, limit: number): { workspaces: DirectoryEntry[]; has_more: boolean } {
    return listWorkspaces(this.db, after, limit);
  }
}
