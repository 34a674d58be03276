// Leaner items, through the real MCP endpoint (toolset=full): an entry shows one timestamp form (`ts`),
// leaves out `branch` and `doc` only where they equal the place the answer read (base entries of an
// effective view keep theirs), and an item whose body the same answer holds elsewhere (a task event in
// the timeline, a card at that version in the card list) is named, not repeated — and only then.

import { describe, expect, it } from "vitest";
import { ok } from "./helpers/mcp";

type Entry = Record<string, any>;

describe("leaner items", () => {
  it("entries carry ts (no ts_ms), and branch and doc only where they differ from where the answer read", async () => {
    const workspace = "lean/entries";
    const first = await ok("notes_commit", { workspace, content: "on main" });
    // A single entry has no container: it says where it lives.
    expect(first.entry).toMatchObject({ seq: expect.any(Number), ts: expect.any(String), branch: "main", doc: "notes", kind: "note" });
    expect(first.entry).not.toHaveProperty("ts_ms");
    await ok("branch_create", { workspace, name: "side" });
    await ok("notes_commit", { workspace, branch: "side", content: "on side" });
    const shown = await ok("show", { workspace, branch: "side", doc: "notes" });
    const [base, own] = shown.entries as Entry[];
    expect(base).toMatchObject({ content: "on main", branch: "main" });
    expect(base).not.toHaveProperty("doc");
    expect(own).toMatchObject({ content: "on side" });
    for (const field of ["branch", "doc", "ts_ms"]) expect(own).not.toHaveProperty(field);
    const diffed = await ok("diff", { workspace, from: "main", to: "side" });
    expect(diffed.entries).toEqual([own]);
  });

  it("context_pack names a card write by card_id where its card shows that version, and repeats nothing of it", async () => {
    const workspace = "lean/pack";
    await ok("think_add_evidence", { workspace, id: "E1", title: "Seen", text: "The scan reads every row." });
    await ok("think_add_evidence", { workspace, id: "E2", title: "Seen again", text: "First version." });
    // A second version of a card is an explicit revision (a changed card under its id alone is refused).
    await ok("think_card", { workspace, card: { id: "E2", type: "evidence", title: "Seen again", text: "Second version." }, revise: true });
    const pack = await ok("context_pack", { workspace });
    const card = (id: string) => (pack.cards as Entry[]).find((item) => item.id === id);
    const writes = (pack.trace.entries as Entry[]).filter((entry) => entry.meta?.card_id !== undefined);
    const [e1, e2first, e2second] = writes;
    // E1 and E2's last write are named: the card list holds their text.
    expect(e1).toMatchObject({ title: "Seen", meta: { card_id: "E1" } });
    expect(e1).not.toHaveProperty("content");
    expect(e2second).toMatchObject({ meta: { card_id: "E2" } });
    expect(e2second).not.toHaveProperty("content");
    // E2's first version is history the card list no longer shows: it keeps its body.
    expect(e2first).toMatchObject({ content: "First version.", meta: { card_id: "E2", card_type: "evidence" } });
    expect(card("E2")?.text).toBe("Second version.");
    // The evidence signal names the cards the card list holds at the same version.
    const signal = (pack.signals.evidence as Entry[]).find((item) => item.id === "E2");
    expect(signal).toMatchObject({ id: "E2", type: "evidence", title: "Seen again", last_seq: card("E2")?.last_seq });
    expect(signal).not.toHaveProperty("text");
    for (const entry of pack.trace.entries as Entry[])
      for (const field of ["branch", "doc", "ts_ms"]) expect(entry).not.toHaveProperty(field);
  });

  it("a snapshot names the trace entries of the events its timeline shows, and only those", async () => {
    const workspace = "lean/snapshot";
    const plan = await ok("tasks_create", { workspace, title: "Plan" });
    const task = await ok("tasks_create", { workspace, parent: plan.id, title: "Lean", steps: [{ title: "One" }, { title: "Two" }] });
    await ok("tasks_focus_set", { workspace, target: task.id });
    await ok("tasks_note", { workspace, task: task.id, note: "A step note with its words." });
    const whole = await ok("tasks_snapshot", { workspace, budget_profile: "audit" });
    const shown = new Set((whole.timeline.events as Entry[]).map((event) => event.event_id));
    for (const event of whole.timeline.events as Entry[]) expect(event).not.toHaveProperty("task");
    const events = (whole.memory.trace as Entry[]).filter((entry) => entry.kind === "event");
    expect(events.length).toBeGreaterThan(0);
    for (const entry of events) {
      expect(shown.has(entry.meta.event_id)).toBe(true);
      expect(Object.keys(entry.meta)).toEqual(["event_id"]);
      expect(entry).not.toHaveProperty("content");
    }
    expect(whole.memory.notes[0]).toMatchObject({ content: "A step note with its words." });
    expect(whole.memory.notes[0]).not.toHaveProperty("branch");
    // With a timeline of one event, the other events' entries keep their body.
    const narrow = await ok("tasks_snapshot", { workspace, budget_profile: "audit", events_limit: 1 });
    const [kept] = narrow.timeline.events as Entry[];
    for (const entry of (narrow.memory.trace as Entry[]).filter((item) => item.kind === "event")) {
      if (entry.meta.event_id === kept?.event_id) expect(entry).not.toHaveProperty("content");
      else expect(entry).toMatchObject({ content: expect.any(String), meta: { type: expect.any(String), task: task.id } });
    }
  });
});
