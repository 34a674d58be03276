// End-to-end through the MCP endpoint: a card id is written once (seed 001: "repeating the same
// `card_id` must be a no-op"; the original refused "card_id already exists with a different payload").
// The same card again writes nothing; a changed card is ALREADY_EXISTS, whose actions (think_set_status,
// think_link, think_card with revise: true) change it explicitly; a revision answers updated: true and
// is logged in the trace as one. Fields other commands own (status, pins, step tags) do not make a
// repeated call "changed".

import { describe, expect, it } from "vitest";
import { failure, ok } from "./helpers/mcp";

type Action = { tool: string; args: Record<string, unknown>; purpose: string };
type Entry = { title: string; meta: Record<string, unknown> };

const traceOf = async (workspace: string) => (await ok("show", { workspace, branch: "main", doc: "trace", limit: 200 })).entries as Entry[];
const cardOf = async (workspace: string, id: string) => (await ok("think_query", { workspace, ids: [id] })).cards[0];
const actionOf = (actions: Action[] | undefined, tool: string) => (actions ?? []).find((action) => action.tool === tool) as Action;

describe("think_card: idempotent by card_id", () => {
  it("answers a repeated card with inserted: false and writes nothing, through think_card and think_add_*", async () => {
    const workspace = "think-idem/repeat";
    const card = { id: "H1", type: "hypothesis", title: "The cache is cold", text: "Misses after deploy.", tags: ["Perf"] };
    expect(await ok("think_card", { workspace, card })).toMatchObject({ card_id: "H1", inserted: true, updated: false });
    const before = await cardOf(workspace, "H1");
    const repeat = await ok("think_card", { workspace, card: { ...card, tags: ["perf"] } });
    expect(repeat).toMatchObject({ inserted: false, updated: false, graph_applied: { nodes_upserted: 0, edges_upserted: 0 } });
    expect(repeat.last_seq).toBeUndefined();
    // The same card through its typed wrapper, and as `key: value` lines, is the same payload.
    const wrapped = await ok("think_add_hypothesis", { workspace, id: "H1", title: card.title, text: card.text, tags: ["perf"] });
    expect(wrapped).toMatchObject({ inserted: false, updated: false });
    const dsl = "id: H1\ntype: hypothesis\ntitle: The cache is cold\ntext: Misses after deploy.\ntags: PERF";
    expect(await ok("think_card", { workspace, card: dsl })).toMatchObject({ inserted: false, updated: false });
    expect(await traceOf(workspace)).toHaveLength(1);
    expect((await cardOf(workspace, "H1")).last_seq).toBe(before.last_seq);
  });

  it("refuses a changed payload with ALREADY_EXISTS and writes nothing; the revise action writes a revision", async () => {
    const workspace = "think-idem/changed";
    await ok("think_add_hypothesis", { workspace, id: "H0", title: "Other" });
    await ok("think_card", { workspace, card: { id: "H1", type: "hypothesis", title: "The cache is cold" } });
    const before = await cardOf(workspace, "H1");
    const changed = { id: "H1", type: "hypothesis", title: "The cache is cold after deploys" };
    const refused = await failure("think_card", { workspace, card: changed, supports: ["H0"] });
    expect(refused.code).toBe("ALREADY_EXISTS");
    expect(refused.message).toContain("different payload");
    expect(refused.details).toEqual({
      card_id: "H1",
      branch: "main",
      graph_doc: "graph",
      changed: ["title"],
      new_edges: [{ rel: "supports", to: "H0" }],
    });
    // Nothing of the refused call landed: no version, no edge, no trace note.
    expect(await cardOf(workspace, "H1")).toEqual(before);
    expect((await ok("graph_query", { workspace, ids: ["H1"] })).edges).toEqual([]);
    expect(await traceOf(workspace)).toHaveLength(2);

    // The actions: the edge through think_link, and the whole payload as a revision.
    expect(actionOf(refused.actions as Action[], "think_link").args).toEqual({ workspace, from: "H1", rel: "supports", to: "H0" });
    expect(actionOf(refused.actions as Action[], "think_set_status")).toBeUndefined();
    const revise = actionOf(refused.actions as Action[], "think_card");
    expect(revise.args).toEqual({ workspace, card: changed, supports: ["H0"], revise: true });
    const revised = await ok(revise.tool, revise.args);
    expect(revised).toMatchObject({
      card_id: "H1",
      inserted: false,
      updated: true,
      graph_applied: { nodes_upserted: 1, edges_upserted: 1 },
    });
    expect(await cardOf(workspace, "H1")).toMatchObject({ title: "The cache is cold after deploys", status: "open" });
    const trace = await traceOf(workspace);
    expect(trace).toHaveLength(3);
    expect(trace[1]?.meta).not.toHaveProperty("revision");
    expect(trace[2]).toMatchObject({
      title: "The cache is cold after deploys",
      meta: { card_id: "H1", revision: true, revised: ["title", "edges"], supports: ["H0"] },
    });
    // The revised card repeated, with or without revise, is a no-op again.
    expect(await ok("think_card", { workspace, card: changed, supports: ["H0"] })).toMatchObject({ inserted: false, updated: false });
    expect(await ok(revise.tool, revise.args)).toMatchObject({ inserted: false, updated: false });
    expect(await traceOf(workspace)).toHaveLength(3);
  });

  it("offers think_set_status for a changed status, and think_add_* is refused the same way", async () => {
    const workspace = "think-idem/status";
    await ok("think_add_decision", { workspace, id: "D1", title: "Use an LRU" });
    const refused = await failure("think_add_decision", { workspace, id: "D1", title: "Use an LRU", status: "Accepted" });
    expect(refused.code).toBe("ALREADY_EXISTS");
    expect(refused.details?.changed).toEqual(["status"]);
    const setStatus = actionOf(refused.actions as Action[], "think_set_status");
    expect(setStatus.args).toEqual({ workspace, card_id: "D1", status: "accepted" });
    expect(actionOf(refused.actions as Action[], "think_card").args).toEqual({
      workspace,
      card: { id: "D1", type: "decision", title: "Use an LRU", status: "accepted" },
      revise: true,
    });
    expect(await ok(setStatus.tool, setStatus.args)).toMatchObject({ changed: true });
    // Now the refused call is the card's state: a no-op. So is the first call, which gave no status.
    expect(await ok("think_add_decision", { workspace, id: "D1", title: "Use an LRU", status: "accepted" })).toMatchObject({
      inserted: false,
    });
    expect(await ok("think_add_decision", { workspace, id: "D1", title: "Use an LRU" })).toMatchObject({ inserted: false, updated: false });
    // A different status given explicitly is still a change.
    expect((await failure("think_add_decision", { workspace, id: "D1", title: "Use an LRU", status: "rejected" })).code).toBe(
      "ALREADY_EXISTS",
    );
    expect((await cardOf(workspace, "D1")).status).toBe("accepted");
  });

  it("keeps a repeat a no-op after think_pin, think_link and a moved step focus; a revision keeps them", async () => {
    const workspace = "think-idem/owned";
    const plan = await ok("tasks_create", { workspace, title: "P" });
    const task = await ok("tasks_create", { workspace, parent: plan.id, title: "T", steps: [{ title: "a" }, { title: "b" }] });
    const first = `step:${task.steps[0].id.toLowerCase()}`;
    const call = { workspace, target: task.id, id: "H1", title: "It is the index", tags: ["db"] };
    await ok("think_add_hypothesis", call);
    await ok("think_add_test", { workspace, target: task.id, id: "T1", title: "Measure" });
    await ok("think_pin", { workspace, target: task.id, card_id: "H1" });
    await ok("think_link", { workspace, target: task.id, from: "H1", rel: "blocks", to: "T1" });
    await ok("tasks_close_step", { workspace, task: task.id, step: "focus" });
    const read = async () => (await ok("think_query", { workspace, target: task.id, ids: ["H1"] })).cards[0];
    const before = await read();
    expect(before.tags).toEqual(["db", "pinned", first]);
    // The focus is on the second step now, the card is pinned and has an edge the call does not name.
    expect(await ok("think_add_hypothesis", call)).toMatchObject({ inserted: false, updated: false });
    expect(await read()).toEqual(before);

    // A revision changes what the call gives and keeps the pin, the step tag and the status.
    await ok("think_set_status", { workspace, target: task.id, card_id: "H1", status: "accepted" });
    const card = { id: "H1", type: "hypothesis", title: "It is the missing index", tags: ["db"] };
    expect((await failure("think_card", { workspace, target: task.id, card })).code).toBe("ALREADY_EXISTS");
    expect(await ok("think_card", { workspace, target: task.id, card, revise: true })).toMatchObject({ inserted: false, updated: true });
    expect(await read()).toMatchObject({ title: "It is the missing index", status: "accepted", tags: ["db", "pinned", first] });
  });

  it("refuses revise without a card id or without a live card to revise, and writes nothing", async () => {
    const workspace = "think-idem/revise-guards";
    const missing = await failure("think_card", { workspace, card: { id: "NOPE", title: "x" }, revise: true });
    expect(missing).toMatchObject({ code: "UNKNOWN_ID", details: { id: "NOPE" } });
    expect((await failure("think_card", { workspace, card: "just text", revise: true })).code).toBe("INVALID_INPUT");
    expect((await ok("think_query", { workspace, ids: ["NOPE"] })).cards).toEqual([]);
    expect(await traceOf(workspace)).toEqual([]);
  });

  it("re-publishing a revised draft updates the copy: updated: true, not inserted", async () => {
    const workspace = "think-idem/publish";
    await ok("think_add_note", { workspace, id: "N1", text: "half-baked", lane: "agent" });
    expect(await ok("think_publish", { workspace, card_id: "N1" })).toMatchObject({ card_id: "CARD-PUB-N1", inserted: true });
    await ok("think_card", { workspace, card: { id: "N1", type: "note", text: "baked" }, revise: true });
    expect(await ok("think_publish", { workspace, card_id: "N1" })).toMatchObject({ inserted: false, updated: true });
    expect((await cardOf(workspace, "CARD-PUB-N1")).text).toBe("baked");
    expect(await ok("think_publish", { workspace, card_id: "N1" })).toMatchObject({ inserted: false, updated: false });
  });
});
