// Migrations on a fresh workspace object, refusal of bad migration lists, and the Directory summary push.

import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { Db } from "../src/storage/db";
import { checkMigrationList, migrate } from "../src/storage/migrate";
import { WORKSPACE_MIGRATIONS } from "../src/storage/migrations";
import { ok } from "./helpers/mcp";

const TABLES = [
  "_migrations",
  "anchor_aliases",
  "anchor_links",
  "anchor_paths",
  "anchors",
  "branch_heads",
  "branches",
  "checkouts",
  "clocks",
  "code_refs",
  "doc_entries",
  "documents",
  "focus",
  "graph_conflicts",
  "graph_heads",
  // FTS5 trigram index of node versions and its shadow tables (migration 0014; no docsize table: columnsize = 0).
  "graph_node_text",
  "graph_node_text_config",
  "graph_node_text_data",
  "graph_node_text_idx",
  // The term index of live node versions (migration 0017), derived and never exported.
  "graph_terms",
  "graph_versions",
  "idempotency_keys",
  "job_events",
  "jobs",
  "journal",
  "knowledge_keys",
  "knowledge_versions",
  "record_activity",
  "record_sessions",
  "record_versions",
  "records",
  // FTS5 full-text index of records and its shadow tables (migration 0013).
  "records_fts",
  "records_fts_config",
  "records_fts_data",
  "records_fts_docsize",
  "records_fts_idx",
  "reflog",
  "session_records",
  "snapshot_baselines",
  "step_leases",
  "step_ordinals",
  "steps",
  "tags",
  // Dependencies and claims (migration 0021), exported; what makes a task ready, derived and never exported.
  "task_claims",
  "task_dependencies",
  "task_proofs",
  "task_readiness",
  "tasks",
  "workspace_meta",
];

describe("workspace migrations", () => {
  it("a fresh object has every table, records each migration once, and a rerun does nothing", async () => {
    const stub = env.WORKSPACES.getByName("migrations/fresh");
    await runInDurableObject(stub, (_instance, state) => {
      const db = new Db(state.storage.sql, state.storage);
      const tables = db
        .all<{ name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY name",
        )
        .map((row) => row.name);
      expect(tables).toEqual(TABLES);
      expect(db.all("SELECT id, name FROM _migrations")).toEqual([
        { id: 1, name: "init" },
        { id: 2, name: "graph" },
        { id: 3, name: "graph_heads_by_key" },
        { id: 4, name: "tasks" },
        { id: 5, name: "step_leases" },
        { id: 6, name: "cards" },
        { id: 7, name: "snapshot_baselines" },
        { id: 8, name: "reasoning_mode" },
        { id: 9, name: "jobs" },
        { id: 10, name: "knowledge" },
        { id: 11, name: "anchors" },
        { id: 12, name: "code_refs" },
        { id: 13, name: "records" },
        { id: 14, name: "graph_node_text" },
        { id: 15, name: "journal_clock" },
        { id: 16, name: "cursor_key" },
        { id: 17, name: "graph_terms" },
        { id: 18, name: "step_leases_by_holder" },
        { id: 19, name: "graph_terms_open_tags" },
        { id: 20, name: "jobs_queue_by_addressee" },
        { id: 21, name: "task_dependencies" },
        { id: 22, name: "task_readiness_waiting_by_plan" },
      ]);
      expect(migrate(db, WORKSPACE_MIGRATIONS, 0)).toEqual([]);
      expect(db.all("SELECT name, value FROM clocks ORDER BY name")).toEqual([
        { name: "branch", value: 0 },
        { name: "card", value: 0 },
        { name: "job", value: 0 },
        { name: "plan", value: 0 },
        { name: "project_tick", value: 0 },
        { name: "record", value: 0 },
        { name: "record_session", value: 0 },
        { name: "seq", value: 0 },
        { name: "step", value: 0 },
        { name: "task", value: 0 },
        { name: "tick", value: 0 },
      ]);
    });
  });

  it("refuses a list with a gap or a reordering", () => {
    expect(() =>
      checkMigrationList([
        { id: 1, name: "a", sql: "" },
        { id: 3, name: "c", sql: "" },
      ]),
    ).toThrow(/out of order/);
    expect(() =>
      checkMigrationList([
        { id: 2, name: "b", sql: "" },
        { id: 1, name: "a", sql: "" },
      ]),
    ).toThrow(/out of order/);
  });

  it("refuses a database that records a migration the code does not have", async () => {
    const stub = env.WORKSPACES.getByName("migrations/rollback");
    await runInDurableObject(stub, (_instance, state) => {
      const db = new Db(state.storage.sql, state.storage);
      expect(() => migrate(db, [{ id: 1, name: "renamed", sql: "" }], 0)).toThrow(/does not have/);
    });
  });

  it("applies pending migrations all or nothing", async () => {
    const stub = env.WORKSPACES.getByName("migrations/atomic");
    await runInDurableObject(stub, (_instance, state) => {
      const db = new Db(state.storage.sql, state.storage);
      const next = [
        ...WORKSPACE_MIGRATIONS,
        { id: WORKSPACE_MIGRATIONS.length + 1, name: "good", sql: "CREATE TABLE extra_a (x INTEGER) STRICT" },
        { id: WORKSPACE_MIGRATIONS.length + 2, name: "bad", sql: "CREATE TABLE oops (" },
      ];
      expect(() => migrate(db, next, 0)).toThrow();
      expect(db.one("SELECT name FROM sqlite_master WHERE name = 'extra_a'")).toBeUndefined();
      expect(db.all("SELECT id FROM _migrations")).toEqual(WORKSPACE_MIGRATIONS.map((migration) => ({ id: migration.id })));
    });
  });
});

describe("directory summaries", () => {
  it("a workspace pushes its summary to the Directory after writes (coalesced by its alarm)", async () => {
    const workspace = "directory/pushed";
    await ok("notes_commit", { workspace, content: "x" });
    await ok("branch_create", { workspace, name: "b" });
    const stub = env.WORKSPACES.getByName(workspace);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await runDurableObjectAlarm(stub)).toBe(false);
    const listed = await env.DIRECTORY.getByName("directory").list(undefined, 50);
    expect(listed.workspaces.find((entry) => entry.name === workspace)).toMatchObject({ tick: 2, seq: 1, branches: 2, as_of_tick: 2 });
  });

  it("never moves a summary backwards", async () => {
    const directory = env.DIRECTORY.getByName("directory");
    await directory.report({ name: "directory/order", tick: 5, seq: 3, branches: 1, as_of_tick: 5 });
    await directory.report({ name: "directory/order", tick: 4, seq: 2, branches: 1, as_of_tick: 4 });
    const listed = await directory.list("directory/".slice(0, -1), 200);
    expect(listed.workspaces.find((entry) => entry.name === "directory/order")).toMatchObject({ tick: 5, as_of_tick: 5 });
  });
});
