// Store-level: ingestion and projection are idempotent (the same event or state applied twice writes
// once). The MCP-level behaviour of the single organism is in test/tasks.test.ts.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { storeContext } from "../../../test/helpers/store-context";
import { ensureMain } from "../../place/branches.store";
import { Db } from "../../storage/db";
import { ingestEvent, projectEntity } from "./ingest";
import { insertSteps } from "./steps.store";
import { insertEntity } from "./tasks.store";

describe("task event ingestion", () => {
  it("ingests an event into the trace once, and projects an unchanged state once", async () => {
    await runInDurableObject(env.WORKSPACES.getByName("store/tasks-ingest"), (_instance, state) => {
      const ctx = storeContext(new Db(state.storage.sql, state.storage));
      ensureMain(ctx);
      const plan = insertEntity(ctx, { kind: "plan", plan_id: null, title: "P" });
      const task = insertEntity(ctx, { kind: "task", plan_id: plan.id, title: "T" });
      const steps = insertSteps(ctx, task.id, undefined, [{ title: "a" }, { title: "b" }]);
      const event = { event_id: "evt_0000000000000042", tick: 42, ts_ms: 1_000, type: "task_created", task: task.id, payload: {} };

      expect(ingestEvent(ctx, event, "created")).toBe(true);
      expect(ingestEvent(ctx, event, "created")).toBe(false);
      const traced = ctx.db.all("SELECT source_event_id FROM doc_entries WHERE doc = ?", `${task.id}-trace`);
      expect(traced).toEqual([{ source_event_id: "evt_0000000000000042" }]);

      // The task node (and its copy in the plan's graph), two step nodes, two contains edges; then nothing more.
      expect(projectEntity(ctx, task, steps)).toBe(6);
      expect(projectEntity(ctx, task, steps)).toBe(0);
      const renamed = { ...steps[0], title: "a, renamed" } as (typeof steps)[number];
      expect(projectEntity(ctx, task, [renamed])).toBe(1);
    });
  });
});
