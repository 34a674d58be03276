// End-to-end: delegation jobs through the real MCP endpoint. The whole lifecycle through the `jobs` portal
// (toolset=portals); exclusive claims under concurrency, claims expiring on the workspace tick clock,
// stale claim revisions, the state machine, idempotent creation and bounded reads (toolset=full).
import { describe, expect, it } from "vitest";
import { as, callTool, failure, ok, type RpcOptions } from "./helpers/mcp";

const FULL = "/mcp?toolset=full";
const PORTALS = "/mcp?toolset=portals";

/** Options for `name` on the full toolset. */
async function agent(name: string): Promise<RpcOptions> {
  return { ...(await as(name)), path: FULL };
}

async function tickOf(workspace: string): Promise<number> {
  return (await ok("status", { workspace }, { path: FULL })).tick as number;
}

function jobsCall(workspace: string, cmd: string, args: Record<string, unknown>) {
  return { workspace, op: "call", cmd, args };
}

describe("jobs: the lifecycle through the jobs portal", () => {
  it("creates, lists, claims, reports, completes and opens a job and its events, with the capsule", async () => {
    const workspace = "jobs/portal";
    const alice: RpcOptions = { ...(await as("alice")), path: PORTALS };
    const bob: RpcOptions = { ...(await as("bob")), path: PORTALS };

    const created = await ok(
      "jobs",
      jobsCall(workspace, "jobs.create", {
        title: "Review the parser",
        prompt: "List the edge cases src/parser.ts misses.",
        priority: "HIGH",
      }),
      alice,
    );
    expect(created.job).toMatchObject({ id: "JOB-001", status: "QUEUED", revision: 0, priority: "HIGH", attempts: 0, last_event_seq: 1 });
    expect(created.event).toMatchObject({ ref: "JOB-001@1", seq: 1, type: "job_created", agent_id: "alice", tick: created.now_tick });
    expect(created.capsule).toBeDefined();

    const listed = await ok("jobs", jobsCall(workspace, "jobs.list", { status: "QUEUED" }), bob);
    expect(listed.jobs.map((job: { id: string }) => job.id)).toEqual(["JOB-001"]);
    const radar = await ok("jobs", jobsCall(workspace, "tasks_jobs_radar", {}), bob);
    expect(radar).toMatchObject({ counts: { QUEUED: 1, RUNNING: 0, DONE: 0 }, oldest_queued: { id: "JOB-001" }, running: [], stale: [] });

    // No job named: the oldest queued one. The worker gets the prompt and its claim_revision.
    const claimed = await ok("jobs", jobsCall(workspace, "jobs.claim", {}), bob);
    expect(claimed).toMatchObject({ changed: true, claim_revision: 1, event: { ref: "JOB-001@2", type: "job_claimed" } });
    expect(claimed.job).toMatchObject({
      id: "JOB-001",
      status: "RUNNING",
      revision: 1,
      attempts: 1,
      prompt: "List the edge cases src/parser.ts misses.",
      claim: { holder: "bob", claim_revision: 1, claimed_tick: claimed.now_tick, expires_tick: claimed.now_tick + 2000, live: true },
    });

    const reported = await ok(
      "jobs",
      jobsCall(workspace, "jobs.report", { job: "JOB-001", claim_revision: 1, message: "Read the tokenizer", percent: 40 }),
      bob,
    );
    expect(reported.job).toMatchObject({ revision: 2, percent: 40, progress_message: "Read the tokenizer" });
    // A report renews the claim for its length, counted from the report's tick.
    expect(reported.job.claim.expires_tick).toBe(reported.now_tick + 2000);

    const running = await ok("jobs", jobsCall(workspace, "jobs.radar", {}), alice);
    expect(running.running).toEqual([expect.objectContaining({ id: "JOB-001", holder: "bob", claim_live: true, percent: 40 })]);

    const done = await ok(
      "jobs",
      jobsCall(workspace, "jobs.complete", { job: "JOB-001", claim_revision: 1, summary: "4 missed edge cases", artifact_ref: "notes@1" }),
      bob,
    );
    expect(done.job).toMatchObject({ status: "DONE", revision: 3, summary: "4 missed edge cases", artifact_ref: "notes@1" });
    expect(done.job.claim).toMatchObject({ holder: "bob", live: false });

    const opened = await ok("jobs", jobsCall(workspace, "jobs.open", { job: "JOB-001" }), alice);
    expect(opened).toMatchObject({
      kind: "job",
      ref: "JOB-001",
      job: { status: "DONE", prompt: "List the edge cases src/parser.ts misses." },
    });
    expect(opened.events.map((event: { ref: string; type: string }) => [event.ref, event.type])).toEqual([
      ["JOB-001@1", "job_created"],
      ["JOB-001@2", "job_claimed"],
      ["JOB-001@3", "job_progress"],
      ["JOB-001@4", "job_completed"],
    ]);
    const event = await ok("jobs", jobsCall(workspace, "jobs.open", { job: "JOB-001@3" }), alice);
    expect(event).toMatchObject({
      kind: "job_event",
      ref: "JOB-001@3",
      job: { id: "JOB-001", status: "DONE" },
      event: { type: "job_progress", agent_id: "bob", message: "Read the tokenizer", payload: { percent: 40 } },
    });

    // DONE is final.
    for (const [cmd, args] of [
      ["jobs.complete", { claim_revision: 1, summary: "again" }],
      ["jobs.cancel", {}],
      ["jobs.requeue", {}],
      ["jobs.claim", {}],
    ] as const) {
      const refused = await failure("jobs", jobsCall(workspace, cmd, { job: "JOB-001", ...args }), bob);
      expect(refused, cmd).toMatchObject({ code: "INVALID_TRANSITION", details: { job: "JOB-001", status: "DONE" } });
    }
    expect((await ok("jobs", jobsCall(workspace, "jobs.radar", {}), alice)).counts).toMatchObject({ QUEUED: 0, RUNNING: 0, DONE: 1 });
  });
});

describe("jobs: claims", () => {
  it("gives a job to exactly one of several agents claiming it at once; the others get JOB_CLAIM_HELD", async () => {
    const workspace = "jobs/race";
    await ok("jobs_create", { workspace, title: "Contended", prompt: "Only one of you." }, await agent("alice"));
    const before = await tickOf(workspace);
    const names = ["a1", "a2", "a3", "a4", "a5", "a6"];
    const agents = await Promise.all(names.map((name) => agent(name)));
    const results = await Promise.all(agents.map((options) => callTool("jobs_claim", { workspace, job: "JOB-001" }, options)));
    const winners = results.filter((result) => !result.isError);
    expect(winners).toHaveLength(1);
    const [winner] = winners;
    if (!winner) throw new Error("no claim won");
    const holder = (winner.structuredContent as { job: { claim: { holder: string; expires_tick: number } } }).job.claim;
    expect(names).toContain(holder.holder);
    const losers = results.filter((result) => result.isError).map((result) => (result.structuredContent as { error: any }).error);
    expect(losers).toHaveLength(names.length - 1);
    for (const error of losers) {
      expect(error).toMatchObject({
        code: "JOB_CLAIM_HELD",
        details: { job: "JOB-001", holder: holder.holder, expires_tick: holder.expires_tick },
      });
    }
    // One claim, one event, one tick: the refused claims wrote nothing.
    expect(await tickOf(workspace)).toBe(before + 1);
    const opened = await ok("jobs_open", { workspace, job: "JOB-001" }, { path: FULL });
    expect(opened.job).toMatchObject({ attempts: 1, revision: 1, last_event_seq: 2, claim: { holder: holder.holder } });
  });

  it("hands distinct queued jobs to agents claiming without a job at once, oldest first, and null when none is left", async () => {
    const workspace = "jobs/race-queue";
    const alice = await agent("alice");
    await ok("jobs_create", { workspace, title: "First", prompt: "1" }, alice);
    await ok("jobs_create", { workspace, title: "Second", prompt: "2" }, alice);
    const agents = await Promise.all(["w1", "w2", "w3"].map((name) => agent(name)));
    const results = await Promise.all(agents.map((options) => ok("jobs_claim", { workspace }, options)));
    const claimed = results.filter((result) => result.job !== null).map((result) => result.job.id);
    expect(claimed.sort()).toEqual(["JOB-001", "JOB-002"]);
    const empty = results.find((result) => result.job === null);
    expect(empty).toMatchObject({
      changed: false,
      claim_revision: null,
      event: null,
      warnings: [expect.objectContaining({ code: "QUEUE_EMPTY" })],
    });
  });

  it("lets a claim expire on the tick clock: other writes advance it, and then another agent takes the job over", async () => {
    const workspace = "jobs/expiry";
    const alice = await agent("alice");
    const bob = await agent("bob");
    await ok("jobs_create", { workspace, title: "Slow", prompt: "Take your time." }, alice);
    const claimed = await ok("jobs_claim", { workspace, job: "JOB-001", ttl_ticks: 3 }, alice);
    expect(claimed.job.claim).toMatchObject({ holder: "alice", expires_tick: claimed.now_tick + 3, ttl_ticks: 3 });
    expect(await tickOf(workspace)).toBe(claimed.now_tick);

    const held = await failure("jobs_claim", { workspace, job: "JOB-001" }, bob);
    expect(held).toMatchObject({ code: "JOB_CLAIM_HELD", details: { holder: "alice", expires_tick: claimed.now_tick + 3 } });
    expect((await failure("jobs_report", { workspace, job: "JOB-001", claim_revision: 1, message: "mine" }, bob)).code).toBe(
      "JOB_CLAIM_HELD",
    );
    expect((await failure("jobs_requeue", { workspace, job: "JOB-001" }, bob)).code).toBe("JOB_CLAIM_HELD");

    // Three unrelated writes by anyone: the 3-tick claim is over.
    for (let i = 0; i < 3; i++) await ok("notes_commit", { workspace, content: `tick ${i}` }, bob);
    const radar = await ok("jobs_radar", { workspace }, bob);
    expect(radar.running).toEqual([]);
    expect(radar.stale).toEqual([expect.objectContaining({ id: "JOB-001", holder: "alice", claim_live: false })]);
    expect(radar.next.join(" ")).toContain("JOB-001");
    const expired = await failure("jobs_report", { workspace, job: "JOB-001", claim_revision: 1, message: "late" }, alice);
    expect(expired).toMatchObject({ code: "JOB_NOT_CLAIMED", details: { holder: "alice" } });

    const taken = await ok("jobs_claim", { workspace, job: "JOB-001" }, bob);
    expect(taken).toMatchObject({ changed: true, claim_revision: 2, job: { attempts: 2, claim: { holder: "bob", live: true } } });
    expect(taken.event.payload).toMatchObject({ previous_holder: "alice", previous_expires_tick: claimed.now_tick + 3 });
    // alice's old claim is gone: bob holds the job now.
    const late = await failure("jobs_complete", { workspace, job: "JOB-001", claim_revision: 1, summary: "done?" }, alice);
    expect(late).toMatchObject({ code: "JOB_CLAIM_HELD", details: { holder: "bob" } });
    expect((await ok("jobs_complete", { workspace, job: "JOB-001", claim_revision: 2, summary: "done" }, bob)).job.status).toBe("DONE");
  });

  it("refuses a stale claim_revision, and re-claiming a live claim of your own changes nothing", async () => {
    const workspace = "jobs/stale-revision";
    const alice = await agent("alice");
    await ok("jobs_create", { workspace, title: "Retry me", prompt: "x" }, alice);
    const first = await ok("jobs_claim", { workspace, job: "JOB-001", ttl_ticks: 1 }, alice);
    expect(first.claim_revision).toBe(1);

    const again = await ok("jobs_claim", { workspace, job: "JOB-001", ttl_ticks: 50 }, alice);
    expect(again).toMatchObject({ changed: false, event: null, claim_revision: 1, job: { revision: 1, claim: { ttl_ticks: 1 } } });
    expect(await tickOf(workspace)).toBe(first.now_tick);

    await ok("notes_commit", { workspace, content: "one tick" }, alice);
    const second = await ok("jobs_claim", { workspace, job: "JOB-001", ttl_ticks: 100 }, alice);
    expect(second).toMatchObject({ changed: true, claim_revision: 2 });

    const stale = await failure("jobs_report", { workspace, job: "JOB-001", claim_revision: 1, message: "old claim" }, alice);
    expect(stale).toMatchObject({ code: "REVISION_MISMATCH", details: { job: "JOB-001", expected: 1, actual: 2 } });
    expect((await failure("jobs_fail", { workspace, job: "JOB-001", claim_revision: 1, reason: "old" }, alice)).code).toBe(
      "REVISION_MISMATCH",
    );
    const tick = await tickOf(workspace);
    const reported = await ok("jobs_report", { workspace, job: "JOB-001", claim_revision: 2, message: "current claim" }, alice);
    expect(reported.now_tick).toBe(tick + 1);
    expect(reported.job.claim).toMatchObject({ claim_revision: 2, expires_tick: tick + 1 + 100 });
  });
});

describe("jobs: the state machine", () => {
  it("refuses invalid transitions and lets cancel and requeue move jobs as documented", async () => {
    const workspace = "jobs/transitions";
    const alice = await agent("alice");
    const bob = await agent("bob");
    await ok("jobs_create", { workspace, title: "A", prompt: "a" }, alice);
    await ok("jobs_create", { workspace, title: "B", prompt: "b" }, alice);

    // Nothing to report on or finish before a claim; nothing to requeue in the queue.
    expect((await failure("jobs_report", { workspace, job: "JOB-001", claim_revision: 1, message: "x" }, bob)).code).toBe(
      "INVALID_TRANSITION",
    );
    expect((await failure("jobs_complete", { workspace, job: "JOB-001", claim_revision: 1, summary: "x" }, bob)).code).toBe(
      "INVALID_TRANSITION",
    );
    const requeueQueued = await failure("jobs_requeue", { workspace, job: "JOB-001" }, alice);
    expect(requeueQueued).toMatchObject({
      code: "INVALID_TRANSITION",
      details: { status: "QUEUED", allowed_from: ["RUNNING", "FAILED", "CANCELED"] },
    });

    // Fail, then requeue: back of the queue, outcome cleared.
    const claim = await ok("jobs_claim", { workspace }, bob);
    expect(claim.job.id).toBe("JOB-001");
    const failed = await ok(
      "jobs_fail",
      { workspace, job: "JOB-001", claim_revision: claim.claim_revision, reason: "no build", artifact_ref: "notes@9" },
      bob,
    );
    expect(failed.job).toMatchObject({ status: "FAILED", reason: "no build", artifact_ref: "notes@9" });
    const stale = await failure("jobs_requeue", { workspace, job: "JOB-001", expected_revision: 0 }, alice);
    expect(stale).toMatchObject({ code: "REVISION_MISMATCH", details: { expected: 0, actual: 2 } });
    const requeued = await ok("jobs_requeue", { workspace, job: "JOB-001", reason: "fixed the build", expected_revision: 2 }, alice);
    expect(requeued.job).toMatchObject({ status: "QUEUED", revision: 3, queued_tick: requeued.now_tick });
    expect(requeued.job.claim).toBeUndefined();
    expect(requeued.job.reason).toBeUndefined();
    expect(requeued.event.payload).toMatchObject({ from: "FAILED", reason: "fixed the build" });
    expect((await ok("jobs_claim", { workspace }, bob)).job.id).toBe("JOB-002");

    // Cancel a running job under another agent's claim: the worker's next report is refused. Canceling
    // another agent's live claim used to need nothing; it now needs force: true (JOB_CLAIM_HELD without,
    // see test/jobs-claims.test.ts), and the event records the claim taken over.
    expect((await failure("jobs_cancel", { workspace, job: "JOB-002", reason: "not needed" }, alice)).code).toBe("JOB_CLAIM_HELD");
    const canceled = await ok("jobs_cancel", { workspace, job: "JOB-002", reason: "not needed", force: true }, alice);
    expect(canceled.job).toMatchObject({ status: "CANCELED", reason: "not needed" });
    expect(canceled.event.payload).toMatchObject({ from: "RUNNING", previous_holder: "bob", forced: true });
    expect((await failure("jobs_report", { workspace, job: "JOB-002", claim_revision: 1, message: "still here" }, bob)).code).toBe(
      "INVALID_TRANSITION",
    );
    expect((await failure("jobs_cancel", { workspace, job: "JOB-002" }, alice)).code).toBe("INVALID_TRANSITION");
    expect((await failure("jobs_claim", { workspace, job: "JOB-002" }, bob)).code).toBe("INVALID_TRANSITION");

    // The holder may hand its own live claim back.
    const mine = await ok("jobs_claim", { workspace, job: "JOB-001" }, bob);
    expect((await failure("jobs_requeue", { workspace, job: "JOB-001" }, alice)).code).toBe("JOB_CLAIM_HELD");
    expect((await ok("jobs_requeue", { workspace, job: "JOB-001" }, bob)).event.payload).toMatchObject({
      from: "RUNNING",
      previous_holder: "bob",
    });
    expect(mine.claim_revision).toBe(4);

    // A rejected call writes nothing.
    const tick = await tickOf(workspace);
    await failure("jobs_cancel", { workspace, job: "JOB-002" }, alice);
    await failure("jobs_open", { workspace, job: "JOB-404" }, alice);
    expect(await tickOf(workspace)).toBe(tick);
  });
});

describe("jobs: creation and reads", () => {
  it("replays an idempotency_key without writing, and refuses the same key with other arguments", async () => {
    const workspace = "jobs/idempotent";
    const alice = await agent("alice");
    const args = { workspace, title: "Once", prompt: "only once", idempotency_key: "create-1" };
    const first = await ok("jobs_create", args, alice);
    const tick = await tickOf(workspace);
    const replay = await ok("jobs_create", args, alice);
    expect(replay).toEqual(first);
    expect(await tickOf(workspace)).toBe(tick);
    expect((await ok("jobs_list", { workspace }, alice)).jobs).toHaveLength(1);
    expect((await failure("jobs_create", { ...args, title: "Twice" }, alice)).code).toBe("IDEMPOTENCY_KEY_REUSED");
    expect((await ok("jobs_create", { workspace, title: "Next", prompt: "n" }, alice)).job.id).toBe("JOB-002");
  });

  it("validates the prompt, task and step, and lists jobs by status and task, paged", async () => {
    const workspace = "jobs/reads";
    const alice = await agent("alice");
    const plan = await ok("tasks_create", { workspace, title: "Plan" }, alice);
    const task = await ok("tasks_create", { workspace, parent: plan.id, title: "Task", steps: [{ title: "s" }] }, alice);
    const step = task.steps[0].id as string;

    expect((await failure("jobs_create", { workspace, title: "x" }, alice)).code).toBe("INVALID_INPUT");
    expect((await failure("jobs_create", { workspace, title: "x", prompt: "a", description: "b" }, alice)).code).toBe("INVALID_INPUT");
    expect((await failure("jobs_create", { workspace, title: "x", prompt: "a", step }, alice)).code).toBe("INVALID_INPUT");
    expect((await failure("jobs_create", { workspace, title: "x", prompt: "a", task: "TASK-404" }, alice)).code).toBe("UNKNOWN_ID");
    expect((await failure("jobs_create", { workspace, title: "x", prompt: "a", task: task.id, step: "STEP-0000FFFF" }, alice)).code).toBe(
      "UNKNOWN_ID",
    );

    const forTask = await ok(
      "jobs_create",
      { workspace, title: "For the step", description: "d", task: task.id, step, meta: { k: 1 } },
      alice,
    );
    expect(forTask.job).toMatchObject({ id: "JOB-001", task: task.id, step, meta: { k: 1 }, prompt_chars: 1 });
    for (let i = 2; i <= 5; i++) await ok("jobs_create", { workspace, title: `Job ${i}`, prompt: "p" }, alice);
    await ok("jobs_claim", { workspace, job: "JOB-003" }, alice);

    const page1 = await ok("jobs_list", { workspace, limit: 2 }, alice);
    expect(page1.jobs.map((job: { id: string }) => job.id)).toEqual(["JOB-001", "JOB-002"]);
    expect(page1.pagination).toMatchObject({ has_more: true, next_cursor: "JOB-002" });
    const page2 = await ok("jobs_list", { workspace, limit: 2, cursor: page1.pagination.next_cursor }, alice);
    expect(page2.jobs.map((job: { id: string }) => job.id)).toEqual(["JOB-003", "JOB-004"]);
    expect(page2.jobs[0]).toMatchObject({ status: "RUNNING", holder: "alice", claim_live: true });
    const queued = await ok("jobs_list", { workspace, status: "QUEUED" }, alice);
    expect(queued.jobs.map((job: { id: string }) => job.id)).toEqual(["JOB-001", "JOB-002", "JOB-004", "JOB-005"]);
    expect(queued.pagination.has_more).toBe(false);
    expect((await ok("jobs_list", { workspace, task: task.id }, alice)).jobs.map((job: { id: string }) => job.id)).toEqual(["JOB-001"]);

    // Unknown jobs and events; deterministic reads.
    expect((await failure("jobs_open", { workspace, job: "JOB-999" }, alice)).code).toBe("UNKNOWN_ID");
    const noEvent = await failure("jobs_open", { workspace, job: "JOB-001@9" }, alice);
    expect(noEvent).toMatchObject({ code: "UNKNOWN_ID", details: { last_event_seq: 1 } });
    const radar1 = await callTool("jobs_radar", { workspace }, alice);
    const radar2 = await callTool("jobs_radar", { workspace }, alice);
    expect(radar2.content[0]?.text).toBe(radar1.content[0]?.text);
    expect(radar1.structuredContent).toMatchObject({ counts: { QUEUED: 4, RUNNING: 1 }, oldest_queued: { id: "JOB-001" } });
  });

  it("pages a job's events backwards and keeps its answer within a small budget", async () => {
    const workspace = "jobs/events";
    const alice = await agent("alice");
    await ok("jobs_create", { workspace, title: "Chatty", prompt: "p".repeat(5_000) }, alice);
    const claim = await ok("jobs_claim", { workspace }, alice);
    for (let i = 1; i <= 6; i++) {
      await ok(
        "jobs_report",
        { workspace, job: "JOB-001", claim_revision: claim.claim_revision, message: `step ${i}`, percent: i * 10 },
        alice,
      );
    }
    const newest = await ok("jobs_open", { workspace, job: "JOB-001", limit: 3 }, alice);
    expect(newest.events.map((event: { seq: number }) => event.seq)).toEqual([6, 7, 8]);
    expect(newest.pagination).toMatchObject({ has_more: true, next_cursor: 6 });
    const older = await ok("jobs_open", { workspace, job: "JOB-001", limit: 3, cursor: 6 }, alice);
    expect(older.events.map((event: { seq: number }) => event.seq)).toEqual([3, 4, 5]);
    const oldest = await ok("jobs_open", { workspace, job: "JOB-001", limit: 3, cursor: 3 }, alice);
    expect(oldest.events.map((event: { seq: number }) => event.seq)).toEqual([1, 2]);
    expect(oldest.pagination.has_more).toBe(false);

    const small = await ok("jobs_open", { workspace, job: "JOB-001", max_chars: 1_500 }, alice);
    expect(small.budget.used_chars).toBeLessThanOrEqual(1_500);
    expect(small.budget.truncated).toBe(true);
    expect(small.job).toMatchObject({ id: "JOB-001", prompt_truncated: true });
  });
});
