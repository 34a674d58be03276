// Seed contracts that acceptance testing found missing, through the real MCP endpoint: the portal
// envelope's `view: "compact"` (seed 002), UNKNOWN_OP naming the closest op, `open` of knowledge cards
// (seed 002: cards are the cross-session memory unit), and `diagnostics` (seed 001).

import { describe, expect, it } from "vitest";
import { failure, ok, type RpcOptions } from "./helpers/mcp";
import { paste } from "./helpers/suggestions";

const PORTALS: RpcOptions = { path: "/mcp?toolset=portals" };

async function focusedTask(workspace: string) {
  const plan = await ok("tasks_create", { workspace, title: "Plan" });
  const task = await ok("tasks_create", {
    workspace,
    parent: plan.id,
    title: "Task",
    steps: [{ title: "One" }, { title: "Two" }, { title: "Three" }],
  });
  await ok("tasks_focus_set", { workspace, target: task.id });
  for (let i = 1; i <= 6; i++) await ok("tasks_note", { workspace, task: task.id, note: `Step note ${i}: what was found and why.` });
  return task.id as string;
}

describe("seed gaps", () => {
  it("the envelope's view compact answers the focus_only sections with the compact capsule, smaller than smart", async () => {
    const workspace = "gaps/compact";
    const task = await focusedTask(workspace);
    const compact = await ok("tasks", { workspace, op: "snapshot", view: "compact" }, PORTALS);
    const smart = await ok("tasks", { workspace, op: "snapshot", view: "smart" }, PORTALS);
    expect(compact.view).toBe("compact");
    expect(compact.target.id).toBe(task);
    // focus_only sections: the step in focus only, at most 3 notes.
    expect(compact.steps.map((step: { path: string }) => step.path)).toEqual(["s:0"]);
    expect(compact.memory.notes.length).toBeLessThanOrEqual(3);
    // The compact capsule: the ids of where, and the best action, pasteable.
    expect(compact.capsule.where).toEqual({
      workspace,
      branch: smart.capsule.where.branch,
      focus: task,
      target: { id: task },
      step_focus: { step_id: smart.capsule.where.step_focus.step_id },
    });
    expect(compact.capsule).not.toHaveProperty("why");
    expect(compact.capsule.next.action).toEqual(smart.capsule.next.action);
    expect((await paste(compact.capsule.next.action, PORTALS)).isError).toBeFalsy();
    expect(JSON.stringify(compact).length).toBeLessThan(JSON.stringify(smart).length);
    // The flat tools take it too.
    expect((await ok("tasks_resume_super", { workspace, view: "compact" })).view).toBe("compact");
  });

  it("an unknown op names the portal's closest op and points at its schema, never at another op", async () => {
    const typo = await failure("think", { workspace: "gaps/op", op: "knowledge.recal", args: {} }, PORTALS);
    expect(typo.code).toBe("UNKNOWN_OP");
    expect(typo.details).toMatchObject({ did_you_mean: "knowledge.recall" });
    expect(typo.recovery_hint).toContain('Did you mean op "knowledge.recall"?');
    expect(typo.actions?.[0]).toMatchObject({ tool: "system", args: { op: "schema.get", args: { cmd: "think.knowledge.recall" } } });
    const other = await failure("vcs", { workspace: "gaps/op", op: "lgo" }, PORTALS);
    expect(other.details).toMatchObject({ did_you_mean: "log" });
  });

  it("open reaches a knowledge card whatever the checkout and focus, and an unknown one points at knowledge_query", async () => {
    const workspace = "gaps/knowledge";
    const written = await ok("knowledge_upsert", {
      workspace,
      anchor: "a:storage",
      key: "wal-mode",
      card: "Claim: WAL mode keeps readers off the writer.",
    });
    const id = written.card_id as string;
    expect(id).toMatch(/^CARD-KN-/);
    await focusedTask(workspace);
    await ok("branch_create", { workspace, name: "elsewhere" });
    await ok("checkout", { workspace, ref: "elsewhere" });
    const opened = await ok("open", { workspace, id });
    expect(opened).toMatchObject({
      kind: "card",
      ref: id,
      card: { id, text: expect.stringContaining("WAL mode") },
      head: { branch: "kb/main" },
    });
    const missing = await failure("open", { workspace, id: "CARD-KN-0000000000000000" });
    expect(missing.code).toBe("UNKNOWN_ID");
    expect(missing.actions?.[0]).toMatchObject({ tool: "knowledge_query" });
  });

  it("diagnostics answers where you are, the target's context health and its lint in one call", async () => {
    const workspace = "gaps/diagnostics";
    const fresh = await ok("diagnostics", { workspace });
    expect(fresh).toMatchObject({ workspace, checkout: "main", focus: null, target: null, context_health: { status: "no_target" } });
    expect(fresh.golden_path.length).toBeGreaterThan(0);
    const plan = await ok("tasks_create", { workspace, title: "Plan" });
    const task = await ok("tasks_create", { workspace, parent: plan.id, title: "Task", steps: [{ title: "One" }] });
    // Only task events so far: trace, no reasoning.
    const bare = await ok("diagnostics", { workspace, target: task.id });
    expect(bare.target).toMatchObject({ id: task.id, kind: "task", title: "Task" });
    expect(bare.context_health).toMatchObject({ status: "trace_only", has: { notes: false, trace: true, cards: false } });
    expect(bare.context_health.reasoning_ref).toMatchObject({ branch: `task/${task.id}` });
    expect(bare.warnings.map((warning: { code: string }) => warning.code)).toContain("TRACE_ONLY");
    expect(bare).not.toHaveProperty("golden_path");
    const codes = bare.context_health.lint.issues.map((issue: { code: string }) => issue.code);
    expect(codes).toEqual(expect.arrayContaining(["MISSING_CRITERIA", "MISSING_TESTS"]));
    for (const issue of bare.context_health.lint.issues) expect(issue.recovery.length).toBeGreaterThan(0);
    expect(bare.context_health.lint.summary.total).toBe(bare.context_health.lint.issues.length);
    // With a note on it and the focus set, the target defaults to the focus and its context is ok.
    await ok("notes_commit", { workspace, target: task.id, content: "Why this task exists." });
    await ok("tasks_focus_set", { workspace, target: task.id });
    const focused = await ok("diagnostics", { workspace });
    expect(focused).toMatchObject({ focus: task.id, target: { id: task.id }, context_health: { status: "ok", has: { notes: true } } });
    expect((focused.warnings ?? []).map((warning: { code: string }) => warning.code)).not.toContain("TRACE_ONLY");
    // Through the system portal by its seed name.
    const portal = await ok("system", { workspace, op: "call", cmd: "diagnostics" }, PORTALS);
    expect(portal.target.id).toBe(task.id);
  });

  it("an idea branch merges its notes and graph back into its base, idempotently, with conflicts explicit", async () => {
    const workspace = "gaps/idea";
    await ok("think_card", { workspace, card: { id: "H1", type: "hypothesis", title: "The cache is cold", text: "Base view." } });
    const created = await ok("idea.branch.create", { workspace, name: "idea/cache", content: "Try a warm-up at start." });
    expect(created).toMatchObject({ branch: { name: "idea/cache", created: true, base_branch: "main" }, checkout: "idea/cache" });
    await ok("think_card", { workspace, card: { id: "E1", type: "evidence", title: "Warm-up halves p95", text: "Measured." } });
    await ok("think_set_status", { workspace, card_id: "H1", status: "confirmed" });
    // Meanwhile main changes H1 too: a conflict, not a silent overwrite.
    await ok("think_set_status", { workspace, branch: "main", card_id: "H1", status: "rejected" });
    const preview = await ok("idea_branch_merge", { workspace, dry_run: true });
    expect(preview).toMatchObject({ from: "idea/cache", into: "main", dry_run: true, notes: { merged: 1 } });
    const merged = await ok("idea.branch.merge", { workspace });
    expect(merged).toMatchObject({
      from: "idea/cache",
      into: "main",
      has_more: false,
      notes: { doc: "notes", merged: 1 },
      graph: { doc: "graph" },
    });
    expect(merged.graph.merged).toBeGreaterThan(0);
    expect(merged.graph.conflicts_created).toBe(1);
    expect(merged.graph.conflicts[0]).toMatchObject({ key: "H1", status: "open" });
    const onMain = await ok("show", { workspace, branch: "main", doc: "notes" });
    expect(onMain.entries.map((entry: { content: string }) => entry.content)).toContain("Try a warm-up at start.");
    const cards = await ok("think_query", { workspace, branch: "main", ids: ["E1"] });
    expect(cards.cards.map((card: { title: string }) => card.title)).toEqual(["Warm-up halves p95"]);
    const again = await ok("idea_branch_merge", { workspace, from: "idea/cache" });
    expect(again).toMatchObject({ notes: { merged: 0 }, graph: { merged: 0, conflicts_created: 0 } });
    // main has no base: a typed error that says what to pass.
    const refused = await failure("idea_branch_merge", { workspace, from: "main" });
    expect(refused.code).toBe("MERGE_NOT_SUPPORTED");
    expect(refused.recovery_hint).toContain("idea branch");
    // The seed 002 names resolve, in schema.get too.
    for (const cmd of ["think.idea.branch.merge", "idea.branch.merge", "idea.branch.create"]) {
      expect((await ok("schema_get", { workspace, cmd })).cmd, cmd).toMatch(/^think\.idea\.branch\./);
    }
    for (const [cmd, name] of [
      ["think.reasoning.seed", "think.template"],
      ["reasoning.seed", "think.template"],
      ["think.reasoning.pipeline", "think.pipeline"],
      ["reasoning.pipeline", "think.pipeline"],
    ]) {
      expect((await ok("schema_get", { workspace, cmd })).cmd, cmd).toBe(name);
    }
    const seeded = await ok("think", { workspace, op: "reasoning.seed" }, PORTALS);
    expect(seeded).toMatchObject({ type: "frame", template: expect.any(Object) });
  });
});
