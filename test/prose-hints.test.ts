// The server's prose names calls the connection can make: a flat tool name in a recovery hint, a
// diagnostic's message, a purpose or a radar line is rendered per connection (the portal and its golden op
// or `call`; the listed flat tool; daily's `system` door; the command name where nothing reaches it),
// while what writers stored (a note's content, a job event's message, meta) reads back as written and a
// value quoted back in an error stays as sent. The crawler (test/suggestions.test.ts) checks every prose
// text it meets on every connection; this file pins the forms.

import { describe, expect, it } from "vitest";
import { callTool, ok } from "./helpers/mcp";

const PORTALS = { path: "/mcp?toolset=portals" };
const FULL = { path: "/mcp?toolset=full" };
const DAILY = { path: "/mcp?toolset=daily" };

/** Every string of an answer, joined (what an agent reads). */
function textOf(value: unknown): string {
  return JSON.stringify(value);
}

describe("prose hints", () => {
  it("name the connection's form of a command: golden op, call, flat tool or the daily door", async () => {
    const workspace = "prose/plan";
    await ok("tasks_create", { workspace, title: "Ship search" }, FULL);
    const portal = await ok("tasks", { workspace, op: "snapshot", args: { plan: "PLAN-001" } }, PORTALS);
    expect(portal.radar.next).toEqual(['Add tasks to PLAN-001 (tasks {op: "plan.create"} with parent).']);
    const flat = await ok("tasks_snapshot", { workspace, plan: "PLAN-001" }, FULL);
    expect(flat.radar.next).toEqual(["Add tasks to PLAN-001 (tasks_create with parent)."]);

    // An error's recovery hint, through the daily toolset's door and on the portals.
    const daily = await callTool("system", { workspace, op: "call", cmd: "jobs.open", args: { job: "JOB-404" } }, DAILY);
    expect(daily.isError).toBe(true);
    const dailyError = (daily.structuredContent as { error: { recovery_hint: string } }).error;
    expect(dailyError.recovery_hint).toBe('Call `system {op: "call", cmd: "jobs.list"}` to see the jobs.');
    const portals = await callTool("jobs", { workspace, op: "open", args: { job: "JOB-404" } }, PORTALS);
    expect((portals.structuredContent as { error: { recovery_hint: string } }).error.recovery_hint).toBe(
      'Call `jobs {op: "list"}` to see the jobs.',
    );
    const full = await callTool("jobs_open", { workspace, job: "JOB-404" }, FULL);
    expect((full.structuredContent as { error: { recovery_hint: string } }).error.recovery_hint).toBe("Call `jobs_list` to see the jobs.");
  });

  it("leave what writers stored as written, and a value quoted back as sent", async () => {
    const workspace = "prose/stored";
    const content = "Remember: tasks_create takes a parent; see `jobs_list` too.";
    await ok("notes_commit", { workspace, content, meta: { hint: "tasks_create", why: ["jobs_list"] } }, FULL);
    const shown = await ok("docs", { workspace, op: "show", args: { doc_kind: "notes" } }, PORTALS);
    const entry = shown.entries.find((candidate: { content?: string }) => candidate.content === content);
    expect(entry, textOf(shown.entries)).toBeDefined();
    expect(entry.meta).toMatchObject({ hint: "tasks_create", why: ["jobs_list"] });

    const job = await ok("jobs_create", { workspace, title: "Rank", prompt: "Use jobs_report when done" }, FULL);
    const claim = await ok("jobs_claim", { workspace, job: job.job.id }, FULL);
    await ok("jobs_report", { workspace, job: job.job.id, claim_revision: claim.claim_revision, message: "ran tasks_create twice" }, FULL);
    const opened = await ok("jobs", { workspace, op: "open", args: { job: job.job.id } }, PORTALS);
    expect(opened.job.prompt).toBe("Use jobs_report when done");
    expect(textOf(opened.events)).toContain('"message":"ran tasks_create twice"');

    const unknown = await callTool("tasks", { workspace, op: "notes_commit" }, PORTALS);
    expect((unknown.structuredContent as { error: { message: string } }).error.message).toBe('The tasks portal has no op "notes_commit".');
  });
});
