// End-to-end: the tasks subsystem through the real MCP endpoint (toolset=full): plans, tasks and steps,
// focus-first targeting (of task tools and of reasoning commands), revisions, proof gates, the single
// organism (journal, trace, projection). Views and lint are in test/tasks-views.test.ts; step leases,
// strict reasoning, macros and templates in test/tasks-workflow.test.ts.

import { describe, expect, it } from "vitest";
import { as, failure, ok } from "./helpers/mcp";
import { planWithTask } from "./helpers/tasks-fixtures";

describe("tasks: model and targeting", () => {
  it("creates a plan and a task with steps; radar shows the reasoning_ref and the next move", async () => {
    const workspace = "tasks/create";
    const { plan, task, created } = await planWithTask(workspace, [{ title: "Design" }, { title: "Build", tests: ["npm test"] }]);
    expect(plan).toBe("PLAN-001");
    expect(task).toBe("TASK-001");
    expect(created).toMatchObject({
      qualified_id: `${workspace}:TASK-001`,
      revision: 0,
      entity: { kind: "task", plan_id: "PLAN-001", status: "TODO", priority: "MEDIUM" },
      reasoning_ref: { branch: "task/TASK-001", notes_doc: "notes", trace_doc: "TASK-001-trace", graph_doc: "TASK-001-graph" },
    });
    expect(created.steps.map((step: { path: string; id: string }) => step.path)).toEqual(["s:0", "s:1"]);
    expect(created.steps[0].id).toMatch(/^STEP-[0-9A-F]{8}$/);
    expect(created.events.map((event: { type: string }) => event.type)).toEqual(["task_created", "steps_added"]);
    expect(created.events[0].event_id).toMatch(/^evt_\d{16}$/);

    const radar = await ok("tasks_radar", { workspace, target: task });
    expect(radar.reasoning_ref).toEqual(created.reasoning_ref);
    expect(radar.radar.now).toBe("Task TASK-001: Add an LRU layer");
    expect(radar.radar.why).toBe("Reads are slow");
    expect(radar.radar.next[0]).toContain("Confirm checkpoints for s:0");
    expect(radar.steps).toMatchObject({ total: 2, open: 2, completed: 0, first_open: { path: "s:0" } });
    const planRadar = await ok("tasks_radar", { workspace, target: { id: plan, kind: "plan" } });
    expect(planRadar.horizon).toMatchObject({ backlog: 1, total: 1, active_limit: 3 });

    const wrongKind = await failure("tasks_radar", { workspace, target: { id: plan, kind: "task" } });
    expect(wrongKind.code).toBe("INVALID_INPUT");
    const badParent = await failure("tasks_create", { workspace, parent: "PLAN-404", title: "x" });
    expect(badParent.code).toBe("UNKNOWN_ID");
    const noParent = await failure("tasks_create", { workspace, kind: "task", title: "orphan" });
    expect(noParent.code).toBe("INVALID_INPUT");
  });

  it("falls back to the caller's focus, lets an explicit target win, and asks for a target with one suggestion", async () => {
    const workspace = "tasks/focus";
    const alice = await as("alice");
    const bob = await as("bob");
    const { task } = await planWithTask(workspace, [{ title: "one" }]);
    const other = await ok("tasks_create", { workspace, parent: "PLAN-001", title: "Other task" });

    const missing = await failure("tasks_radar", { workspace }, alice);
    expect(missing.code).toBe("INVALID_INPUT");
    expect(missing.actions).toEqual([expect.objectContaining({ tool: "tasks_context" })]);

    expect(await ok("tasks_focus_set", { workspace, target: task }, alice)).toMatchObject({ previous: null, focus: task });
    expect((await ok("tasks_radar", { workspace }, alice)).target.id).toBe(task);
    expect((await ok("tasks_radar", { workspace, target: other.id }, alice)).target.id).toBe(other.id);
    // Focus is per agent.
    expect((await ok("tasks_focus_get", { workspace }, bob)).focus).toBeNull();
    expect((await ok("tasks_focus_get", { workspace }, alice)).focus).toBe(task);
    const edited = await ok("tasks_edit", { workspace, title: "Renamed through focus" }, alice);
    expect(edited).toMatchObject({ id: task, revision: 1, entity: { title: "Renamed through focus" } });
    expect(await ok("tasks_focus_clear", { workspace }, alice)).toMatchObject({ previous: task, cleared: true });
    expect((await failure("tasks_edit", { workspace, title: "x" }, alice)).code).toBe("INVALID_INPUT");
  });

  it('selects steps by id, path and "focus" (the first open step), and nests decomposed steps', async () => {
    const workspace = "tasks/steps";
    const { task, created } = await planWithTask(workspace, [{ title: "first" }, { title: "second" }]);
    const nested = await ok("tasks_decompose", { workspace, task, parent_path: "s:1", steps: [{ title: "child" }] });
    expect(nested.steps[0].path).toBe("s:1.s:0");
    expect(nested.steps[0].parent_step_id).toBe(created.steps[1].id);
    await ok("tasks_progress", { workspace, task, step: "focus", completed: true, force: true });
    const focus = await ok("tasks_define", { workspace, task, step: "focus", next_action: "write it" });
    expect(focus.step).toMatchObject({ path: "s:1", next_action: "write it" });
    expect((await ok("tasks_define", { workspace, task, step_id: created.steps[1].id, title: "second!" })).step.title).toBe("second!");
    expect((await ok("tasks_block", { workspace, task, path: "s:1.s:0", reason: "waiting on infra" })).step).toMatchObject({
      blocked: true,
      block_reason: "waiting on infra",
    });
    const radar = await ok("tasks_radar", { workspace, task });
    expect(radar.radar.blockers).toEqual(["s:1.s:0: waiting on infra"]);
    expect((await failure("tasks_define", { workspace, task, path: "s:9", title: "x" })).code).toBe("UNKNOWN_ID");
    expect((await failure("tasks_define", { workspace, task, title: "x" })).code).toBe("INVALID_INPUT");
  });

  it("refuses a stale expected_revision and writes nothing", async () => {
    const workspace = "tasks/revision";
    const { task } = await planWithTask(workspace, [{ title: "s" }]);
    await ok("tasks_edit", { workspace, task, expected_revision: 0, priority: "HIGH" });
    const before = await ok("tasks_delta", { workspace });
    const stale = await failure("tasks_edit", { workspace, task, expected_revision: 0, title: "lost update" });
    expect(stale).toMatchObject({ code: "REVISION_MISMATCH", details: { expected: 0, actual: 1 } });
    expect((await failure("tasks_define", { workspace, task, path: "s:0", expected_revision: 0, title: "x" })).code).toBe(
      "REVISION_MISMATCH",
    );
    const radar = await ok("tasks_radar", { workspace, task });
    expect(radar.target).toMatchObject({ title: "Add an LRU layer", revision: 1, priority: "HIGH" });
    expect((await ok("tasks_delta", { workspace })).events).toEqual(before.events);
  });
});

describe("tasks: checkpoints and proof gates", () => {
  it("closes a step only with criteria and tests confirmed; close_step verifies and closes atomically", async () => {
    const workspace = "tasks/gates";
    const { task } = await planWithTask(workspace, [{ title: "a" }, { title: "b" }]);
    const blocked = await failure("tasks_done", { workspace, task, path: "s:0" });
    expect(blocked).toMatchObject({ code: "CHECKPOINTS_NOT_CONFIRMED", details: { missing: ["criteria", "tests"] } });
    await ok("tasks_verify", { workspace, task, path: "s:0", checkpoints: { criteria: { confirmed: true } } });
    expect((await failure("tasks_done", { workspace, task, path: "s:0" })).details?.missing).toEqual(["tests"]);
    await ok("tasks_verify", { workspace, task, path: "s:0", checkpoints: { tests: { confirmed: true } } });
    expect((await ok("tasks_done", { workspace, task, path: "s:0" })).step.completed).toBe(true);

    const closed = await ok("tasks_close_step", { workspace, task, step: "focus" });
    expect(closed.step).toMatchObject({ path: "s:1", completed: true, checkpoints: { criteria: true, tests: true } });
    expect(closed.events.map((event: { type: string }) => event.type)).toEqual(["step_verified", "step_done"]);
    expect((await ok("tasks_complete", { workspace, task })).entity.status).toBe("DONE");
  });

  it("requires receipts in require mode, ignores placeholders, and warns PROOF_WEAK for a missing half", async () => {
    const workspace = "tasks/proof";
    const { task } = await planWithTask(workspace, [{ title: "prove it" }]);
    await ok("tasks_define", { workspace, task, path: "s:0", proof_modes: { tests: "require" } });
    const none = await failure("tasks_close_step", { workspace, task, path: "s:0" });
    expect(none).toMatchObject({ code: "PROOF_REQUIRED", details: { checkpoints: ["tests"] } });

    // A placeholder is never proof: a write that still holds one is refused whole, naming the field.
    const placeholder = await failure("tasks_evidence_capture", { workspace, task, path: "s:0", checks: ["CMD: <fill: the command>"] });
    expect(placeholder).toMatchObject({ code: "INVALID_INPUT", details: { fields: ["checks.0"] } });
    expect((await failure("tasks_close_step", { workspace, task, path: "s:0" })).code).toBe("PROOF_REQUIRED");

    const templated = await failure("tasks_evidence_capture", {
      workspace,
      task,
      path: "s:0",
      artifacts: [{ kind: "cmd_output", command: "<FILL: the command you ran>", stdout: "ok" }],
    });
    expect(templated).toMatchObject({ code: "INVALID_INPUT", details: { fields: ["artifacts.0.command"] } });
    const half = await ok("tasks_evidence_capture", { workspace, task, path: "s:0", checks: ["CMD: npm test"] });
    expect(half.captured.receipts).toEqual({ CMD: 1, LINK: 0 });
    expect(half.warnings).toEqual([expect.objectContaining({ code: "PROOF_WEAK" })]);
    const closed = await ok("tasks_close_step", { workspace, task, path: "s:0" });
    expect(closed.step.completed).toBe(true);
    expect(closed.warnings).toEqual([expect.objectContaining({ code: "PROOF_WEAK" })]);
  });

  it("makes a checkpoint with proof part of the gate, and bounds evidence", async () => {
    const workspace = "tasks/evidence";
    const { task } = await planWithTask(workspace, [{ title: "secure it" }]);
    const both = await ok("tasks_evidence_capture", {
      workspace,
      task,
      path: "s:0",
      checkpoint: "security",
      checks: ["https://audit.example/report/1"],
      artifacts: [{ kind: "cmd_output", command: "npm audit", stdout: "0 vulnerabilities", exit_code: 0 }],
    });
    expect(both.captured.receipts).toEqual({ CMD: 1, LINK: 1 });
    expect((await failure("tasks_close_step", { workspace, task, path: "s:0" })).details?.missing).toEqual(["security"]);
    expect((await ok("tasks_close_step", { workspace, task, path: "s:0", checkpoints: "all" })).step.completed).toBe(true);
    const tooMany = await failure("tasks_evidence_capture", { workspace, task, checks: Array.from({ length: 21 }, (_, i) => `note ${i}`) });
    expect(tooMany.code).toBe("INVALID_INPUT");
    const tooBig = await failure("tasks_evidence_capture", { workspace, task, artifacts: [{ kind: "diff", diff: "x".repeat(256_001) }] });
    expect(tooBig.code).toBe("PAYLOAD_TOO_LARGE");
  });
});

describe("tasks: single organism", () => {
  it("journals every mutation, ingests it once into the task's trace, and projects it into the task's graph", async () => {
    const workspace = "tasks/organism";
    const { task, created } = await planWithTask(workspace, [{ title: "a" }, { title: "b" }]);
    await ok("tasks_close_step", { workspace, task, path: "s:0" });
    const delta = await ok("tasks_delta", { workspace, target: task });
    const types = delta.events.map((event: { type: string }) => event.type);
    expect(types).toEqual(["task_created", "steps_added", "step_verified", "step_done"]);

    const trace = await ok("show", { workspace, branch: "task/TASK-001", doc: "TASK-001-trace", limit: 50 });
    expect(trace.entries.map((entry: { meta: { event_id: string } }) => entry.meta.event_id)).toEqual(
      delta.events.map((event: { event_id: string }) => event.event_id),
    );
    expect(trace.entries.every((entry: { kind: string }) => entry.kind === "event")).toBe(true);

    const graph = await ok("graph_query", { workspace, branch: "task/TASK-001", doc: "TASK-001-graph", limit: 10 });
    const nodes = Object.fromEntries(graph.nodes.map((node: { id: string; status: string }) => [node.id, node.status]));
    expect(nodes).toEqual({ "task:TASK-001": "todo", [`step:${created.steps[0].id}`]: "done", [`step:${created.steps[1].id}`]: "open" });
    expect(graph.edges.map((edge: { from: string; rel: string; to: string }) => `${edge.from} ${edge.rel} ${edge.to}`).sort()).toEqual(
      created.steps.map((step: { id: string }) => `task:TASK-001 contains step:${step.id}`).sort(),
    );
    const planGraph = await ok("graph_query", { workspace, branch: "plan/PLAN-001", doc: "PLAN-001-graph" });
    expect(planGraph.edges).toEqual([expect.objectContaining({ from: "task:PLAN-001", rel: "contains", to: "task:TASK-001" })]);
    await ok("tasks_edit", { workspace, task, title: "Renamed", status: "ACTIVE" });
    const copy = await ok("graph_query", { workspace, branch: "plan/PLAN-001", doc: "PLAN-001-graph", ids: ["task:TASK-001"] });
    expect(copy.nodes[0]).toMatchObject({ title: "Renamed", status: "active" });

    // Agents may link to projected nodes but not write them.
    const reserved = await failure("graph_apply", {
      workspace,
      branch: "task/TASK-001",
      doc: "TASK-001-graph",
      ops: [{ op: "node_upsert", id: "task:TASK-001", type: "x" }],
    });
    expect(reserved.code).toBe("INVALID_INPUT");
  });

  it("mirrors tasks_note into the task's notes doc and tombstones the projection on delete", async () => {
    const workspace = "tasks/note-delete";
    const { task, created } = await planWithTask(workspace, [{ title: "a" }]);
    const noted = await ok("tasks_note", { workspace, task, path: "s:0", note: "Tried a write-through cache first." });
    const notes = await ok("show", { workspace, branch: "task/TASK-001", doc: "notes" });
    expect(notes.entries).toEqual([
      expect.objectContaining({
        seq: noted.note_seq,
        kind: "note",
        content: "Tried a write-through cache first.",
        meta: expect.objectContaining({
          source: "tasks_note",
          task_id: task,
          step_id: created.steps[0].id,
          event_id: noted.events[0].event_id,
        }),
      }),
    ]);

    const extra = await ok("tasks_decompose", { workspace, task, parent_path: "s:0", steps: [{ title: "child" }] });
    const removed = await ok("tasks_delete", { workspace, target: task, path: "s:0.s:0" });
    expect(removed).toMatchObject({ deleted: [extra.steps[0].id], events: [{ type: "step_deleted", path: "s:0.s:0" }] });
    // A deleted step's path is never given to another step.
    const readded = await ok("tasks_decompose", { workspace, task, parent_path: "s:0", steps: [{ title: "again" }] });
    expect(readded.steps[0].path).toBe("s:0.s:1");
    await ok("tasks_delete", { workspace, target: task, path: "s:0.s:1" });
    expect((await failure("branch_delete", { workspace, name: "task/TASK-001" })).code).toBe("INVALID_INPUT");
    // Edges agents drew to projected nodes are tombstoned with them.
    await ok("graph_apply", {
      workspace,
      target: task,
      ops: [
        { op: "node_upsert", id: "H1", type: "hypothesis" },
        { op: "edge_upsert", from: "H1", rel: "about", to: "task:TASK-001" },
      ],
    });
    expect((await ok("tasks_radar", { workspace, task })).steps.total).toBe(1);
    const afterStepDelete = await ok("graph_query", { workspace, branch: "task/TASK-001", doc: "TASK-001-graph" });
    expect(afterStepDelete.nodes.map((node: { id: string }) => node.id)).not.toContain(`step:${extra.steps[0].id}`);
    await ok("branch_create", { workspace, name: "before-delete", from: "task/TASK-001" });
    const deleted = await ok("tasks_delete", { workspace, target: task });
    expect(deleted.deleted).toEqual([task]);
    expect((await failure("tasks_radar", { workspace, target: task })).code).toBe("UNKNOWN_ID");
    const graph = await ok("graph_query", { workspace, branch: "task/TASK-001", doc: "TASK-001-graph" });
    expect(graph.nodes.map((node: { id: string }) => node.id)).toEqual(["H1"]);
    expect(graph.edges).toEqual([]);
    expect((await ok("graph_validate", { workspace, branch: "task/TASK-001", doc: "TASK-001-graph" })).ok).toBe(true);
    const diff = await ok("graph_diff", { workspace, from: "before-delete", to: "task/TASK-001", doc: "TASK-001-graph" });
    expect(diff.changes.map((change: { kind: string; change: string }) => `${change.kind} ${change.change}`).sort()).toEqual([
      "edge deleted",
      "edge deleted",
      "node deleted",
      "node deleted",
    ]);
    const planGraph = await ok("graph_query", { workspace, branch: "plan/PLAN-001", doc: "PLAN-001-graph" });
    expect(planGraph.nodes.map((node: { id: string }) => node.id)).toEqual(["task:PLAN-001"]);
    expect((await ok("tasks_delta", { workspace, target: task })).events.at(-1)?.type).toBe("task_deleted");
  });
});

describe("reasoning commands aimed at plans and tasks (seed 001 focus-first targeting)", () => {
  it("notes_commit, show, export and graph tools take a target, fall back to focus, and refuse a target with a branch", async () => {
    const workspace = "tasks/aimed";
    const alice = await as("alice");
    const { task } = await planWithTask(workspace, [{ title: "s" }]);

    // No focus: the checkout (main) is used.
    const onMain = await ok("notes_commit", { workspace, content: "on main" }, alice);
    expect(onMain.entry).toMatchObject({ branch: "main", doc: "notes" });
    // Explicit target: the task's reasoning branch and notes doc.
    const targeted = await ok("notes_commit", { workspace, target: task, content: "about the task" }, alice);
    expect(targeted.entry).toMatchObject({ branch: "task/TASK-001", doc: "notes" });
    // Focus set: target-less calls go to the focused task; an explicit branch still wins over focus.
    await ok("tasks_focus_set", { workspace, target: task }, alice);
    expect((await ok("notes_commit", { workspace, content: "through focus" }, alice)).entry.branch).toBe("task/TASK-001");
    expect((await ok("notes_commit", { workspace, branch: "main", content: "explicit branch" }, alice)).entry.branch).toBe("main");

    const notes = await ok("show", { workspace, doc_kind: "notes" }, alice);
    expect(notes).toMatchObject({ branch: "task/TASK-001", doc: "notes" });
    expect(notes.entries.map((entry: { content: string }) => entry.content)).toEqual(["about the task", "through focus"]);
    const trace = await ok("show", { workspace, target: { id: task, kind: "task" } }, alice);
    expect(trace.doc).toBe("TASK-001-trace");
    expect(trace.entries.map((entry: { title: string }) => entry.title)).toEqual(["task_created", "steps_added"]);

    const exported = await ok("export", { workspace, target: task, notes_limit: 1 }, alice);
    expect(exported).toMatchObject({
      target: task,
      branch: "task/TASK-001",
      reasoning_ref: { trace_doc: "TASK-001-trace", graph_doc: "TASK-001-graph" },
    });
    expect(exported.notes.entries.map((entry: { content: string }) => entry.content)).toEqual(["through focus"]);
    expect(exported.trace.entries).toHaveLength(2);

    const applied = await ok(
      "graph_apply",
      {
        workspace,
        target: task,
        ops: [
          { op: "node_upsert", id: "H1", type: "hypothesis" },
          { op: "edge_upsert", from: "H1", rel: "about", to: "task:TASK-001" },
        ],
      },
      alice,
    );
    expect(applied).toMatchObject({ branch: "task/TASK-001", doc: "TASK-001-graph" });
    expect((await ok("graph_query", { workspace, ids: ["H1", "task:TASK-001"] }, alice)).edges).toEqual([
      expect.objectContaining({ to: "task:TASK-001" }),
    ]);
    expect(await ok("graph_validate", { workspace }, alice)).toMatchObject({ branch: "task/TASK-001", doc: "TASK-001-graph", ok: true });

    // A doc names a place too: with a focus set, an explicit doc still means the checkout's doc.
    expect((await ok("show", { workspace, doc: "notes" }, alice)).branch).toBe("main");
    expect(
      (await ok("graph_apply", { workspace, doc: "graph", ops: [{ op: "node_upsert", id: "M", type: "note", title: "on main" }] }, alice))
        .branch,
    ).toBe("main");
    const both = await failure("notes_commit", { workspace, target: task, branch: "main", content: "x" }, alice);
    expect(both.code).toBe("INVALID_INPUT");
    expect((await failure("show", { workspace, target: task, doc: "notes" }, alice)).code).toBe("INVALID_INPUT");
    expect((await failure("graph_query", { workspace, target: "TASK-404" }, alice)).code).toBe("UNKNOWN_ID");
  });
});
