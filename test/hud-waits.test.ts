// What waits is named by the stated priority (docs/portals.md "What waits"), only moves the caller may
// make are offered, and every answer that says "where" names where the next note and card land
// (docs/portals.md "Where writes land"): each through the real MCP endpoint.

import { describe, expect, it } from "vitest";
import { NEWCOMER, OTHER, OWNER, stateNamed } from "./crawl/states";
import { as, ok } from "./helpers/mcp";
import { moveOf } from "./helpers/suggestions";

const PORTALS = { path: "/mcp?toolset=portals" };
const FULL = { path: "/mcp?toolset=full" };

async function portalStatus(workspace: string, agent: string) {
  return ok("status", { workspace }, { ...PORTALS, ...(await as(agent)) });
}

describe("what waits, by priority", () => {
  it("with no plan or task: the caller's open Record-Sync session before 'create a plan'", async () => {
    const workspace = "waits/session";
    await stateNamed("record-sync-session").build(workspace);
    const { capsule } = await portalStatus(workspace, OWNER);
    expect(moveOf(capsule.next.action)).toBe("records sync");
    expect(capsule.next.action.args.args).toEqual({ session_id: "S001" });
    expect(capsule.why[0]).toBe("your Record-Sync session S001 is open with 2 active records");
    expect(moveOf(capsule.next.backup)).toBe("tasks plan.create");
    // Pasted, it works.
    const synced = await ok(capsule.next.action.tool, capsule.next.action.args, { ...PORTALS, ...(await as(OWNER)) });
    expect(synced.session_id).toBe("S001");
    // A newcomer has no session: it is told to create a plan.
    expect(moveOf((await portalStatus(workspace, NEWCOMER)).capsule.next.action)).toBe("tasks plan.create");
  });

  it("a stale session waits before the focus", async () => {
    const workspace = "waits/stale-session";
    const owner = { ...FULL, ...(await as(OWNER)) };
    const other = { ...FULL, ...(await as(OTHER)) };
    await ok("tasks_macro_start", { workspace, title: "Index the docs" }, owner);
    const record = { workspace, type: "question", title: "Cache?", summary: "Do we cache?", body: "Open.", stale_after_ticks: 1 };
    expect((await ok("create_record", record, owner)).session_id).toBe("S001");
    await ok("create_record", { workspace, type: "note", title: "One", summary: "1", body: "1." }, other);
    await ok("create_record", { workspace, type: "note", title: "Two", summary: "2", body: "2." }, other);
    const { capsule } = await portalStatus(workspace, OWNER);
    expect(moveOf(capsule.next.action)).toBe("records sync");
    expect(capsule.why[0]).toMatch(/^your Record-Sync session S001 is stale: \d+ writes since its last sync \(\d+ active records?\)$/);
    expect(capsule.why[1]).toMatch(/^focus TASK-001/);
    expect(moveOf(capsule.next.backup)).toBe("tasks.note");
  });

  it("with no focus: the task whose step the caller holds, before the first ready task", async () => {
    const workspace = "waits/held";
    const owner = { ...FULL, ...(await as(OWNER)) };
    await ok("tasks_macro_start", { workspace, title: "First" }, owner);
    await ok("tasks_step_lease_claim", { workspace, task: "TASK-001", path: "s:0" }, { ...FULL, ...(await as(OTHER)) });
    await ok("tasks_macro_start", { workspace, plan: "PLAN-001", title: "Second" }, owner);
    const { capsule } = await portalStatus(workspace, OTHER);
    expect(moveOf(capsule.next.action)).toBe("tasks.focus.set");
    expect(capsule.next.action.args.args).toEqual({ target: "TASK-001" });
    expect(capsule.why[0]).toMatch(/^you hold the lease on s:0 of TASK-001 until tick \d+$/);
    expect(capsule.where.target.id).toBe("TASK-001");
    // A newcomer holds nothing: the first ready task it can take (TASK-001's first step is another agent's).
    const newcomer = (await portalStatus(workspace, NEWCOMER)).capsule;
    expect(moveOf(newcomer.next.action)).toBe("tasks.take");
    expect(newcomer.next.action.args.args).toEqual({ task: "TASK-002" });
  });

  it("stale evidence: run the test with the command it records", async () => {
    const workspace = "waits/stale-evidence";
    await stateNamed("stale-evidence").build(workspace);
    const { capsule } = await portalStatus(workspace, OWNER);
    expect(capsule.next.action).toMatchObject({ tool: "think", args: { op: "call", cmd: "think.add.evidence" } });
    expect(capsule.next.action.args.args.text).toContain("CMD: npm run bench -- --suites cache");
    expect(capsule.why[0]).toMatch(/^BM/);
    expect(moveOf(capsule.next.backup)).toBe("tasks plan.create");
  });

  it("a queued job: claim it before creating a plan", async () => {
    const workspace = "waits/job";
    await stateNamed("queued-job").build(workspace);
    const { capsule } = await portalStatus(workspace, NEWCOMER);
    expect(capsule.next.action).toMatchObject({ tool: "jobs", args: { op: "claim", args: { job: "JOB-001" } } });
    expect(moveOf(capsule.next.backup)).toBe("tasks plan.create");
  });

  it("a job addressed to the caller (meta.for_agent, as hand_off queues it) comes before older queued jobs", async () => {
    const workspace = "waits/addressed-job";
    await stateNamed("queued-job").build(workspace);
    const handOff = { workspace, title: "Handoff to crawl-newcomer", prompt: "Finish the parser", meta: { for_agent: NEWCOMER } };
    expect((await ok("jobs_create", handOff, { ...FULL, ...(await as(OWNER)) })).job.id).toBe("JOB-002");
    await ok(
      "jobs_create",
      { workspace, title: "For someone else", prompt: "Later", meta: { for_agent: OTHER } },
      { ...FULL, ...(await as(OWNER)) },
    );
    // The addressee is offered its job although JOB-001 has waited longer.
    const addressee = (await portalStatus(workspace, NEWCOMER)).capsule;
    expect(addressee.next.action).toMatchObject({ tool: "jobs", args: { op: "claim", args: { job: "JOB-002" } } });
    expect(addressee.why[0]).toBe("JOB-002 is queued for you: Handoff to crawl-newcomer");
    expect(moveOf(addressee.next.backup)).toBe("tasks plan.create");
    // Any other agent still gets the oldest.
    const other = (await portalStatus(workspace, OWNER)).capsule;
    expect(other.next.action).toMatchObject({ tool: "jobs", args: { op: "claim", args: { job: "JOB-001" } } });
    expect(other.why[0]).toBe("JOB-001 is queued for any agent: Review the parser");
    // A conflict, a stale session or a focus still come first: the job ranks after the focus.
    await ok("tasks_macro_start", { workspace, title: "Own work" }, { ...FULL, ...(await as(NEWCOMER)) });
    const focused = (await portalStatus(workspace, NEWCOMER)).capsule;
    expect(focused.why[0]).toMatch(/^focus TASK-001/);
  });

  it("the oldest queued job names its addressee when it has one", async () => {
    const workspace = "waits/addressed-elsewhere";
    await ok("jobs_create", { workspace, title: "For bob", prompt: "Go", meta: { for_agent: "bob" } }, { ...FULL, ...(await as(OWNER)) });
    const { capsule } = await portalStatus(workspace, NEWCOMER);
    expect(capsule.next.action).toMatchObject({ tool: "jobs", args: { op: "claim", args: { job: "JOB-001" } } });
    expect(capsule.why[0]).toBe('JOB-001 is queued for "bob": For bob');
  });
});

describe("only what the caller may do", () => {
  it("the audit view offers publishing a draft to its author only", async () => {
    const workspace = "waits/drafts";
    await stateNamed("another-agents-drafts").build(workspace);
    const audit = async (agent: string) =>
      ok("context_pack", { workspace, all_lanes: true, budget_profile: "audit" }, { ...FULL, ...(await as(agent)) });
    const calls = (pack: Record<string, any>) =>
      (pack.engine?.actions ?? []).flatMap((action: { calls: { tool: string }[] }) => action.calls.map((call) => call.tool));
    const reader = await audit(OWNER);
    expect(reader.engine.signals.map((signal: { message: string }) => signal.message)).toContain(
      "Decision D1 is a draft in agent/crawl-other; only crawl-other can publish it.",
    );
    expect(calls(reader)).not.toContain("think_publish");
    const author = await audit(OTHER);
    const publish = author.engine.actions.find((action: { kind: string }) => action.kind === "publish_decision");
    expect(publish.calls[0].tool).toBe("think_publish");
    expect((await ok(publish.calls[0].tool, publish.calls[0].args, { ...FULL, ...(await as(OTHER)) })).published_from).toBe("D1");
  });
});

describe("where writes land", () => {
  it("a focus takes notes, the checkout takes cards; every answer says so and the writes land there", async () => {
    const workspace = "waits/landing";
    const portal = { ...PORTALS, ...(await as(OWNER)) };
    await ok("tasks", { workspace, op: "call", cmd: "tasks.macro.start", args: { title: "Parser" } }, portal);
    const created = await ok("think", { workspace, op: "idea.branch.create", args: { name: "idea/peg", content: "try a PEG" } }, portal);
    const expected = {
      notes: { branch: "task/TASK-001", doc: "notes", by: "focus" },
      cards: { branch: "idea/peg", doc: "graph", by: "checkout" },
    };
    expect(created.capsule.where.writes).toEqual(expected);
    expect(created.capsule.why).toContain(
      'notes land on task/TASK-001 (focus TASK-001), cards on idea/peg: pass branch "idea/peg" to note there',
    );
    const status = await ok("status", { workspace }, { ...FULL, ...(await as(OWNER)) });
    expect(status.writes).toEqual(expected);
    const opened = await ok("open", { workspace, id: "TASK-001" }, portal);
    expect(opened.capsule.where.writes).toEqual(expected);
    const note = await ok("vcs", { workspace, op: "notes.commit", args: { content: "PEG is fast" } }, portal);
    expect({ branch: note.entry.branch, doc: note.entry.doc }).toEqual({ branch: "task/TASK-001", doc: "notes" });
    const card = await ok("think", { workspace, op: "call", cmd: "think_card", args: { card: "PEG beats LR" } }, portal);
    expect({ branch: card.branch, doc: card.graph_doc }).toEqual({ branch: "idea/peg", doc: "graph" });
    // The way the line shows puts a note on the idea branch.
    const onBranch = await ok("vcs", { workspace, op: "notes.commit", args: { content: "on the idea", branch: "idea/peg" } }, portal);
    expect(onBranch.entry.branch).toBe("idea/peg");
    // With the focus cleared, both land on the checkout.
    const cleared = await ok("tasks", { workspace, op: "call", cmd: "tasks.focus.clear" }, portal);
    expect(cleared.capsule.where.writes.notes).toEqual({ branch: "idea/peg", doc: "notes", by: "checkout" });
  });

  it("status names the golden path only where there is no work yet; a newcomer's busy-workspace status is small", async () => {
    const empty = await ok("status", { workspace: "waits/golden-empty" }, { ...FULL, ...(await as(NEWCOMER)) });
    expect(empty.golden_path.length).toBe(5);
    const workspace = "waits/golden-busy";
    await stateNamed("task-with-steps").build(workspace);
    const flat = await ok("status", { workspace }, { ...FULL, ...(await as(NEWCOMER)) });
    expect(flat.golden_path).toBeUndefined();
    const portal = await portalStatus(workspace, NEWCOMER);
    expect(moveOf(portal.capsule.next.action)).toBe("tasks.take");
    expect(JSON.stringify(portal).length).toBeLessThan(2_000);
  });
});
