// Reopening a closed subgoal (docs/think.md "Subgoals and nominal merge"): think_subgoal_open with the id
// of a closed subgoal sets its status back to `open`, logs it in the child and the scope's trace, and is
// journaled like any write; opening it again, or an open one, writes nothing.

import { describe, expect, it } from "vitest";
import { ok } from "./helpers/mcp";

const titles = (answer: { entries: { title?: string }[] }) => answer.entries.map((entry) => entry.title);

describe("think_subgoal_open on a closed subgoal", () => {
  it("sets the status back to open, logs it in both traces and journals it once", async () => {
    const workspace = "subgoal-reopen/done";
    await ok("think_add_question", { workspace, id: "Q1", title: "Why is p95 high?" });
    await ok("think_subgoal_open", { workspace, parent: "Q1", id: "SG1", title: "Is it GC?" });
    await ok("think_subgoal_close", { workspace, subgoal_id: "SG1", summary: "No: GC pauses are 2 ms." });
    const tick = (await ok("status", { workspace })).tick as number;

    const reopened = await ok("think_subgoal_open", { workspace, parent: "Q1", id: "SG1", title: "Is it GC?" });
    expect(reopened).toMatchObject({ subgoal_id: "SG1", parent: "Q1", trace_doc: "trace-SG1", opened: true, reopened: true });
    const card = (await ok("graph_query", { workspace, ids: ["SG1"] })).nodes[0];
    expect(card).toMatchObject({ id: "SG1", status: "open", tags: ["subgoal"] });
    expect(titles(await ok("show", { workspace, doc: "trace-SG1" }))).toEqual(["subgoal opened", "subgoal closed", "subgoal reopened"]);
    const trace = await ok("show", { workspace, doc: "trace" });
    expect(trace.entries.at(-1)).toMatchObject({
      title: "subgoal SG1 open",
      meta: { card_id: "SG1", card_type: "question", status: "open" },
    });
    const status = await ok("status", { workspace });
    expect(status.tick).toBe(tick + 1);
    expect(status.last_event).toMatchObject({ command: "think_subgoal_open" });

    // Open already: nothing more is written.
    const again = await ok("think_subgoal_open", { workspace, parent: "Q1", id: "SG1", title: "Is it GC?" });
    expect(again).toMatchObject({ opened: false });
    expect(again.reopened).toBeUndefined();
    expect((await ok("status", { workspace })).tick).toBe(tick + 1);
    expect(titles(await ok("show", { workspace, doc: "trace-SG1" }))).toHaveLength(3);

    // It closes again as any open subgoal does.
    expect(await ok("think_subgoal_close", { workspace, subgoal_id: "SG1", status: "rejected" })).toMatchObject({ changed: true });
    const second = await ok("think_subgoal_open", { workspace, parent: "Q1", id: "SG1", title: "Is it GC?" });
    expect(second).toMatchObject({ opened: true, reopened: true });
    expect((await ok("graph_query", { workspace, ids: ["SG1"] })).nodes[0].status).toBe("open");
  });
});
