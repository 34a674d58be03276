// The HUD (seed 003's capsule) follows the work: per workspace state, the best action of `status` is the
// kind of move the state calls for, for the state's owner and for a newcomer, and the same state gives
// byte-identical capsules.

import { describe, expect, it } from "vitest";
import { NEWCOMER, OWNER, STATES, stateNamed } from "./crawl/states";
import { as, ok } from "./helpers/mcp";
import { moveOf } from "./helpers/suggestions";

const PORTALS = { path: "/mcp?toolset=portals" };

async function bestMove(workspace: string, agent: string) {
  const answer = await ok("status", { workspace }, { ...PORTALS, ...(await as(agent)) });
  return { capsule: answer.capsule, move: moveOf(answer.capsule.next.action) };
}

describe("the best action follows the work", () => {
  it("in an empty workspace: create a plan", async () => {
    const workspace = "hud/empty";
    expect((await bestMove(workspace, OWNER)).move).toBe("tasks plan.create");
  });

  it("with a plan and no focus: take it up; once focused, start its first task", async () => {
    const workspace = "hud/plan";
    await stateNamed("plan-only").build(workspace);
    const { capsule, move } = await bestMove(workspace, OWNER);
    expect(move).toBe("tasks.focus.set");
    expect(capsule.next.action.args.args).toEqual({ target: "PLAN-001" });
    expect(capsule.why[0]).toContain("PLAN-001");
  });

  it("on a focused task's open step: a progress write for the owner; a newcomer is offered the ready task to take", async () => {
    const workspace = "hud/task";
    await stateNamed("task-with-steps").build(workspace);
    const owner = await bestMove(workspace, OWNER);
    expect(owner.move).toBe("tasks.note");
    const newcomer = await bestMove(workspace, NEWCOMER);
    expect(newcomer.move).toBe("tasks.take");
    expect(newcomer.capsule.where).toMatchObject({ focus: null, target: { id: "TASK-001" }, step_focus: { path: "s:0" } });
  });

  it("says who holds the open step of the task it points a newcomer to", async () => {
    const workspace = "hud/leased";
    await stateNamed("step-leased-by-another").build(workspace);
    const newcomer = await bestMove(workspace, NEWCOMER);
    expect(newcomer.move).toBe("tasks.focus.set");
    expect(newcomer.capsule.next.action.purpose).toContain("leased by crawl-other");
    expect(newcomer.capsule.why.join(" ")).toContain("leased by crawl-other");
    // The owner holds the focus, and another agent the step: find out about the lease.
    expect((await bestMove(workspace, OWNER)).move).toBe("tasks.step.lease.get");
  });

  it("on an open graph conflict: show it first, then the move it held back; resolving it lets the work come back", async () => {
    const workspace = "hud/conflict";
    await stateNamed("graph-conflict").build(workspace);
    const owner = await ok("status", { workspace }, { ...PORTALS, ...(await as(OWNER)) });
    expect(moveOf(owner.capsule.next.action)).toBe("graph.conflict.show");
    expect(owner.capsule.why[0]).toMatch(/^open graph conflict on H \(CONFLICT-[0-9a-f]+\) in main/);
    // The backup is the move ranked next: here the engine's finding in the checkout (H has no test).
    const heldBack = moveOf(owner.capsule.next.backup);
    expect(heldBack).toBe("think.add.test");
    const shown = await ok(owner.capsule.next.action.tool, owner.capsule.next.action.args, { ...PORTALS, ...(await as(OWNER)) });
    const conflictId = shown.conflict.conflict_id as string;
    await ok(
      "graph_conflict_resolve",
      { workspace, conflict_id: conflictId, resolution: "use_into" },
      { path: "/mcp?toolset=full", ...(await as(OWNER)) },
    );
    expect((await bestMove(workspace, OWNER)).move).toBe(heldBack);
  });

  it("asks to run a test with the command the test card records, in its text or its meta", async () => {
    const workspace = "hud/runnable";
    const full = { path: "/mcp?toolset=full", ...(await as(OWNER)) };
    await ok("think_add_hypothesis", { workspace, id: "H1", title: "Misses dominate" }, full);
    await ok(
      "think_add_test",
      { workspace, id: "T1", title: "Count misses", text: "CMD: npm run check -- --misses", supports: ["H1"] },
      full,
    );
    const next = await ok("think_next", { workspace }, full);
    const run = [next.next, next.backup].find((move) => move?.kind === "run_test");
    expect(run?.calls[0]).toMatchObject({ tool: "think_add_evidence", args: { workspace, supports: ["T1"] } });
    expect(run.calls[0].args.text).toContain("CMD: npm run check -- --misses");
  });

  it("points past a deleted focus to the open work, deterministically", async () => {
    const workspace = "hud/deleted";
    await stateNamed("focus-on-deleted-task").build(workspace);
    const first = await bestMove(workspace, OWNER);
    expect(first.capsule.where.focus).toBeNull();
    expect(first.move).toBe("tasks.focus.set");
    expect(first.capsule.next.action.args.args).toEqual({ target: "PLAN-001" });
    expect(JSON.stringify((await bestMove(workspace, OWNER)).capsule)).toBe(JSON.stringify(first.capsule));
  });
});

/** Per crawler state, the kind of best move for its owner and for a newcomer (docs/portals.md "What waits"). */
const BEST_MOVES: Record<string, { owner: string; newcomer: string }> = {
  empty: { owner: "tasks plan.create", newcomer: "tasks plan.create" },
  "plan-only": { owner: "tasks.focus.set", newcomer: "tasks.focus.set" },
  "task-with-steps": { owner: "tasks.note", newcomer: "tasks.take" },
  "step-leased-by-another": { owner: "tasks.step.lease.get", newcomer: "tasks.focus.set" },
  "graph-conflict": { owner: "graph.conflict.show", newcomer: "graph.conflict.show" },
  "another-agents-drafts": { owner: "think.add.test", newcomer: "think.add.test" },
  "stale-evidence": { owner: "think.add.evidence", newcomer: "think.add.evidence" },
  // The engine ranks a hypothesis with no test (high) before rechecking after the changed assumption (medium).
  "changed-assumption": { owner: "think.add.test", newcomer: "think.add.test" },
  "knowledge-cards": { owner: "tasks plan.create", newcomer: "tasks plan.create" },
  "record-sync-session": { owner: "records sync", newcomer: "tasks plan.create" },
  "queued-job": { owner: "jobs claim", newcomer: "jobs claim" },
  "focus-on-deleted-task": { owner: "tasks.focus.set", newcomer: "tasks.focus.set" },
  // Another agent has taken TASK-001: TASK-002 is ready for anyone else.
  "tasks-waiting-and-taken": { owner: "tasks.take", newcomer: "tasks.take" },
  // The owner took TASK-002 (its focus: work its open step); nothing is ready for a newcomer, who looks at a blocker.
  "nothing-ready": { owner: "tasks.note", newcomer: "open" },
};

describe("per crawler state", () => {
  it("the best move is the kind the state calls for, for its owner and a newcomer, and the same state gives the same capsule", async () => {
    expect(Object.keys(BEST_MOVES).sort()).toEqual(STATES.map((candidate) => candidate.name).sort());
    const seen: Record<string, { owner: string; newcomer: string }> = {};
    for (const candidate of STATES) {
      const workspace = `hud-kinds/${candidate.name}`;
      await candidate.build(workspace);
      const owner = await bestMove(workspace, OWNER);
      const newcomer = await bestMove(workspace, NEWCOMER);
      seen[candidate.name] = { owner: owner.move, newcomer: newcomer.move };
      expect(JSON.stringify((await bestMove(workspace, OWNER)).capsule), candidate.name).toBe(JSON.stringify(owner.capsule));
    }
    expect(seen).toEqual(BEST_MOVES);
  });
});
