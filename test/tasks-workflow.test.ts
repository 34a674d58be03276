// End-to-end: working on tasks through the real MCP endpoint (toolset=full): step leases between agents
// (claim, release, expiry by ticks, takeover, races), the strict reasoning gate and its override, and the
// macros and templates that start, step through and finish a task.

import { describe, expect, it } from "vitest";
import { as, callTool, failure, ok } from "./helpers/mcp";
import { planWithTask } from "./helpers/tasks-fixtures";

describe("tasks: step leases", () => {
  it("lets one agent hold a step: others are refused until release, expiry by ticks, or a journaled takeover", async () => {
    const workspace = "tasks/leases";
    const alice = await as("alice");
    const bob = await as("bob");
    const { task } = await planWithTask(workspace, [{ title: "a" }, { title: "b" }, { title: "c" }]);

    const claimed = await ok("tasks_step_lease_claim", { workspace, task, path: "s:0" }, alice);
    expect(claimed.lease).toMatchObject({ path: "s:0", holder: "alice", expires_tick: claimed.events[0].tick + 2000 });
    expect(claimed.events.map((event: { type: string }) => event.type)).toEqual(["step_lease_claimed"]);
    expect((await ok("tasks_step_lease_claim", { workspace, task, path: "s:0" }, alice)).events).toEqual([]);

    const held = await failure("tasks_define", { workspace, task, path: "s:0", title: "bob's" }, bob);
    expect(held).toMatchObject({ code: "STEP_LEASE_HELD", details: { holder: "alice", expires_tick: claimed.lease.expires_tick } });
    for (const [tool, args] of [
      ["tasks_close_step", {}],
      ["tasks_note", { note: "x" }],
      ["tasks_evidence_capture", { checks: ["CMD: x"] }],
    ] as const) {
      expect((await failure(tool, { workspace, task, path: "s:0", ...args }, bob)).code).toBe("STEP_LEASE_HELD");
    }
    expect((await failure("tasks_delete", { workspace, target: task, path: "s:0" }, bob)).code).toBe("STEP_LEASE_HELD");
    expect((await failure("tasks_delete", { workspace, target: task }, bob)).code).toBe("STEP_LEASE_HELD");
    expect((await ok("tasks_define", { workspace, task, path: "s:0", title: "alice's" }, alice)).step.title).toBe("alice's");
    expect((await failure("tasks_step_lease_renew", { workspace, task, path: "s:0" }, bob)).code).toBe("STEP_LEASE_NOT_HELD");
    expect((await failure("tasks_step_lease_release", { workspace, task, path: "s:0" }, bob)).code).toBe("STEP_LEASE_NOT_HELD");
    expect((await failure("tasks_step_lease_claim", { workspace, task, path: "s:0", agent_id: "alice" }, bob)).code).toBe("FORBIDDEN");

    // Takeover is explicit and journaled.
    const taken = await ok("tasks_step_lease_claim", { workspace, task, path: "s:0", force: true }, bob);
    expect(taken.events).toEqual([
      expect.objectContaining({ type: "step_lease_taken_over", payload: expect.objectContaining({ previous_holder: "alice" }) }),
    ]);
    expect((await failure("tasks_define", { workspace, task, path: "s:0", title: "x" }, alice)).details?.holder).toBe("bob");
    expect((await ok("tasks_step_lease_release", { workspace, task, path: "s:0" }, bob)).lease).toBeNull();
    expect((await ok("tasks_define", { workspace, task, path: "s:0", title: "free again" }, alice)).step.title).toBe("free again");

    // Expiry runs on the tick clock: three more journaled writes and a 3-tick lease is gone.
    await ok("tasks_step_lease_claim", { workspace, task, path: "s:1", ticks: 3 }, alice);
    expect((await failure("tasks_define", { workspace, task, path: "s:1", title: "x" }, bob)).code).toBe("STEP_LEASE_HELD");
    for (let i = 0; i < 3; i++) await ok("notes_commit", { workspace, content: `tick ${i}` }, bob);
    const expired = await ok("tasks_step_lease_get", { workspace, task, path: "s:1" }, bob);
    expect(expired).toMatchObject({ lease: null, expired: { holder: "alice" } });
    expect((await ok("tasks_define", { workspace, task, path: "s:1", title: "bob's now" }, bob)).step.title).toBe("bob's now");
    expect((await failure("tasks_step_lease_renew", { workspace, task, path: "s:1" }, alice)).code).toBe("STEP_LEASE_NOT_HELD");
  });

  it("gives a step to exactly one of two agents claiming it at the same moment", async () => {
    const workspace = "tasks/lease-race";
    const { task } = await planWithTask(workspace, [{ title: "contended" }]);
    const agents = await Promise.all(["alice", "bob", "carol"].map((agent) => as(agent)));
    const results = await Promise.all(
      agents.map((options) => callTool("tasks_step_lease_claim", { workspace, task, path: "s:0" }, options)),
    );
    const winners = results.filter((result) => !result.isError);
    expect(winners).toHaveLength(1);
    const losers = results
      .filter((result) => result.isError)
      .map((result) => (result.structuredContent as { error: { code: string } }).error.code);
    expect(losers).toEqual(["STEP_LEASE_HELD", "STEP_LEASE_HELD"]);
    const holder = ((winners[0] as { structuredContent: unknown }).structuredContent as { lease: { holder: string } }).lease.holder;
    expect((await ok("tasks_step_lease_get", { workspace, task, path: "s:0" })).lease.holder).toBe(holder);
  });
});

describe("tasks: strict reasoning", () => {
  it("closes a strict step only with a tested, countered hypothesis, or with a journaled override", async () => {
    const workspace = "tasks/strict";
    const plan = await ok("tasks_create", { workspace, title: "P" });
    const task = await ok("tasks_create", {
      workspace,
      parent: plan.id,
      title: "Pick a cache",
      reasoning_mode: "strict",
      steps: [{ title: "choose" }, { title: "ship" }],
    });
    expect(task.entity.reasoning_mode).toBe("strict");
    const refused = await failure("tasks_close_step", { workspace, task: task.id, path: "s:0" });
    expect(refused).toMatchObject({ code: "REASONING_REQUIRED", details: { missing: ["hypothesis_with_test", "counter_argument"] } });

    await ok("think_add_hypothesis", { workspace, target: task.id, id: "H", title: "LRU is enough" });
    await ok("think_add_test", { workspace, target: task.id, id: "T", title: "Hit rate over 90%", supports: ["H"] });
    expect((await failure("tasks_close_step", { workspace, task: task.id, path: "s:0" })).details?.missing).toEqual(["counter_argument"]);
    // Blocking evidence is not a counter-argument, and neither is another agent's draft.
    await ok("think_add_evidence", { workspace, target: task.id, id: "EV", title: "a benchmark", blocks: ["H"] });
    await ok(
      "think_add_hypothesis",
      { workspace, target: task.id, id: "BOB-C", title: "bob's doubt", blocks: ["H"], tags: ["counter"], lane: "agent" },
      await as("bob"),
    );
    expect((await failure("tasks_close_step", { workspace, task: task.id, path: "s:0" })).details?.missing).toEqual(["counter_argument"]);
    await ok("think_add_hypothesis", {
      workspace,
      target: task.id,
      id: "C",
      title: "Scans evict hot keys",
      blocks: ["H"],
      tags: ["counter"],
    });
    expect((await ok("tasks_close_step", { workspace, task: task.id, path: "s:0" })).step.completed).toBe(true);

    const overridden = await ok("tasks_close_step", {
      workspace,
      task: task.id,
      path: "s:1",
      override: { reason: "hotfix", risk: "untested eviction" },
    });
    expect(overridden.warnings).toEqual([expect.objectContaining({ code: "STRICT_OVERRIDE_APPLIED" })]);
    const events = (await ok("tasks_delta", { workspace, target: task.id })).events.map((event: { type: string }) => event.type);
    expect(events).toContain("strict_override");
    // Normal tasks ignore the gate.
    await ok("tasks_edit", { workspace, task: task.id, reasoning_mode: "normal" });
    expect((await ok("tasks_radar", { workspace, task: task.id })).target.reasoning_mode).toBe("normal");
  });
});

describe("tasks: macros and templates", () => {
  it("starts from a template in the Inbox and focuses it, closes steps one call each, and finishes once", async () => {
    const workspace = "tasks/macros";
    const alice = await as("alice");
    const templates = await ok("tasks_templates_list", { workspace }, alice);
    expect(templates.templates.map((t: { id: string }) => t.id)).toEqual(["basic-task", "principal-task", "basic-plan", "principal-plan"]);

    const started = await ok("tasks_macro_start", { workspace, title: "Fix the flaky test" }, alice);
    expect(started).toMatchObject({ task_id: "TASK-001", plan_id: "PLAN-001", template: "basic-task", focus: "TASK-001" });
    expect(started.steps.map((step: { path: string }) => step.path)).toEqual(["s:0", "s:1", "s:2"]);
    expect(started.events.map((event: { type: string }) => event.type)).toEqual(["plan_created", "task_created", "steps_added"]);
    expect((await ok("tasks_radar", { workspace, target: "PLAN-001" }, alice)).target.title).toBe("Inbox");
    expect((await ok("tasks_focus_get", { workspace }, alice)).focus).toBe("TASK-001");

    // A second start while focused on a task files the new task under the same plan.
    const second = await ok("tasks_macro_start", { workspace, title: "Second", template: "principal-task" }, alice);
    expect(second.plan_id).toBe("PLAN-001");
    expect(second.steps[3]).toMatchObject({ path: "s:3", proof_modes: { tests: "require" } });
    const mismatch = await failure("tasks_macro_start", { workspace, title: "x", plan: "PLAN-001", plan_title: "Not the inbox" }, alice);
    expect(mismatch.code).toBe("INVALID_INPUT");
    const planned = await ok("tasks_macro_start", { workspace, title: "Planned", plan: "Release 2", plan_template: "basic-plan" }, alice);
    expect(planned.plan_id).toBe("PLAN-002");
    expect((await ok("tasks_radar", { workspace, target: "PLAN-002" }, alice)).target.contract).toContain("- [ ] Scope");

    await ok("tasks_focus_set", { workspace, target: "TASK-001" }, alice);
    const early = await failure("tasks_macro_finish", { workspace }, alice);
    expect(early.code).toBe("INVALID_INPUT");
    expect(early.actions?.[0]?.tool).toBe("tasks_macro_close_step");
    for (const path of ["s:0", "s:1", "s:2"]) {
      const closed = await ok("tasks_macro_close_step", { workspace }, alice);
      expect(closed.closed.path).toBe(path);
    }
    const finished = await ok("tasks_macro_finish", { workspace, final_note: "Root cause: a shared temp dir." }, alice);
    expect(finished).toMatchObject({ task: "TASK-001", status: "DONE", events: [{ type: "task_completed" }] });
    const again = await ok("tasks_macro_finish", { workspace }, alice);
    expect(again).toMatchObject({ status: "DONE", events: [] });
    expect(again.warnings).toEqual([expect.objectContaining({ code: "ALREADY_DONE" })]);
    const notes = await ok("show", { workspace, target: "TASK-001", doc_kind: "notes" }, alice);
    expect(notes.entries.map((entry: { content: string }) => entry.content)).toEqual(["Root cause: a shared temp dir."]);
    expect((await ok("tasks_macro_close_step", { workspace }, alice)).warnings).toEqual([
      expect.objectContaining({ code: "ALREADY_DONE" }),
    ]);

    // The principal template's proof step refuses to close without receipts.
    await ok("tasks_focus_set", { workspace, target: second.task_id }, alice);
    for (let i = 0; i < 3; i++) await ok("tasks_macro_close_step", { workspace }, alice);
    expect((await failure("tasks_macro_close_step", { workspace }, alice)).code).toBe("PROOF_REQUIRED");
  });
});
