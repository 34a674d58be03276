// Three agents on one plan whose third task needs the first two done (issue 43's scenario), through the
// default toolset as agents use it: each agent asks `status`, pastes the call it is offered, and works.
// Alice and bob take the two ready tasks; carol, arriving third, is told in one line what the waiting
// task waits for and is not offered alice's half-done task after its first step closes (its write is
// refused); when both are finished the answer names the task they made ready, and carol takes it.
import { describe, expect, it } from "vitest";
import { as, failure, ok, type RpcOptions } from "./helpers/mcp";
import { paste } from "./helpers/suggestions";

const PORTALS: RpcOptions = { path: "/mcp?toolset=portals" };
const WORKSPACE = "team/three";

interface Capsule {
  why: string[];
  where: { focus: string | null; target: { id: string } | null };
  next: { action: { tool: string; args: Record<string, any> }; backup: { tool: string; args: Record<string, any> } };
}

async function agent(name: string): Promise<RpcOptions> {
  return { ...PORTALS, ...(await as(name)) };
}

async function status(who: RpcOptions): Promise<Capsule> {
  return (await ok("status", { workspace: WORKSPACE }, who)).capsule as Capsule;
}

async function closeStep(who: RpcOptions, task: string, path: string) {
  return ok("tasks", { workspace: WORKSPACE, op: "step.close", args: { task, path, checkpoints: "gate" } }, who);
}

describe("three agents and a task that waits for two", () => {
  it("each is offered work it can do, in turn, and the waiting task once its blockers are finished", async () => {
    const [alice, bob, carol] = [await agent("alice"), await agent("bob"), await agent("carol")];
    const steps = [{ title: "Write it" }, { title: "Test it" }];
    const plan = (await ok("tasks", { workspace: WORKSPACE, op: "plan.create", args: { title: "Ship the importer" } }, alice)).id;
    const create = (title: string, extra: Record<string, unknown> = {}) =>
      ok("tasks", { workspace: WORKSPACE, op: "call", cmd: "tasks.create", args: { parent: plan, title, steps, ...extra } }, alice);
    const t1 = (await create("Parser")).id as string;
    const t2 = (await create("Writer")).id as string;
    const t3 = (await create("Release", { blocked_by: [t1, t2] })).id as string;

    // Alice: the first ready task, with the call that takes it.
    const forAlice = await status(alice);
    expect(forAlice.why[0]).toContain(`${t1} (task, TODO, MEDIUM) is ready`);
    expect(forAlice.next.action).toMatchObject({ tool: "tasks", args: { op: "call", cmd: "tasks.take", args: { task: t1 } } });
    expect((await paste(forAlice.next.action, alice)).isError).toBeUndefined();

    // Bob: alice holds t1, so bob is offered t2.
    const forBob = await status(bob);
    expect(forBob.next.action).toMatchObject({ args: { cmd: "tasks.take", args: { task: t2 } } });
    expect((await paste(forBob.next.action, bob)).isError).toBeUndefined();

    // Carol: nothing is ready; one line says what t3 waits for, and the call looks at its first blocker.
    const forCarol = await status(carol);
    const waits = forCarol.why.find((line) => line.startsWith("nothing is ready"));
    // Taken, both are under way (ACTIVE).
    expect(waits).toBe(`nothing is ready: ${t3} waits for ${t1} (ACTIVE), ${t2} (ACTIVE)`);
    expect((waits ?? "").length).toBeLessThanOrEqual(200);
    expect(forCarol.next.action).toMatchObject({ tool: "open", args: { args: { id: t1 } } });
    expect((await paste(forCarol.next.action, carol)).isError).toBeUndefined();
    // Focused on the waiting task, carol is told what it waits for before its own steps.
    await ok("tasks", { workspace: WORKSPACE, op: "call", cmd: "tasks.focus.set", args: { target: t3 } }, carol);
    const focusedCarol = await status(carol);
    expect(focusedCarol.why[1]).toBe(`${t3} waits for ${t1} (ACTIVE), ${t2} (ACTIVE)`);
    expect(focusedCarol.next.action).toMatchObject({ tool: "open", args: { args: { id: t1 } } });
    await ok("tasks", { workspace: WORKSPACE, op: "call", cmd: "tasks.focus.clear" }, carol);

    // Alice closes step 1. The half-done t1 is still alice's: carol is not offered it, and her write to step 2 is refused.
    await closeStep(alice, t1, "s:0");
    const afterStep = await status(carol);
    expect(JSON.stringify(afterStep.next)).not.toContain('"tasks.take"');
    const refused = await failure(
      "tasks",
      { workspace: WORKSPACE, op: "call", cmd: "tasks.note", args: { task: t1, path: "s:1", note: "mine now" } },
      carol,
    );
    expect(refused).toMatchObject({ code: "TASK_TAKEN", details: { holder: "alice" } });

    // Alice finishes t1: t3 still waits for t2. Bob finishes t2: the answer names t3.
    await closeStep(alice, t1, "s:1");
    const aliceDone = await ok("tasks", { workspace: WORKSPACE, op: "call", cmd: "tasks.complete", args: { target: t1 } }, alice);
    expect(aliceDone.made_ready).toBeUndefined();
    await closeStep(bob, t2, "s:0");
    await closeStep(bob, t2, "s:1");
    const bobDone = await ok("tasks", { workspace: WORKSPACE, op: "call", cmd: "tasks.complete", args: { target: t2 } }, bob);
    expect(bobDone.made_ready).toEqual([t3]);

    // Carol is offered t3 now, and takes it.
    const unblocked = await status(carol);
    expect(unblocked.next.action).toMatchObject({ args: { cmd: "tasks.take", args: { task: t3 } } });
    const taken = await paste(unblocked.next.action, carol);
    expect(taken.structuredContent).toMatchObject({ task: { id: t3 }, claim: { holder: "carol" }, focus: t3 });
  });

  it("shows a read-only agent the ready list, without the take", async () => {
    const workspace = "team/reader";
    const plan = (await ok("tasks_create", { workspace, title: "Ship" })).id as string;
    const ready = (await ok("tasks_create", { workspace, parent: plan, title: "Ready one" })).id as string;
    const reader = { ...PORTALS, ...(await as("viewer", { role: "read" })) };
    const capsule = (await ok("status", { workspace }, reader)).capsule as Capsule;
    expect(capsule.why[0]).toContain(`${ready} (task, TODO, MEDIUM) is ready`);
    expect(capsule.next.action).toMatchObject({ tool: "tasks", args: { op: "ready" } });
    expect((await paste(capsule.next.action, reader)).isError).toBeUndefined();
  });
});
