// End-to-end: `open` through the real MCP endpoint (toolset=full): every ref kind of the grammar —
// cards with edges and lanes, document entries by global seq, plans and tasks read-only (focus
// unchanged), steps with leases, anchors canon-first — the typed refusals, and tight budgets.

import { describe, expect, it } from "vitest";
import { openRef } from "../src/capabilities/open/open.commands";
import { MIN_BUDGET_CHARS } from "../src/shared/limits";
import { as, failure, ok, type RpcOptions, rpc } from "./helpers/mcp";

const FULL: RpcOptions = { path: "/mcp?toolset=full" };

async function agent(name: string): Promise<RpcOptions> {
  return { ...(await as(name)), ...FULL };
}

const ids = (list: { id: string }[]) => list.map((item) => item.id);
const edgeIds = (list: { from: string; rel: string; to: string; direction: string }[]) =>
  list.map((edge) => `${edge.from} ${edge.rel} ${edge.to} (${edge.direction})`);

/** The answer matches the command's own output schema (tools/list lists an outline of it). */
function expectShape(payload: Record<string, unknown>): void {
  const parsed = openRef.output.safeParse(payload);
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
}

describe("open", () => {
  it("is a read-only tool of the full toolset", async () => {
    const response = await rpc("tools/list", {}, FULL);
    const tools = (JSON.parse(await response.text()) as { result: { tools: { name: string; annotations: Record<string, unknown> }[] } })
      .result.tools;
    expect(tools.find((tool) => tool.name === "open")?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
  });

  it("opens a card of the checkout graph with its edges grouped by relation, bounded by limit", async () => {
    const workspace = "open/card";
    const alice = await agent("alice");
    // A text long enough that the card's answer is above the smallest budget.
    const text = "The orders query scans the whole table. ".repeat(20);
    await ok("think_add_hypothesis", { workspace, id: "CARD-H", title: "The index is missing", text, tags: ["perf"] }, alice);
    await ok("think_add_evidence", { workspace, id: "CARD-E", title: "EXPLAIN shows a scan", supports: ["CARD-H"] }, alice);
    await ok("think_add_question", { workspace, id: "CARD-Q", title: "Which column?", blocks: ["CARD-H"] }, alice);
    await ok("think_add_test", { workspace, id: "CARD-T", title: "Measure p95" }, alice);
    await ok("think_link", { workspace, from: "CARD-H", rel: "refines", to: "CARD-T" }, alice);

    const opened = await ok("open", { workspace, id: "CARD-H" }, alice);
    expectShape(opened);
    expect(opened).toMatchObject({
      kind: "card",
      ref: "CARD-H",
      card: { id: "CARD-H", type: "hypothesis", title: "The index is missing", tags: ["perf"], lane: "shared" },
      head: { branch: "main", doc: "graph", seq: opened.card.last_seq },
      truncated: false,
    });
    expect(edgeIds(opened.edges.supports)).toEqual(["CARD-E supports CARD-H (in)"]);
    expect(edgeIds(opened.edges.blocks)).toEqual(["CARD-Q blocks CARD-H (in)"]);
    expect(edgeIds(opened.edges.other)).toEqual(["CARD-H refines CARD-T (out)"]);
    expect(opened.edges.has_more).toBe(false);
    expect(opened.budget).toMatchObject({ truncated: false });

    // limit bounds the edges in all, newest first.
    const one = await ok("open", { workspace, id: "CARD-H", limit: 1 }, alice);
    expect([...one.edges.supports, ...one.edges.blocks, ...one.edges.other].map((edge: { rel: string }) => edge.rel)).toEqual(["refines"]);
    expect(one.edges.has_more).toBe(true);

    const missing = await failure("open", { workspace, id: "CARD-404" }, alice);
    expect(missing).toMatchObject({ code: "UNKNOWN_ID", details: { id: "CARD-404", searched: ["main/graph"] } });
    expect(missing.recovery_hint).toMatch(/think_query/);

    // Just under its size, the answer drops edges and says more exist.
    const under = await ok("open", { workspace, id: "CARD-H", max_chars: opened.budget.used_chars - 1 }, alice);
    expect(under.budget.truncated).toBe(true);
    expect(under.budget.used_chars).toBeLessThan(opened.budget.used_chars);
    expect(under.card.id).toBe("CARD-H");
    expect([...under.edges.supports, ...under.edges.blocks, ...under.edges.other].length).toBeLessThan(3);
    expect(under.edges.has_more).toBe(true);

    // A tight budget still answers, with its budget report.
    const tight = await ok("open", { workspace, id: "CARD-H", max_chars: MIN_BUDGET_CHARS }, alice);
    expect(tight.budget).toMatchObject({ max_chars: MIN_BUDGET_CHARS, truncated: true });
    expect(tight.budget.used_chars).toBeLessThanOrEqual(MIN_BUDGET_CHARS);
    expect(tight.kind).toBe("card");
  });

  it("finds a card of the focused task's graph when the checkout has none of that id", async () => {
    const workspace = "open/card-focus";
    const alice = await agent("alice");
    const plan = await ok("tasks_create", { workspace, title: "P" }, alice);
    const task = await ok("tasks_create", { workspace, parent: plan.id, title: "T" }, alice);
    await ok("think_add_decision", { workspace, target: task.id, id: "CARD-D", title: "Use FTS" }, alice);
    const unfocused = await failure("open", { workspace, id: "CARD-D" }, alice);
    expect(unfocused.code).toBe("UNKNOWN_ID");
    expect(unfocused.details?.searched).toEqual(["main/graph"]);
    await ok("tasks_focus_set", { workspace, target: task.id }, alice);
    const opened = await ok("open", { workspace, id: "CARD-D" }, alice);
    expect(opened).toMatchObject({
      kind: "card",
      card: { id: "CARD-D", type: "decision" },
      head: { branch: `task/${task.id}`, doc: `${task.id}-graph` },
    });
    // The checkout still wins when both hold the id.
    await ok("think_add_decision", { workspace, id: "CARD-D", title: "On main" }, alice);
    expect((await ok("open", { workspace, id: "CARD-D" }, alice)).head).toMatchObject({ branch: "main", doc: "graph" });
  });

  it("respects lanes: another agent's draft is unknown unless include_drafts, and publish shares it", async () => {
    const workspace = "open/lanes";
    const alice = await agent("alice");
    const bob = await agent("bob");
    await ok("think_add_hypothesis", { workspace, id: "CARD-H", title: "shared" }, alice);
    await ok("think_add_note", { workspace, id: "CARD-D", text: "half-baked", lane: "agent", supports: ["CARD-H"] }, alice);

    expect((await ok("open", { workspace, id: "CARD-D" }, alice)).card.lane).toBe("agent/alice");
    const hidden = await failure("open", { workspace, id: "CARD-D" }, bob);
    expect(hidden.code).toBe("UNKNOWN_ID");
    expect(hidden.message).toBe((await failure("open", { workspace, id: "CARD-NONE" }, bob)).message.replace("CARD-NONE", "CARD-D"));
    expect((await ok("open", { workspace, id: "CARD-D", include_drafts: true }, bob)).card).toMatchObject({
      id: "CARD-D",
      lane: "agent/alice",
    });

    // The draft's edge does not show through a shared card either, unless every lane is asked for.
    expect((await ok("open", { workspace, id: "CARD-H" }, bob)).edges.supports).toEqual([]);
    expect(edgeIds((await ok("open", { workspace, id: "CARD-H" }, alice)).edges.supports)).toEqual(["CARD-D supports CARD-H (in)"]);
    expect(edgeIds((await ok("open", { workspace, id: "CARD-H", include_drafts: true }, bob)).edges.supports)).toEqual([
      "CARD-D supports CARD-H (in)",
    ]);

    await ok("think_publish", { workspace, card_id: "CARD-D" }, alice);
    expect((await ok("open", { workspace, id: "CARD-PUB-CARD-D" }, bob)).card).toMatchObject({
      id: "CARD-PUB-CARD-D",
      lane: "shared",
      meta: { published_from: "CARD-D" },
    });

    // Cards are read from the caller's checkout: a card on another branch is unknown on main.
    await ok("branch_create", { workspace, name: "idea" }, alice);
    await ok("checkout", { workspace, ref: "idea" }, alice);
    await ok("think_add_decision", { workspace, id: "CARD-X", title: "only on idea" }, alice);
    expect((await ok("open", { workspace, id: "CARD-X" }, alice)).head).toMatchObject({ branch: "idea", doc: "graph" });
    expect((await failure("open", { workspace, id: "CARD-X" }, bob)).details).toMatchObject({ searched: ["main/graph"] });
  });

  it("opens a document entry by its global seq; the doc prefix must be the entry's doc", async () => {
    const workspace = "open/entry";
    const alice = await agent("alice");
    const note = (await ok("notes_commit", { workspace, content: "first thought", title: "T" }, alice)).entry;
    const opened = await ok("open", { workspace, id: `notes@${note.seq}` }, alice);
    expectShape(opened);
    expect(opened).toMatchObject({ kind: "entry", ref: `notes@${note.seq}`, entry: { ...note, branch: "main" } });
    expect(opened).not.toHaveProperty("content_truncated");

    // An entry of a task's trace doc, on the task's branch, opens by the same rule.
    const plan = await ok("tasks_create", { workspace, title: "P" }, alice);
    const task = await ok("tasks_create", { workspace, parent: plan.id, title: "T", steps: [{ title: "s" }] }, alice);
    await ok("think_add_note", { workspace, target: task.id, text: "on the task" }, alice);
    const trace = await ok("show", { workspace, target: task.id, doc_kind: "trace", limit: 1 }, alice);
    const last = trace.entries[0];
    const onTask = await ok("open", { workspace, id: `${task.id}-trace@${last.seq}` }, alice);
    expect(onTask.entry).toMatchObject({ seq: last.seq, doc: `${task.id}-trace`, branch: `task/${task.id}`, content: last.content });

    const wrongDoc = await failure("open", { workspace, id: `trace@${note.seq}` }, alice);
    expect(wrongDoc).toMatchObject({ code: "UNKNOWN_ID", details: { seq: note.seq, doc: "trace" } });
    expect(wrongDoc.actions?.[0]).toMatchObject({ tool: "open", args: { id: `notes@${note.seq}` } });
    expect((await failure("open", { workspace, id: "notes@999999" }, alice)).code).toBe("UNKNOWN_ID");

    // A long entry under a tight budget is cut, and says so.
    const long = (await ok("notes_commit", { workspace, content: "x".repeat(5000) }, alice)).entry;
    const cut = await ok("open", { workspace, id: `notes@${long.seq}`, max_chars: MIN_BUDGET_CHARS }, alice);
    expect(cut).toMatchObject({ kind: "entry", content_truncated: true, entry: { seq: long.seq, doc: "notes" } });
    expect(cut.entry.content.length).toBeLessThan(5000);
    expect(cut.budget.used_chars).toBeLessThanOrEqual(MIN_BUDGET_CHARS);
    expect((await ok("open", { workspace, id: `notes@${long.seq}` }, alice)).entry.content).toHaveLength(5000);
  });

  it("opens plans and tasks read-only: capsule, reasoning ref, step focus — and leaves the focus alone", async () => {
    const workspace = "open/task";
    const alice = await agent("alice");
    const bob = await agent("bob");
    const plan = await ok("tasks_create", { workspace, title: "Ship search" }, alice);
    const task = await ok("tasks_create", { workspace, parent: plan.id, title: "Index", steps: [{ title: "a" }, { title: "b" }] }, alice);
    await ok("tasks_focus_set", { workspace, target: plan.id }, alice);

    const opened = await ok("open", { workspace, id: task.id }, alice);
    expectShape(opened);
    expect(opened).toMatchObject({
      kind: "task",
      ref: task.id,
      view: "focus_only",
      target: { id: task.id, kind: "task", title: "Index" },
      reasoning_ref: { branch: `task/${task.id}`, notes_doc: "notes", trace_doc: `${task.id}-trace`, graph_doc: `${task.id}-graph` },
      step_focus: { step: { id: task.steps[0].id, path: "s:0", title: "a" } },
      capsule: { where: { workspace, target: { id: task.id } } },
    });
    expect((await ok("tasks_focus_get", { workspace }, alice)).focus).toBe(plan.id);
    await ok("open", { workspace, id: task.id }, bob);
    expect((await ok("tasks_focus_get", { workspace }, bob)).focus).toBeNull();
    expect((await ok("open", { workspace, id: task.id, include_drafts: true }, alice)).view).toBe("audit");

    const planView = await ok("open", { workspace, id: plan.id }, alice);
    expect(planView).toMatchObject({ kind: "plan", target: { id: plan.id, kind: "plan" }, step_focus: null });
    expect((await ok("tasks_focus_get", { workspace }, alice)).focus).toBe(plan.id);

    expect((await failure("open", { workspace, id: "TASK-999" }, alice)).code).toBe("UNKNOWN_ID");
    expect((await failure("open", { workspace, id: "PLAN-999" }, alice)).code).toBe("UNKNOWN_ID");

    const tight = await ok("open", { workspace, id: task.id, max_chars: MIN_BUDGET_CHARS }, alice);
    expect(tight.budget).toMatchObject({ max_chars: MIN_BUDGET_CHARS, truncated: true });
    expect(tight.budget.used_chars).toBeLessThanOrEqual(MIN_BUDGET_CHARS);
    // The smallest rungs keep the best action whole (and the target's id while it fits).
    expect(tight.capsule.next.action).toMatchObject({ args: { workspace, task: task.id } });
  });

  it("opens a step by its id alone, with its live lease", async () => {
    const workspace = "open/step";
    const alice = await agent("alice");
    const bob = await agent("bob");
    const plan = await ok("tasks_create", { workspace, title: "P" }, alice);
    const task = await ok("tasks_create", { workspace, parent: plan.id, title: "T", steps: [{ title: "a" }, { title: "b" }] }, alice);
    const claimed = await ok("tasks_step_lease_claim", { workspace, task: task.id, path: "s:0" }, alice);

    const leased = await ok("open", { workspace, id: task.steps[0].id }, bob);
    expectShape(leased);
    expect(leased).toMatchObject({
      kind: "step",
      ref: task.steps[0].id,
      task: { id: task.id, title: "T", status: expect.any(String) },
      step: { id: task.steps[0].id, path: "s:0", title: "a", completed: false },
      lease: { holder: "alice", expires_tick: claimed.lease.expires_tick },
    });
    expect((await ok("open", { workspace, id: task.steps[1].id }, bob)).lease).toBeNull();
    expect((await failure("open", { workspace, id: "STEP-FFFFFFFF" }, bob)).code).toBe("UNKNOWN_ID");
  });

  it("opens an anchor: its visible cards canon-first (pinned, decision, evidence, test, newest), bounded", async () => {
    const workspace = "open/anchor";
    const alice = await agent("alice");
    const bob = await agent("bob");
    const tags = ["A:Storage"];
    // Written oldest to newest: recency alone would give N, T, E, D2, P, D.
    await ok("think_add_decision", { workspace, id: "CARD-D", title: "d", tags }, alice);
    await ok("think_add_note", { workspace, id: "CARD-P", text: "p", tags }, alice);
    await ok("think_add_decision", { workspace, id: "CARD-D2", title: "d2", tags }, alice);
    await ok("think_add_evidence", { workspace, id: "CARD-E", title: "e", tags }, alice);
    await ok("think_add_test", { workspace, id: "CARD-T", title: "t", tags }, alice);
    await ok("think_add_note", { workspace, id: "CARD-N", text: "n", tags }, alice);
    await ok("think_add_note", { workspace, id: "CARD-OTHER", text: "not this anchor", tags: ["a:storage-2", "storage"] }, alice);
    await ok("think_add_note", { workspace, id: "CARD-BOB", text: "bob's draft", tags: ["a:storage"], lane: "agent" }, bob);
    await ok("think_pin", { workspace, card_id: "CARD-P" }, alice);

    const anchor = await ok("open", { workspace, id: "a:storage" }, alice);
    expectShape(anchor);
    // A canon card (a decision) tagged with the unregistered anchor registered it.
    expect(anchor).toMatchObject({ kind: "anchor", ref: "a:storage", anchor: "a:storage", registered: true, has_more: false });
    expect(anchor.cards.every((card: { branch: string; graph_doc: string }) => card.branch === "main" && card.graph_doc === "graph")).toBe(
      true,
    );
    expect(ids(anchor.cards)).toEqual(["CARD-P", "CARD-D2", "CARD-D", "CARD-E", "CARD-T", "CARD-N"]);

    const page = await ok("open", { workspace, id: "a:storage", limit: 3 }, alice);
    expect(ids(page.cards)).toEqual(["CARD-P", "CARD-D2", "CARD-D"]);
    expect(page.has_more).toBe(true);

    expect(ids((await ok("open", { workspace, id: "a:storage" }, bob)).cards)).toContain("CARD-BOB");
    expect(ids((await ok("open", { workspace, id: "a:storage", include_drafts: true }, alice)).cards)).toContain("CARD-BOB");

    expect(await ok("open", { workspace, id: "a:nothing-here" }, alice)).toMatchObject({
      kind: "anchor",
      registered: false,
      cards: [],
      has_more: false,
    });
    const bad = await failure("open", { workspace, id: "a:Storage Layer" }, alice);
    expect(bad).toMatchObject({ code: "INVALID_INPUT", details: { field: "id", suggestion: "a:storage-layer" } });

    const tight = await ok("open", { workspace, id: "a:storage", max_chars: MIN_BUDGET_CHARS }, alice);
    expect(tight.budget).toMatchObject({ max_chars: MIN_BUDGET_CHARS, truncated: true });
    expect(tight.budget.used_chars).toBeLessThanOrEqual(MIN_BUDGET_CHARS);
    expect(tight.has_more).toBe(true);
    // What survives is the head of the canon-first order, as ids.
    expect(tight.cards.length).toBeGreaterThan(0);
    expect(ids(tight.cards)).toEqual(ids(anchor.cards).slice(0, tight.cards.length));
  });

  it("opens a job with its event tail, and one event by JOB-…@<n>", async () => {
    const workspace = "open/job";
    const alice = await agent("alice");
    const created = await ok("jobs_create", { workspace, title: "Review", prompt: "Check the parser" }, alice);
    const claimed = await ok("jobs_claim", { workspace, job: created.job.id }, await agent("bob"));
    await ok(
      "jobs_report",
      { workspace, job: created.job.id, claim_revision: claimed.claim_revision, message: "half way" },
      await agent("bob"),
    );
    const opened = await ok("open", { workspace, id: created.job.id }, alice);
    expectShape(opened);
    expect(opened).toMatchObject({ kind: "job", ref: created.job.id, job: { id: created.job.id, status: "RUNNING" } });
    expect(opened.events.map((event: { type: string }) => event.type)).toEqual(["job_created", "job_claimed", "job_progress"]);
    const event = await ok("open", { workspace, id: `${created.job.id}@2` }, alice);
    expectShape(event);
    expect(event).toMatchObject({ kind: "job_event", event: { seq: 2, type: "job_claimed" } });
    const tight = await ok("open", { workspace, id: created.job.id, max_chars: MIN_BUDGET_CHARS }, alice);
    expect(tight.budget.used_chars).toBeLessThanOrEqual(MIN_BUDGET_CHARS);
    expect(tight.job.id).toBe(created.job.id);
    expect((await failure("open", { workspace, id: `${created.job.id}@9` }, alice)).code).toBe("UNKNOWN_ID");
  });

  it("opens a stored code slice, and warns CODE_REF_STALE when the caller's text differs", async () => {
    const workspace = "open/code";
    const alice = await agent("alice");
    const text = "export function add(a: number, b: number) {\n  return a + b;\n}";
    const attached = await ok("code_ref_attach", { workspace, path: "src/add.ts", start_line: 3, end_line: 5, text }, alice);
    const bare = await ok("open", { workspace, id: "code:src/add.ts#L3-L5" }, alice);
    expectShape(bare);
    expect(bare).toMatchObject({ kind: "code", ref: attached.ref, path: "src/add.ts", start_line: 3, end_line: 5, text });
    expect(bare.warnings).toBeUndefined();
    const same = await ok("open", { workspace, id: attached.ref, current_text: text }, alice);
    expect(same.warnings).toBeUndefined();
    const stale = await ok("open", { workspace, id: attached.ref, current_text: text.replace("+", "-") }, alice);
    expect(stale.warnings.map((warning: { code: string }) => warning.code)).toContain("CODE_REF_STALE");
    expect(stale.text).toBe(text);
  });

  it("refuses what it cannot open with typed errors", async () => {
    const workspace = "open/errors";
    const alice = await agent("alice");
    await ok("notes_commit", { workspace, content: "so the workspace exists" }, alice);

    const job = await failure("open", { workspace, id: "JOB-001" }, alice);
    expect(job).toMatchObject({ code: "UNKNOWN_ID", details: { id: "JOB-001", kind: "job" } });
    expect(job.message).toMatch(/no job/i);

    const sha = "0123456789abcdef".repeat(4);
    const code = await failure("open", { workspace, id: `code:src/app.ts#L10-L20@sha256:${sha}` }, alice);
    expect(code.code).toBe("UNKNOWN_ID");
    expect(code.actions?.[0]?.tool).toBe("code_ref_attach");

    for (const [id, problem] of [
      ["code:/etc/passwd#L1-L2", /repo-relative/],
      ["code:src/../x.ts#L1-L2", /'\.\.'/],
      ["code:src\\x.ts#L1-L2", /backslash/],
      ["code:x.ts#L9-L2", /before it starts/],
      ["code:x.ts#L1-L241", /at most 240/],
      ["code:x.ts#L0-L1", /start at 1/],
      ["code:x.ts", /line range/],
    ] as const) {
      const refused = await failure("open", { workspace, id }, alice);
      expect(refused.code, id).toBe("INVALID_INPUT");
      expect(refused.message, id).toMatch(problem);
    }

    for (const id of ["hello world", "H-cache", "task-001", "@5"]) {
      const unknown = await failure("open", { workspace, id }, alice);
      expect(unknown.code, id).toBe("UNKNOWN_ID");
      expect(unknown.recovery_hint, id).toMatch(/CARD-<id>.*<doc>@<seq>.*a:<slug>.*code:/);
    }
    expect((await failure("open", { workspace, id: "" }, alice)).code).toBe("INVALID_INPUT");
    expect((await failure("open", { workspace, id: "x".repeat(513) }, alice)).code).toBe("INVALID_INPUT");
    expect((await failure("open", { workspace, id: "a:storage", limit: 51 }, alice)).code).toBe("INVALID_INPUT");
  });
});
