// End-to-end: the tasks subsystem's views through the real MCP endpoint (toolset=full): context, delta and
// diagnostics in id order with paging, filters and bounds; lint with its issues and the patches that fix them.

import { describe, expect, it } from "vitest";
import { MIN_BUDGET_CHARS } from "../src/shared/limits";
import { ok } from "./helpers/mcp";

describe("tasks: views", () => {
  it("lists plans and tasks in id order with paging and filters, and bounds every read", async () => {
    const workspace = "tasks/context";
    const plan = await ok("tasks_create", { workspace, title: "P" });
    for (let i = 0; i < 5; i++) await ok("tasks_create", { workspace, parent: plan.id, title: `T${i}` });
    await ok("tasks_edit", { workspace, task: "TASK-002", status: "ACTIVE" });
    const first = await ok("tasks_context", { workspace, tasks_limit: 2 });
    expect(first.counts).toEqual({ plans: 1, tasks: 5, capped: false });
    expect(first.tasks.map((t: { id: string }) => t.id)).toEqual(["TASK-001", "TASK-002"]);
    expect(first.tasks_pagination).toMatchObject({ has_more: true, next_cursor: "TASK-002" });
    const rest = await ok("tasks_context", { workspace, tasks_limit: 10, tasks_cursor: first.tasks_pagination.next_cursor });
    expect(rest.tasks.map((t: { id: string }) => t.id)).toEqual(["TASK-003", "TASK-004", "TASK-005"]);
    expect((await ok("tasks_context", { workspace, tasks_status: ["ACTIVE"] })).tasks.map((t: { id: string }) => t.id)).toEqual([
      "TASK-002",
    ]);

    const all = await ok("tasks_delta", { workspace, limit: 50 });
    const trimmed = await ok("tasks_delta", { workspace, limit: 50, max_chars: 900 });
    expect(trimmed.budget.truncated).toBe(true);
    const shown = trimmed.events.length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(all.events.length);
    expect(trimmed.events.map((e: { tick: number }) => e.tick)).toEqual(all.events.slice(0, shown).map((e: { tick: number }) => e.tick));
    expect(trimmed.pagination).toMatchObject({ has_more: true, next_cursor: trimmed.events[shown - 1].tick });
    const resumed = await ok("tasks_delta", { workspace, since: trimmed.pagination.next_cursor, limit: 1 });
    expect(resumed.events[0].tick).toBe(all.events[shown].tick);
    const delta = await ok("tasks_delta", { workspace, limit: 3 });
    expect(delta.events).toHaveLength(3);
    expect(delta.pagination.has_more).toBe(true);
    const next = await ok("tasks_delta", { workspace, since: delta.pagination.next_cursor, limit: 50 });
    expect(next.events[0].tick).toBeGreaterThan(delta.events[2].tick);
    expect(next.events[next.events.length - 1]).toMatchObject({ type: "task_edited", task: "TASK-002" });

    await ok("tasks_decompose", { workspace, task: "TASK-002", steps: [{ title: "undefined step" }] });
    await ok("tasks_block", { workspace, task: "TASK-002", path: "s:0", reason: "needs a key" });
    const diagnostics = await ok("tasks_diagnostics", { workspace });
    const codes = diagnostics.issues.map((issue: { code: string; target?: string }) => `${issue.code} ${issue.target ?? ""}`);
    expect(codes).toContain("BLOCKED_STEPS TASK-002");
    expect(codes).toContain("NO_STEPS TASK-001");
    expect(codes).toContain("MISSING_CRITERIA TASK-002");
    expect(diagnostics.summary.total).toBe(diagnostics.issues.length);
    expect(diagnostics.issues[0].severity).toBe("warning");
    expect(
      diagnostics.issues.every((issue: { recovery: string; patch?: { tool: string } }) => issue.recovery.length > 0 && issue.patch),
    ).toBe(true);
    const narrowed = await ok("tasks_diagnostics", { workspace, target: "TASK-002" });
    expect(narrowed.checked.tasks).toBe(1);

    for (const [tool, args] of [
      ["tasks_diagnostics", {}],
      ["tasks_context", {}],
      ["tasks_delta", {}],
      ["tasks_radar", { target: "TASK-001" }],
      ["tasks_focus_get", {}],
    ] as const) {
      const tight = await ok(tool, { workspace, ...args, max_chars: MIN_BUDGET_CHARS });
      expect(tight.budget.used_chars).toBeLessThanOrEqual(MIN_BUDGET_CHARS);
    }
  });
});

describe("tasks: lint", () => {
  it("reports what keeps a task unverifiable, unproven or unnavigable, with patches that fix it", async () => {
    const workspace = "tasks/lint";
    const plan = await ok("tasks_create", { workspace, title: "P" });
    const task = await ok("tasks_create", {
      workspace,
      parent: plan.id,
      title: "T",
      steps: [{ title: "defined", success_criteria: ["done"], tests: ["npm test"] }, { title: "bare" }],
    });
    await ok("tasks_edit", { workspace, task: task.id, status: "ACTIVE" });
    await ok("tasks_define", { workspace, task: task.id, path: "s:0", proof_modes: { tests: "require" } });
    await ok("tasks_block", { workspace, task: task.id, path: "s:1", reason: "waiting" });
    await ok("tasks_focus_set", { workspace, target: task.id });

    const lint = await ok("tasks_lint", { workspace });
    expect(lint.target).toBe(task.id);
    const found = lint.issues.map((issue: { code: string; path?: string }) => `${issue.code} ${issue.path ?? ""}`);
    expect(found.sort()).toEqual([
      "BLOCKED_STEPS s:1",
      "MISSING_CRITERIA s:1",
      "MISSING_NEXT_ACTION s:0",
      "MISSING_PROOF_TESTS s:0",
      "MISSING_TESTS s:1",
    ]);
    expect(lint.summary).toMatchObject({ warnings: 4, info: 1, total: 5 });
    expect(lint.issues.map((issue: { kind: string }) => issue.kind)).toEqual([
      "unbounded",
      "unnavigable",
      "unproveable",
      "unverifiable",
      "unnavigable",
    ]);
    const patch = lint.patches.find((p: { id: string }) => p.id === "MISSING_NEXT_ACTION:TASK-001:s:0");
    expect(patch.apply).toEqual({
      tool: "tasks_define",
      args: { workspace, task: task.id, path: "s:0", next_action: "<fill: next move>" },
      purpose: expect.any(String),
    });
    // A patch is a valid call once its placeholders are filled.
    await ok(patch.apply.tool, { ...patch.apply.args, next_action: "run the suite" });
    const after = await ok("tasks_lint", { workspace, patches_limit: 2 });
    expect(after.issues.map((issue: { code: string }) => issue.code)).not.toContain("MISSING_NEXT_ACTION");
    expect(after.patches).toHaveLength(2);
    expect((await ok("tasks_lint", { workspace, max_chars: MIN_BUDGET_CHARS })).budget.used_chars).toBeLessThanOrEqual(MIN_BUDGET_CHARS);

    for (let i = 0; i < 4; i++) {
      const extra = await ok("tasks_create", { workspace, parent: plan.id, title: `busy ${i}` });
      await ok("tasks_edit", { workspace, task: extra.id, status: "ACTIVE" });
    }
    const planLint = await ok("tasks_lint", { workspace, target: plan.id });
    expect(planLint.issues.map((issue: { code: string }) => issue.code)).toContain("ACTIVE_LIMIT_EXCEEDED");
  });
});
