/**
 * One Durable Object per workspace: migrates its SQLite schema once on wake, then serves one RPC
 * method, `execute`, that runs a named command and returns its `Result` (it never throws across RPC)
 * with the time the call spent inside the object and the SQLite rows it read, for the front door's call log.
 * After a write it schedules a coalesced summary push to the Directory (one alarm, at most one push
 * per SUMMARY_PUSH_DELAY_MS however many writes land). The summary carries the counts the capabilities
 * register (branches, Record-Sync's open records and sessions), which the projects listing shows;
 * `readSummary` answers them fresh when one project is read. The command is resolved here, once, from the
 * catalog seam, and handed to the executor with the catalog's hooks. Work a migration left for after
 * the start (the hooks' `maintenance`) runs a step per alarm, MAINTENANCE_DELAY_MS apart, until done.
 */
import { DurableObject } from "cloudflare:workers";
import { findCommand, WORKSPACE_HOOKS } from "../../catalog/catalog";
import type { Connection } from "../../catalog/suggestions";
import type { Principal, ProjectFacts } from "../../commands/context";
import { internalError } from "../../shared/errors";
import { redactionEnabled } from "../../shared/redaction";
import { err, ok, type Result } from "../../shared/result";
import { DIRECTORY_NAME, type WorkspaceSummary } from "../../shared/workspace-summary";
import { read } from "../../storage/clocks";
import { Db } from "../../storage/db";
import { getMeta } from "../../storage/meta";
import { migrate } from "../../storage/migrate";
import { WORKSPACE_MIGRATIONS } from "../../storage/migrations";
import { type ExecuteRequest, execute } from "./execute";

/** Summaries lag writes by at most this much; long enough to coalesce a burst into one push. */
const SUMMARY_PUSH_DELAY_MS = 2_000;
/** Between two maintenance steps (each a fraction of a second): calls waiting meanwhile get in first. */
const MAINTENANCE_DELAY_MS = 50;

/**
 * What `execute` answers: the command's result, and the milliseconds from the start of `execute` to the
 * answer by the object's clock. That clock has a 1 ms step, and deployed it advances only across I/O, so
 * the figure is a local measure (`wrangler dev`); it travels beside the result, never inside it.
 * `rows_read` is the rows the object's SQLite read for the call (`Db.rowsRead`, the figure Cloudflare
 * bills), its write transaction included and the schema migration excluded; beside the result too.
 */
export interface ObjectAnswer {
  result: Result<Record<string, unknown>>;
  object_ms: number;
  rows_read: number;
}

export class WorkspaceObject extends DurableObject<Env> {
  private readonly db: Db;
  /** A summary push is scheduled (an alarm set by this instance has not run yet): writes need not ask storage. */
  private pushScheduled = false;
  /** The pending alarm was set for a maintenance step (it pushes a summary only if a write asked for one). */
  private maintenanceScheduled = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.db = new Db(ctx.storage.sql, ctx.storage);
    void ctx.blockConcurrencyWhile(async () => {
      migrate(this.db, WORKSPACE_MIGRATIONS, Date.now());
      // An alarm left by the previous instance (a summary push) stays: it runs a step too, then sets the next.
      if (this.maintenancePending() && (await ctx.storage.getAlarm()) === null) await this.scheduleMaintenance();
    });
  }

  async execute(
    command: string,
    args: Record<string, unknown>,
    principal: Principal,
    workspace: string,
    options: { capsule?: boolean; readOnly?: boolean; connection?: Connection; project?: ProjectFacts } = {},
  ): Promise<ObjectAnswer> {
    const started = performance.now();
    // Migrations ran in the constructor, before any call was let in: they are not counted.
    const readBefore = this.db.rowsRead;
    // Taken once the command is done, before an await could let another call read through the same handle.
    let rowsRead: number | undefined;
    const answer = (result: Result<Record<string, unknown>>): ObjectAnswer => ({
      result,
      object_ms: performance.now() - started,
      rows_read: rowsRead ?? this.db.rowsRead - readBefore,
    });
    try {
      const found = findCommand(command);
      const request: ExecuteRequest = {
        command: found?.scope === "workspace" ? found : undefined,
        name: command,
        args,
        principal,
        workspace,
        capsule: options.capsule === true,
        readOnly: options.readOnly === true,
        ...(options.connection === undefined ? {} : { connection: options.connection }),
        ...(options.project === undefined ? {} : { project: options.project }),
        redaction: redactionEnabled(this.env.REDACTION),
      };
      const isWrite = request.command?.kind === "write";
      // A write that stored rows may have moved the summary (a tick always stores its journal row).
      const writtenBefore = this.db.rowsWritten;
      const result = execute(this.db, WORKSPACE_HOOKS, request, Date.now());
      rowsRead = this.db.rowsRead - readBefore;
      const countsMayMove = request.command?.movesSummaryCounts === true;
      if (isWrite && result.ok && (countsMayMove || this.db.rowsWritten !== writtenBefore)) await this.scheduleSummaryPush();
      return answer(result);
    } catch (error) {
      console.error("workspace execute failed", error);
      return answer(err(internalError()));
    }
  }

  summary(): WorkspaceSummary {
    const tick = read(this.db, "tick");
    return {
      name: getMeta(this.db, "name") ?? "",
      tick,
      seq: read(this.db, "seq"),
      as_of_tick: tick,
      ...WORKSPACE_HOOKS.summaryCounts(this.db),
    };
  }

  /** The summary now, for reads that must not wait for the next push (one project read). */
  readSummary(): Result<WorkspaceSummary> {
    try {
      return ok(this.summary());
    } catch (error) {
      console.error("workspace summary failed", error);
      return err(internalError());
    }
  }

  private async scheduleSummaryPush(): Promise<void> {
    if (this.pushScheduled) return;
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + SUMMARY_PUSH_DELAY_MS);
    this.pushScheduled = true;
  }

  private maintenancePending(): boolean {
    return WORKSPACE_HOOKS.maintenance.some((task) => task.pending(this.db));
  }

  private async scheduleMaintenance(): Promise<void> {
    await this.ctx.storage.setAlarm(Date.now() + MAINTENANCE_DELAY_MS);
    this.maintenanceScheduled = true;
  }

  override async alarm(): Promise<void> {
    // A maintenance alarm pushes only if a write asked; an alarm from before a restart (both flags
    // forgotten) pushes, as it may have been a write's.
    const push = this.pushScheduled || !this.maintenanceScheduled;
    // Writes from now on schedule the next push (as they would after a restart, which forgets the flag).
    this.pushScheduled = false;
    this.maintenanceScheduled = false;
    WORKSPACE_HOOKS.maintenance.find((task) => task.pending(this.db))?.step(this.db);
    if (this.maintenancePending()) await this.scheduleMaintenance();
    if (!push) return;
    const summary = this.summary();
    if (summary.name === "") return;
    await this.env.DIRECTORY.getByName(DIRECTORY_NAME).report(summary);
  }
}
