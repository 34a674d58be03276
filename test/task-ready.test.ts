// Work that waits on other work (docs/tasks.md "Dependencies, taking a task and the ready queue"),
// through the real endpoint: dependencies with their refusals (a cycle, a missing task, a plan), what
// finishing and deleting a blocker release, the `blocks` edge in the plan's graph, taking a task (the
// claim covers every step until it ends: released, expired, finished), the ready queue's order, filter
// and pages, and 20 agents taking 5 tasks at once.
import { describe, expect, it } from "vitest";
import { as, callTool, failure, ok, type RpcOptions } from "./helpers/mcp";

type Args = Record<string, unknown>;

async function task(workspace: string, plan: string, title: string, extra: Args = {}, who?: RpcOptions): Promise<string> {
  return (await ok("tasks_create", { workspace, parent: plan, title, ...extra }, who)).id as string;
}

async function readyIds(workspace: string, who?: RpcOptions, extra: Args = {}): Promise<string[]> {
  const page = await ok("tasks_ready", { workspace, ...extra }, who);
  return (page.items as { id: string }[]).map((item) => item.id);
}

/** Pastes a rendered suggestion (full toolset: a flat tool and its arguments). */
async function paste(suggestion: { tool: string; args: Args }, who?: RpcOptions) {
  return callTool(suggestion.tool, suggestion.args, who);
}

describe("dependencies", () => {
  it("keep a waiting task out of the queue until every blocker is finished, and finishing names what it made ready", async () => {
    const workspace = "ready/deps";
    const plan = (await ok("tasks_create", { workspace, title: "Ship" })).id as string;
    const t1 = await task(workspace, plan, "Schema");
    const t2 = await task(workspace, plan, "API");
    const t3 = await ok("tasks_create", { workspace, parent: plan, title: "Release", blocked_by: [t1, t2] });
    expect(t3.blocked_by.map((blocker: Args) => blocker.id)).toEqual([t1, t2]);
    expect(t3.events.filter((event: Args) => event.type === "dependency_added")).toHaveLength(2);
    expect(await readyIds(workspace)).toEqual([t1, t2]);

    const first = await ok("tasks_complete", { workspace, target: t1 });
    expect(first.made_ready).toBeUndefined();
    const second = await ok("tasks_complete", { workspace, target: t2, status: "CANCELED" });
    expect(second.made_ready).toEqual([t3.id]);
    expect(await readyIds(workspace)).toEqual([t3.id]);

    // The plan's graph shows each dependency as a `blocks` edge into the waiting task.
    const graph = await ok("graph_query", { workspace, branch: `plan/${plan}`, doc: `${plan}-graph` });
    const blocks = (graph.edges as { from: string; rel: string; to: string }[]).filter((edge) => edge.rel === "blocks");
    expect(blocks.map((edge) => `${edge.from}>${edge.to}`).sort()).toEqual([`task:${t1}>task:${t3.id}`, `task:${t2}>task:${t3.id}`]);
  });

  it("refuse a cycle naming it, a missing task and a plan; edit replaces them; deleting a blocker releases its tasks", async () => {
    const workspace = "ready/refusals";
    const plan = (await ok("tasks_create", { workspace, title: "Ship" })).id as string;
    const a = await task(workspace, plan, "A");
    const b = await task(workspace, plan, "B", { blocked_by: [a] });
    const c = await task(workspace, plan, "C", { blocked_by: [b] });

    const cycle = await failure("tasks_dependency_add", { workspace, task: a, blocked_by: [c] });
    expect(cycle.code).toBe("INVALID_INPUT");
    expect(cycle.details?.cycle).toEqual([a, c, b, a]);
    expect(cycle.message).toContain(`${a} waits for ${c} waits for ${b} waits for ${a}`);
    expect(cycle.actions?.[0]).toMatchObject({ tool: "tasks_dependency_remove", args: { task: c, blocked_by: [b] } });
    expect((await failure("tasks_dependency_add", { workspace, task: a, blocked_by: [a] })).code).toBe("INVALID_INPUT");
    expect((await failure("tasks_dependency_add", { workspace, task: a, blocked_by: ["TASK-999"] })).code).toBe("UNKNOWN_ID");
    expect((await failure("tasks_dependency_add", { workspace, task: a, blocked_by: [plan] })).code).toBe("INVALID_INPUT");
    // A refused change writes nothing: a still waits for nothing.
    expect(await readyIds(workspace)).toEqual([a]);

    const edited = await ok("tasks_edit", { workspace, target: c, blocked_by: [a] });
    expect(edited.blocked_by.map((blocker: Args) => blocker.id)).toEqual([a]);
    const cleared = await ok("tasks_edit", { workspace, target: c, blocked_by: [] });
    expect(cleared.blocked_by).toEqual([]);
    expect(await readyIds(workspace)).toEqual([a, c]);

    const removed = await ok("tasks_dependency_remove", { workspace, task: b, blocked_by: [a] });
    expect(removed).toMatchObject({ blocked_by: [], waiting: false });
    await ok("tasks_dependency_add", { workspace, task: b, blocked_by: [c] });
    const deleted = await ok("tasks_delete", { workspace, target: c });
    expect(deleted.events.map((event: Args) => [event.type, event.task, (event.payload as Args).reason])).toContainEqual([
      "dependency_removed",
      b,
      "deleted",
    ]);
    expect(await readyIds(workspace)).toEqual([a, b]);
  });
});

describe("dependencies at their bounds", () => {
  it("keep every copy of a blocker current, in more than 50 other plans", async () => {
    const workspace = "ready/many-plans";
    const home = (await ok("tasks_create", { workspace, title: "Home" })).id as string;
    const blocker = await task(workspace, home, "Shared schema");
    const plans: string[] = [];
    for (let index = 0; index < 52; index++) {
      const plan = (await ok("tasks_create", { workspace, title: `Team ${index}` })).id as string;
      await task(workspace, plan, `Uses the schema ${index}`, { blocked_by: [blocker] });
      plans.push(plan);
    }
    await ok("tasks_complete", { workspace, target: blocker });
    // The last plans made (past any bound of 50) show the blocker done, as the first do.
    for (const plan of [plans[0] as string, plans[50] as string, plans[51] as string]) {
      const graph = await ok("graph_query", { workspace, branch: `plan/${plan}`, doc: `${plan}-graph` });
      expect((graph.nodes as { id: string; status?: string }[]).find((node) => node.id === `task:${blocker}`)?.status, plan).toBe("done");
    }
  });

  it("let a task wait on 50 tasks, every one shown, and refuse the 51st", async () => {
    const workspace = "ready/fifty";
    const plan = (await ok("tasks_create", { workspace, title: "Ship" })).id as string;
    const blockers: string[] = [];
    for (let index = 0; index < 51; index++) blockers.push(await task(workspace, plan, `part ${index}`));
    const waiting = await ok("tasks_create", { workspace, parent: plan, title: "All of it", blocked_by: blockers.slice(0, 50) });
    expect(waiting.blocked_by.map((blocker: Args) => blocker.id)).toEqual(blockers.slice(0, 50));
    const refused = await failure("tasks_dependency_add", { workspace, task: waiting.id, blocked_by: [blockers[50]] });
    expect(refused).toMatchObject({ code: "INVALID_INPUT", details: { field: "blocked_by", max: 50, current: 50 } });
    // Finishing the 50th (the last in id order) still counts: the task waits for the other 49.
    await ok("tasks_complete", { workspace, target: blockers[49] });
    const shown = await ok("tasks_resume_super", { workspace, target: waiting.id });
    expect(shown.dependencies.blocked_by).toHaveLength(50);
    expect(shown.dependencies.blocked_by.at(-1)).toMatchObject({ id: blockers[49], finished: true });
  });
});

describe("taking a task", () => {
  it("claims it, focuses it and leases its first step; other agents cannot write its steps until it is released or expires", async () => {
    const workspace = "ready/take";
    const alice = await as("alice");
    const bob = await as("bob");
    const plan = (await ok("tasks_create", { workspace, title: "Ship" })).id as string;
    const steps = [{ title: "One" }, { title: "Two" }];
    const t1 = await task(workspace, plan, "First", { steps });
    const t2 = await task(workspace, plan, "Second", { steps });

    const taken = await ok("tasks_take", { workspace }, alice);
    expect(taken).toMatchObject({
      task: { id: t1, status: "ACTIVE" },
      focus: t1,
      claim: { task: t1, holder: "alice" },
      lease: { path: "s:0" },
    });
    expect((await ok("tasks_focus_get", { workspace }, alice)).focus).toBe(t1);
    // Still ready for its holder, not for anyone else.
    expect((await ok("tasks_ready", { workspace }, alice)).items[0]).toMatchObject({ id: t1, held_by_you: true });
    expect(await readyIds(workspace, bob)).toEqual([t2]);

    // Step 2 is not leased, but the task is taken: bob's write and bob's lease claim (even forced) are refused.
    const note = await failure("tasks_note", { workspace, task: t1, path: "s:1", note: "I will do it" }, bob);
    expect(note).toMatchObject({ code: "TASK_TAKEN", details: { task: t1, holder: "alice" } });
    expect((await failure("tasks_step_lease_claim", { workspace, task: t1, path: "s:1", force: true }, bob)).code).toBe("TASK_TAKEN");
    await ok("tasks_note", { workspace, task: t1, path: "s:1", note: "mine" }, alice);

    // A stale read: bob asks for t1 by id after alice took it; the answer is typed and points at t2.
    const stale = await failure("tasks_take", { workspace, task: t1 }, bob);
    expect(stale).toMatchObject({ code: "TASK_NOT_READY", details: { task: t1, next_ready: t2 } });
    expect(stale.actions?.[0]).toMatchObject({ tool: "tasks_take", args: { task: t2 } });

    // Released: bob may write step 2.
    await ok("tasks_claim_release", { workspace, task: t1 }, alice);
    await ok("tasks_note", { workspace, task: t1, path: "s:1", note: "now free" }, bob);
    expect((await failure("tasks_claim_renew", { workspace, task: t1 }, alice)).code).toBe("TASK_CLAIM_NOT_HELD");
  });

  it("expires on the tick clock, renews, and ends when the task is finished", async () => {
    const workspace = "ready/expiry";
    const alice = await as("alice");
    const bob = await as("bob");
    const plan = (await ok("tasks_create", { workspace, title: "Ship" })).id as string;
    const t1 = await task(workspace, plan, "Short claim");
    const taken = await ok("tasks_take", { workspace, task: t1, ticks: 3 }, alice);
    const renewed = await ok("tasks_claim_renew", { workspace, ticks: 3 }, alice);
    expect(renewed.claim.expires_tick).toBeGreaterThan(taken.claim.expires_tick);
    expect(await readyIds(workspace, bob)).toEqual([]);
    for (let write = 0; write < 3; write++) await ok("notes_commit", { workspace, content: `tick ${write}` }, bob);
    // Three writes later the claim has expired: the task is ready for bob again, and bob may take it.
    expect(await readyIds(workspace, bob)).toEqual([t1]);
    await ok("tasks_take", { workspace, task: t1 }, bob);
    const done = await ok("tasks_complete", { workspace, target: t1 }, bob);
    expect(done.entity.status).toBe("DONE");
    expect((await failure("tasks_claim_release", { workspace, task: t1 }, bob)).code).toBe("TASK_CLAIM_NOT_HELD");
  });
});

describe("the ready queue", () => {
  it("orders by priority then id, filters by plan, leaves out tasks with a blocked step, and pages without repeats", async () => {
    const workspace = "ready/queue";
    const p1 = (await ok("tasks_create", { workspace, title: "One" })).id as string;
    const p2 = (await ok("tasks_create", { workspace, title: "Two" })).id as string;
    const low = await task(workspace, p1, "low", { priority: "LOW" });
    const medium = await task(workspace, p2, "medium");
    const high = await task(workspace, p1, "high", { priority: "HIGH" });
    const blocked = await task(workspace, p2, "blocked step", { steps: [{ title: "stuck" }] });
    await ok("tasks_block", { workspace, target: blocked, step: "focus", reason: "waiting for review" });
    const parked = await task(workspace, p1, "parked");
    await ok("tasks_complete", { workspace, target: parked, status: "PARKED" });

    expect(await readyIds(workspace)).toEqual([high, medium, low]);
    expect(await readyIds(workspace, undefined, { plan: p1 })).toEqual([high, low]);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const answer = await ok("tasks_ready", { workspace, limit: 1, ...(cursor ? { cursor } : {}) });
      seen.push(...(answer.items as { id: string }[]).map((item) => item.id));
      cursor = answer.pagination.next_cursor;
      if (!answer.pagination.has_more) break;
    }
    expect(seen).toEqual([high, medium, low]);
  });

  it("with nothing ready, says what the first waiting tasks wait for", async () => {
    const workspace = "ready/waiting";
    const plan = (await ok("tasks_create", { workspace, title: "Ship" })).id as string;
    const first = await task(workspace, plan, "first");
    const second = await task(workspace, plan, "second", { blocked_by: [first] });
    await ok("tasks_take", { workspace, task: first }, await as("alice"));
    const empty = await ok("tasks_ready", { workspace }, await as("bob"));
    expect(empty.items).toEqual([]);
    expect(empty.waiting).toEqual([{ id: second, title: "second", waits_for: [`${first} (ACTIVE)`] }]);
    // With a plan, the plan's own waiting tasks.
    const other = (await ok("tasks_create", { workspace, title: "Other" })).id as string;
    const elsewhere = await task(workspace, other, "elsewhere", { blocked_by: [first] });
    const inOther = await ok("tasks_ready", { workspace, plan: other }, await as("bob"));
    expect(inOther.waiting.map((waiting: Args) => waiting.id)).toEqual([elsewhere]);
  });

  it("gives each of 5 ready tasks to exactly one of 20 agents taking at once; the others get a typed answer", async () => {
    const workspace = "ready/race";
    const plan = (await ok("tasks_create", { workspace, title: "Ship" })).id as string;
    const tasks: string[] = [];
    for (let index = 0; index < 5; index++) tasks.push(await task(workspace, plan, `task ${index}`, { steps: [{ title: "do it" }] }));
    const agents = await Promise.all(Array.from({ length: 20 }, (_, index) => as(`agent-${index}`)));
    const answers = await Promise.all(agents.map((agent) => callTool("tasks_take", { workspace }, agent)));
    const winners = answers.filter((answer) => !answer.isError).map((answer) => answer.structuredContent as Record<string, any>);
    const losers = answers.filter((answer) => answer.isError).map((answer) => (answer.structuredContent as Record<string, any>).error);
    expect(winners).toHaveLength(5);
    expect(winners.map((winner) => winner.task.id).sort()).toEqual([...tasks].sort());
    for (const winner of winners) {
      expect(winner.focus).toBe(winner.task.id);
      expect(winner.claim.task).toBe(winner.task.id);
      expect(winner.lease).toMatchObject({ path: "s:0" });
    }
    expect(new Set(winners.map((winner) => winner.claim.holder)).size).toBe(5);
    expect(losers).toHaveLength(15);
    for (const loser of losers) {
      expect(loser.code).toBe("TASK_NOT_READY");
      // Nothing is ready once five are taken: the action lists the queue rather than naming a task.
      expect(loser.details.next_ready).toBeNull();
      expect(loser.actions[0]).toMatchObject({ tool: "tasks_ready" });
      expect((await paste(loser.actions[0], agents[0])).isError).toBeUndefined();
    }
  });
});
