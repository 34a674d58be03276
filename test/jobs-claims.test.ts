// End-to-end: a live job claim cannot be taken from its holder without force, through the real MCP
// endpoint. Another agent's cancel, requeue and claim are refused with JOB_CLAIM_HELD (so the
// cancel → requeue → claim chain that stole live claims is closed); cancel and requeue take it over only
// with force: true, recorded with the previous holder; the holder itself and expired claims need no force;
// reports and finishes stay the holder's alone.
import { describe, expect, it } from "vitest";
import { as, failure, ok, type RpcOptions } from "./helpers/mcp";

const FULL = "/mcp?toolset=full";

async function agent(name: string): Promise<RpcOptions> {
  return { ...(await as(name)), path: FULL };
}

async function tickOf(workspace: string): Promise<number> {
  return (await ok("status", { workspace }, { path: FULL })).tick as number;
}

/** A workspace with JOB-001 created by alice and claimed (live) by bob. */
async function claimedByBob(workspace: string, ttl_ticks = 1_000) {
  const alice = await agent("alice");
  const bob = await agent("bob");
  const mallory = await agent("mallory");
  await ok("jobs_create", { workspace, title: "Parse", prompt: "Parse the modules." }, alice);
  const claim = await ok("jobs_claim", { workspace, job: "JOB-001", ttl_ticks }, bob);
  expect(claim.job.claim).toMatchObject({ holder: "bob", live: true });
  return { alice, bob, mallory, claim };
}

describe("jobs: a live claim is not taken without force", () => {
  it("refuses another agent's cancel, requeue and claim of a live claim, and writes nothing", async () => {
    const workspace = "jobs-claims/steal";
    const { bob, mallory, claim } = await claimedByBob(workspace);
    const tick = await tickOf(workspace);

    const cancel = await failure("jobs_cancel", { workspace, job: "JOB-001", reason: "mine now" }, mallory);
    expect(cancel).toMatchObject({
      code: "JOB_CLAIM_HELD",
      details: { job: "JOB-001", holder: "bob", expires_tick: claim.job.claim.expires_tick, now_tick: tick, claim_revision: 1 },
    });
    expect(cancel.recovery_hint).toContain("force: true");
    expect(cancel.recovery_hint).toContain(`tick ${claim.job.claim.expires_tick}`);
    expect(cancel.actions?.map((action) => action.tool ?? action.cmd)).toContain("jobs_open");
    expect(JSON.stringify(cancel.actions)).toContain("JOB-001");

    const requeue = await failure("jobs_requeue", { workspace, job: "JOB-001" }, mallory);
    expect(requeue).toMatchObject({ code: "JOB_CLAIM_HELD", details: { holder: "bob" } });
    expect(requeue.recovery_hint).toContain("force: true");
    expect((await failure("jobs_claim", { workspace, job: "JOB-001" }, mallory)).code).toBe("JOB_CLAIM_HELD");
    // expected_revision matching the job does not stand in for force.
    const withRevision = await failure("jobs_cancel", { workspace, job: "JOB-001", expected_revision: 1 }, mallory);
    expect(withRevision.code).toBe("JOB_CLAIM_HELD");

    // Nothing was written: bob still holds the job and finishes it.
    expect(await tickOf(workspace)).toBe(tick);
    const opened = await ok("jobs_open", { workspace, job: "JOB-001" }, mallory);
    expect(opened.job).toMatchObject({ status: "RUNNING", revision: 1, claim: { holder: "bob", claim_revision: 1, live: true } });
    expect(opened.events.map((event: { type: string }) => event.type)).toEqual(["job_created", "job_claimed"]);
    await ok("jobs_report", { workspace, job: "JOB-001", claim_revision: 1, message: "half way", percent: 50 }, bob);
    const done = await ok("jobs_complete", { workspace, job: "JOB-001", claim_revision: 1, summary: "parsed" }, bob);
    expect(done.job).toMatchObject({ status: "DONE", claim: { holder: "bob" } });
  });

  it("keeps reports and finishes of a live claim to its holder, even with the right claim_revision", async () => {
    const workspace = "jobs-claims/finish";
    const { mallory } = await claimedByBob(workspace);
    const tick = await tickOf(workspace);
    const calls: [string, Record<string, unknown>][] = [
      ["jobs_report", { message: "hijacked" }],
      ["jobs_complete", { summary: "hijacked" }],
      ["jobs_fail", { reason: "hijacked" }],
    ];
    for (const [tool, extra] of calls) {
      const refused = await failure(tool, { workspace, job: "JOB-001", claim_revision: 1, ...extra }, mallory);
      expect(refused, tool).toMatchObject({ code: "JOB_CLAIM_HELD", details: { holder: "bob", claim_revision: 1 } });
    }
    expect(await tickOf(workspace)).toBe(tick);
  });

  it("cancels over another agent's live claim with force: true, recording the previous holder", async () => {
    const workspace = "jobs-claims/force-cancel";
    const { bob, mallory, claim } = await claimedByBob(workspace);
    const expires = claim.job.claim.expires_tick;

    const forced = await ok("jobs_cancel", { workspace, job: "JOB-001", reason: "stop", force: true }, mallory);
    expect(forced.job).toMatchObject({ status: "CANCELED", reason: "stop" });
    expect(forced.job.claim).toBeUndefined();
    expect(forced.taken_over).toEqual({ previous_holder: "bob", previous_expires_tick: expires, previous_claim_revision: 1 });
    expect(forced.warnings).toEqual([expect.objectContaining({ code: "CLAIM_TAKEN_OVER" })]);
    expect(forced.event).toMatchObject({ type: "job_canceled", agent_id: "mallory" });
    expect(forced.event.payload).toEqual({
      from: "RUNNING",
      previous_holder: "bob",
      previous_expires_tick: expires,
      previous_claim_revision: 1,
      forced: true,
      reason: "stop",
    });
    const event = await ok("jobs_open", { workspace, job: forced.event.ref }, bob);
    expect(event.event.payload).toMatchObject({ previous_holder: "bob", forced: true });

    // bob learns its work stopped.
    const report = await failure("jobs_report", { workspace, job: "JOB-001", claim_revision: 1, message: "still here" }, bob);
    expect(report).toMatchObject({ code: "INVALID_TRANSITION", details: { status: "CANCELED" } });
  });

  it("requeues over another agent's live claim with force: true; then anyone may claim it", async () => {
    const workspace = "jobs-claims/force-requeue";
    const { bob, mallory } = await claimedByBob(workspace);

    const forced = await ok("jobs_requeue", { workspace, job: "JOB-001", force: true }, mallory);
    expect(forced.job).toMatchObject({ status: "QUEUED", queued_tick: forced.now_tick });
    expect(forced.taken_over).toMatchObject({ previous_holder: "bob", previous_claim_revision: 1 });
    expect(forced.event.payload).toMatchObject({ from: "RUNNING", previous_holder: "bob", forced: true });

    const taken = await ok("jobs_claim", { workspace, job: "JOB-001" }, mallory);
    expect(taken).toMatchObject({ changed: true, claim_revision: 3, job: { claim: { holder: "mallory" } } });
    const late = await failure("jobs_complete", { workspace, job: "JOB-001", claim_revision: 1, summary: "mine" }, bob);
    expect(late).toMatchObject({ code: "JOB_CLAIM_HELD", details: { holder: "mallory" } });
  });

  it("needs no force from the holder itself, for an expired claim, or for a job nobody holds", async () => {
    const workspace = "jobs-claims/no-force";
    const { alice, bob, mallory } = await claimedByBob(workspace, 2);

    // The holder cancels its own live claim.
    const own = await ok("jobs_cancel", { workspace, job: "JOB-001", reason: "not mine to do" }, bob);
    expect(own.taken_over).toBeUndefined();
    expect(own.warnings).toBeUndefined();
    expect(own.event.payload).toEqual({ from: "RUNNING", previous_holder: "bob", reason: "not mine to do" });

    // A job nobody holds: force changes nothing.
    const back = await ok("jobs_requeue", { workspace, job: "JOB-001", force: true }, alice);
    expect(back.taken_over).toBeUndefined();
    expect(back.event.payload).toEqual({ from: "CANCELED" });

    // An expired claim is not live: another agent cancels it without force.
    await ok("jobs_claim", { workspace, job: "JOB-001", ttl_ticks: 1 }, bob);
    await ok("notes_commit", { workspace, content: "one tick" }, alice);
    const expired = await ok("jobs_cancel", { workspace, job: "JOB-001" }, mallory);
    expect(expired.taken_over).toBeUndefined();
    expect(expired.event.payload).toEqual({ from: "RUNNING", previous_holder: "bob" });
  });
});
