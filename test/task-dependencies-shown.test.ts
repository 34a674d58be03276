// A task's dependencies show wherever the task shows (docs/tasks.md "Dependencies, taking a task and
// the ready queue"), through the real endpoint: a waiting task's tasks_context item, `open`, the resume
// views (tasks_resume_super, tasks_snapshot) and the radar say what it waits for, and who has taken
// its blocker; once the blocker is finished they say it waits for nothing. Every answer is checked
// against the command's whole answer contract, so each new field is declared.
import { type Schema, Validator } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { findCommand } from "../src/catalog/catalog";
import { answerContract } from "../src/worker/surfaces/tool-definitions";
import { as, ok, type RpcOptions } from "./helpers/mcp";

type Args = Record<string, unknown>;

/** Calls a read that must succeed, and checks its answer against everything zod knows of the command. */
async function read(tool: string, args: Args, who?: RpcOptions): Promise<Record<string, any>> {
  const answer = await ok(tool, args, who);
  const command = findCommand(tool);
  expect(command, tool).toBeDefined();
  if (command) {
    const verdict = new Validator(answerContract(command) as Schema, "2020-12", false).validate(answer);
    expect(verdict.errors, `${tool} answers within its contract`).toEqual([]);
  }
  return answer;
}

/** The answers that show the waiting task, each as a sentence of what it says it waits for. */
async function whatEachSays(workspace: string, waiting: string) {
  const context = await read("tasks_context", { workspace });
  const item = (context.tasks as Args[]).find((task) => task.id === waiting);
  const opened = await read("open", { workspace, id: waiting });
  const resumed = await read("tasks_resume_super", { workspace, task: waiting });
  const snapshot = await read("tasks_snapshot", { workspace, task: waiting });
  const radar = await read("tasks_radar", { workspace, task: waiting });
  return { item, opened, resumed, snapshot, radar };
}

describe("a waiting task says what it waits for", () => {
  it("in tasks_context, open, the resume views and the radar, and that it waits for nothing once its blocker is done", async () => {
    const workspace = "deps-shown/one";
    const bob = await as("bob");
    const plan = (await ok("tasks_create", { workspace, title: "Ship the cache" })).id as string;
    const schema = (await ok("tasks_create", { workspace, parent: plan, title: "Schema" })).id as string;
    const created = await ok("tasks_create", {
      workspace,
      parent: plan,
      title: "Release",
      blocked_by: [schema],
      steps: [{ title: "Tag it", success_criteria: ["tagged"], tests: ["git tag"] }],
    });
    const release = created.id as string;
    await ok("tasks_edit", { workspace, task: schema, status: "ACTIVE" });
    const taken = await ok("tasks_take", { workspace, task: schema }, bob);

    const waitingNow = { id: schema, title: "Schema", status: "ACTIVE", finished: false };
    const before = await whatEachSays(workspace, release);
    expect(before.item).toMatchObject({ id: release, blocked_by: [schema] });
    expect(before.item?.taken_by).toBeUndefined();
    for (const answer of [before.opened, before.resumed, before.snapshot]) {
      expect(answer.dependencies).toEqual({ blocked_by: [waitingNow], waiting: true });
      expect(answer.claim).toBeUndefined();
    }
    const line = `waits for ${schema} (ACTIVE)`;
    expect(before.radar.radar.blockers[0]).toBe(line);
    expect(before.resumed.radar.blockers[0]).toBe(line);
    expect(before.snapshot.radar.blockers[0]).toBe(line);
    // The capsule's why starts from the radar's blockers: open's capsule says it too.
    expect(before.opened.capsule.why).toContain(`blocked: ${line}`);

    // The blocker shows who has taken it, in the list and in its own views.
    const blocker = await read("tasks_context", { workspace });
    expect((blocker.tasks as Args[]).find((task) => task.id === schema)).toMatchObject({ taken_by: "bob" });
    expect((blocker.tasks as Args[]).find((task) => task.id === schema)?.blocked_by).toBeUndefined();
    const claim = { holder: "bob", expires_tick: taken.claim.expires_tick };
    expect((await read("open", { workspace, id: schema })).claim).toEqual(claim);
    expect((await read("tasks_resume_super", { workspace, task: schema })).claim).toEqual(claim);
    // A task that waits for nothing says nothing of it (a view's budget pays nothing for it).
    expect((await read("tasks_snapshot", { workspace, task: schema })).dependencies).toBeUndefined();

    // A plan waits for nothing and nobody takes it.
    const openedPlan = await read("open", { workspace, id: plan });
    expect(openedPlan.dependencies).toBeUndefined();
    expect(openedPlan.claim).toBeUndefined();

    const finished = await ok("tasks_complete", { workspace, target: schema }, bob);
    expect(finished.made_ready).toEqual([release]);

    const after = await whatEachSays(workspace, release);
    expect(after.item?.id).toBe(release);
    expect(after.item?.blocked_by).toBeUndefined();
    for (const answer of [after.opened, after.resumed, after.snapshot]) {
      expect(answer.dependencies).toEqual({ blocked_by: [{ ...waitingNow, status: "DONE", finished: true }], waiting: false });
    }
    for (const answer of [after.radar, after.resumed, after.snapshot]) {
      expect(answer.radar.blockers.filter((text: string) => text.startsWith("waits for"))).toEqual([]);
    }
    expect(after.opened.capsule.why.filter((text: string) => text.includes("waits for"))).toEqual([]);
    // Finishing ended the claim.
    expect((await read("open", { workspace, id: schema })).claim).toBeUndefined();
  });

  it("names ten unfinished blockers in the radar's line and counts the rest; lists and views stay bounded", async () => {
    const workspace = "deps-shown/many";
    const plan = (await ok("tasks_create", { workspace, title: "Big" })).id as string;
    const blockers: string[] = [];
    for (let index = 0; index < 12; index++) {
      blockers.push((await ok("tasks_create", { workspace, parent: plan, title: `Part ${index} ${"x".repeat(100)}` })).id as string);
    }
    const waiting = (await ok("tasks_create", { workspace, parent: plan, title: "All of it", blocked_by: blockers })).id as string;
    await ok("tasks_complete", { workspace, target: blockers[0], status: "CANCELED" });

    const radar = await read("tasks_radar", { workspace, task: waiting });
    const named = blockers.slice(1, 11).map((id) => `${id} (TODO)`);
    expect(radar.radar.blockers[0]).toBe(`waits for ${named.join(", ")}, and 1 more`);
    const context = await read("tasks_context", { workspace, tasks_parent: plan });
    expect((context.tasks as Args[]).find((task) => task.id === waiting)?.blocked_by).toEqual(blockers.slice(1));
    const resumed = await read("tasks_resume_super", { workspace, task: waiting });
    expect(resumed.dependencies.blocked_by).toHaveLength(12);
    expect(resumed.dependencies.blocked_by[0]).toMatchObject({ id: blockers[0], status: "CANCELED", finished: true });
    // Titles are cut short in the views: `open` of the blocker reads it whole.
    expect(resumed.dependencies.blocked_by[1].title.length).toBeLessThanOrEqual(60);
    expect(resumed.dependencies.waiting).toBe(true);
  });
});
