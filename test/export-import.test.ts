// End-to-end: workspace_export and the restore mode of workspace_import through the real MCP endpoint
// (toolset=full). A workspace seeded through most capabilities is exported page by page, restored into
// a fresh workspace and exported again: the same lines (but the header's workspace name) and the same
// answers to a sample of reads. The refusals are in test/export-restore-refusals.test.ts.
import { describe, expect, it } from "vitest";
import { DIGEST_START, digestLines } from "../src/capabilities/workspace/export-digest";
import { type Args, exportPages, linesOf, restore } from "./helpers/export-pages";
import { as, failure, ok } from "./helpers/mcp";

/** The same answer from two workspaces, but for their names. */
function normalized(value: unknown, workspace: string): unknown {
  return JSON.parse(JSON.stringify(value).replaceAll(workspace, "<workspace>"));
}

const SECRET_NOTE = "deploy with ghp_0123456789abcdefghijABCDEFGHIJ0123456789 then rotate";

/** Notes, trace, branches, a graph merge conflict, tasks with a lease, cards, knowledge, anchors, jobs, code refs, records. */
async function seed(workspace: string): Promise<void> {
  const alice = await as("alice");
  const bob = await as("bob");
  const w = { workspace };
  await ok("notes_commit", { ...w, content: "First note on main", title: "intro" }, alice);
  const redacted = await ok("notes_commit", { ...w, content: SECRET_NOTE }, alice);
  expect(redacted.warnings?.[0]?.code).toBe("SECRET_REDACTED");
  await ok("notes_commit", { ...w, content: 'Quotes " and backslashes \\ and\nnewlines, ünïcödé 🙂', idempotency_key: "note-k1" }, alice);
  await ok("branch_create", { ...w, name: "idea" }, alice);
  await ok("notes_commit", { ...w, branch: "idea", content: "A note on the idea branch" }, alice);
  await ok("checkout", { ...w, ref: "idea" }, bob);
  await ok("tag_create", { ...w, name: "v1", message: "first release" }, alice);
  await ok("reset", { ...w, seq: 1 }, alice);
  await ok("trace_step", { ...w, step: "Measured reads", content: "p50 went down" }, alice);

  const node = (id: string, title: string) => ({ op: "node_upsert", id, type: "hypothesis", title });
  await ok("graph_apply", { ...w, ops: [node("H", "base title"), node("K", "keep")] }, alice);
  await ok("graph_apply", { ...w, branch: "idea", ops: [node("H", "theirs title"), node("N", "new on idea")] }, alice);
  await ok("graph_apply", { ...w, ops: [node("H", "ours title")] }, alice);
  const merged = await ok("graph_merge", { ...w, from: "idea", into: "main" }, alice);
  expect(merged.conflicts_created).toBe(1);

  const plan = await ok("tasks_create", { ...w, title: "Ship the cache" }, alice);
  const task = await ok(
    "tasks_create",
    {
      ...w,
      parent: plan.id,
      title: "Add an LRU layer",
      steps: [{ title: "Pick a size", success_criteria: ["fits"] }, { title: "Wire it" }],
    },
    alice,
  );
  await ok("tasks_decompose", { ...w, task: task.id, parent_path: "s:0", steps: [{ title: "Measure" }] }, alice);
  await ok("tasks_step_lease_claim", { ...w, task: task.id, path: "s:0" }, alice);
  // A task that waits on another (task_dependencies), and the first taken (task_claims).
  await ok("tasks_create", { ...w, parent: plan.id, title: "Ship it", blocked_by: [task.id], steps: [{ title: "Release" }] }, alice);
  await ok("tasks_take", { ...w, task: task.id }, alice);
  await ok("tasks_evidence_capture", { ...w, task: task.id, path: "s:1", checks: ["CMD: npm test"] }, alice);
  await ok("tasks_focus_set", { ...w, target: task.id }, alice);
  await ok("tasks_snapshot", { ...w, delta: true }, alice);
  await ok("think_add_hypothesis", { ...w, target: task.id, id: "H1", title: "It is the index" }, alice);
  await ok("think_add_hypothesis", { ...w, id: "H2", title: "A draft of bob's" }, bob);

  await ok(
    "anchors_bootstrap",
    { ...w, anchors: [{ id: "a:storage", title: "Storage", kind: "component", refs: ["path:src/store"], aliases: ["a:persistence"] }] },
    alice,
  );
  await ok(
    "knowledge_upsert",
    {
      ...w,
      anchor: "a:storage",
      key: "wal-mode",
      card: "Claim: SQLite runs in WAL mode\nScope: storage\nApply: keep readers off the writer",
    },
    alice,
  );
  await ok(
    "code_ref_attach",
    { ...w, path: "src/math.ts", start_line: 1, end_line: 2, text: "export const one = 1;\nexport const two = 2;" },
    alice,
  );

  await ok("jobs_create", { ...w, title: "Benchmark", prompt: "Run the suite" }, alice);
  await ok("jobs_create", { ...w, title: "Docs", prompt: "Write it up" }, alice);
  const claimed = await ok("jobs_claim", { ...w, job: "JOB-001" }, bob);
  await ok("jobs_report", { ...w, job: "JOB-001", claim_revision: claimed.claim_revision, message: "half way", percent: 50 }, bob);

  const root = await ok(
    "create_record",
    { ...w, parent_id: null, type: "question", title: "Which cache?", summary: "s", body: "How do we cache reads?" },
    alice,
  );
  const session = root.session_id as string;
  await ok(
    "create_record",
    { ...w, session_id: session, parent_id: "R001", type: "option", title: "LRU", summary: "", body: "Least recently used eviction" },
    alice,
  );
  await ok(
    "create_record",
    { ...w, session_id: session, parent_id: "R001", type: "conclusion", title: "Use LRU", summary: "", body: "Chosen" },
    alice,
  );
  // R001 resolved by R003, restored after it: a forward reference the restore settles.
  await ok("transition", { ...w, session_id: session, id: "R001", to_state: "RESOLVED", resolved_by: "R003" }, alice);
  await ok("update_record", { ...w, session_id: session, id: "R002", body: "Least recently used eviction, 10k entries" }, alice);
  await ok("save_session", { ...w, session_id: session, summary: "LRU chosen" }, alice);
  await ok("activate", { ...w, id: "R002" }, bob);
}

/** Reads whose answers must match between a workspace and its restored copy. */
async function sampleReads(workspace: string): Promise<unknown> {
  const alice = await as("alice");
  const bob = await as("bob");
  const w = { workspace };
  return normalized(
    {
      notes: await ok("show", { ...w, doc: "notes" }, alice),
      notes_idea: await ok("show", { ...w, branch: "idea", doc: "notes" }, alice),
      trace: await ok("show", w, alice),
      graph: await ok("graph_query", w, alice),
      graph_idea: await ok("graph_query", { ...w, branch: "idea" }, alice),
      graph_text: await ok("graph_query", { ...w, branch: "main", text: "TITLE" }, alice),
      graph_text_idea: await ok("graph_query", { ...w, branch: "idea", text: "title" }, alice),
      conflicts: await ok("graph_conflicts", { ...w, into: "main" }, alice),
      status: await ok("status", w, alice),
      status_bob: await ok("status", w, bob),
      records: await ok("list_records", w, alice),
      search: await ok("search_records", { ...w, query: "cache" }, alice),
      history: await ok("get_record_history", { ...w, id: "R002" }, alice),
      radar: await ok("tasks_radar", w, alice),
      // What makes a task ready is rebuilt by the restore: the same queue, for the holder and for another.
      ready: await ok("tasks_ready", w, alice),
      ready_bob: await ok("tasks_ready", w, bob),
      jobs: await ok("jobs_list", w, alice),
      recall: await ok("knowledge_recall", { ...w, anchor: "a:storage" }, alice),
      anchors: await ok("anchors_list", w, alice),
      sessions: await ok("get_active_sessions", w, bob),
    },
    workspace,
  );
}

describe("workspace export and restore", () => {
  it("round-trips a seeded workspace: same lines, same reads, same clocks", async () => {
    const source = "export/source";
    const target = "export/target";
    const admin = await as("root", { role: "admin" });
    await seed(source);

    const pages = await exportPages(source, admin);
    expect(pages.length).toBeGreaterThan(3);
    // The same store exports to the same bytes.
    expect(await exportPages(source, admin)).toEqual(pages);
    const lines = linesOf(pages);
    const header = JSON.parse(lines[0] as string);
    const sourceStatus = await ok("status", { workspace: source });
    expect(header).toMatchObject({ n: 0, format: "branchmind-workspace-export", version: 1, schema_version: 22, workspace: source });
    expect(header.clocks).toMatchObject({ tick: sourceStatus.tick, seq: expect.any(Number) });
    const trailer = JSON.parse(lines[lines.length - 1] as string);
    expect(trailer).toMatchObject({ n: lines.length - 1, end: true, lines: lines.length, clocks: header.clocks });
    expect(trailer.digest).toBe(digestLines(DIGEST_START, lines.slice(1, -1)));
    // Every table holds rows here (task events in the journal, a merge conflict, a live lease, a forward
    // resolved_by, …), so the restore of each one is exercised.
    expect(Object.entries(trailer.rows).filter(([, count]) => count === 0)).toEqual([]);
    expect(trailer.rows).toMatchObject({ records: 3, jobs: 2, graph_conflicts: 1, step_leases: 1, idempotency_keys: 1, checkouts: 1 });
    for (const [table, count] of Object.entries(trailer.rows)) {
      expect(lines.filter((line) => line.includes(`"t":${JSON.stringify(table)},`)).length, table).toBe(count);
    }
    expect(lines.map((line) => JSON.parse(line).n)).toEqual(lines.map((_, index) => index));
    // Redacted text is exported as stored, and restored unchanged.
    expect(lines.some((line) => line.includes("[REDACTED:github_token]"))).toBe(true);
    expect(lines.some((line) => line.includes("ghp_0123"))).toBe(false);
    // Neither full-text index nor the migrations table is exported; the instance's name is not a row.
    expect(lines.some((line) => /"(table|t)":"(records_fts\w*|graph_node_text\w*|_migrations|clocks)"/.test(line))).toBe(false);
    expect(lines.some((line) => line.startsWith('{"n":') && line.includes('"t":"workspace_meta","r":["name"'))).toBe(false);

    const outcomes = await restore(target, pages, admin);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([...pages.slice(1).map(() => "in_progress"), "complete"]);
    expect(outcomes[outcomes.length - 1]).toMatchObject({
      source_workspace: source,
      next_line: null,
      tick: sourceStatus.tick,
      seq: header.clocks.seq,
    });

    const again = linesOf(await exportPages(target, admin));
    expect(again.length).toBe(lines.length);
    expect(JSON.parse(again[0] as string)).toEqual({ ...header, workspace: target });
    expect(again.slice(1)).toEqual(lines.slice(1));
    expect(await sampleReads(target)).toEqual(await sampleReads(source));
    // The restored graph's text index answers text searches (3+ characters go through it).
    const searched = await ok("graph_query", { workspace: target, branch: "main", text: "Title", include_edges: false });
    expect(searched.nodes.map((node: Args) => [node.id, node.title])).toEqual([["H", "ours title"]]);
    const onIdea = await ok("graph_query", { workspace: target, branch: "idea", text: "TITLE", include_edges: false });
    expect(onIdea.nodes.map((node: Args) => [node.id, node.title])).toEqual([["H", "theirs title"]]);

    // The restored workspace is an ordinary one: its clocks go on from the source's.
    const alice = await as("alice");
    const next = await ok("notes_commit", { workspace: target, content: "after the restore" }, alice);
    expect(next.entry.seq).toBe(header.clocks.seq + 1);
    expect((await ok("status", { workspace: target })).tick).toBe(sourceStatus.tick + 1);
    // An idempotency key used before the backup still replays after the restore.
    const replay = await ok(
      "notes_commit",
      { workspace: target, content: 'Quotes " and backslashes \\ and\nnewlines, ünïcödé 🙂', idempotency_key: "note-k1" },
      alice,
    );
    expect(replay.entry.seq).toBeLessThan(header.clocks.seq);
    // A page sent again after completion is refused.
    expect((await failure("workspace_import", { workspace: target, jsonl: pages[1] }, admin)).code).toBe("RESTORE_OUT_OF_ORDER");
  });
});
