// A step's open cards are one range of the term index (`og:<tag>`, migration 0019), however many closed
// cards carry the step's tag: a task's snapshot, which shows the open step's open cards first, reads
// about as many rows under 50,000 closed step-tagged cards as under 1,000, and still shows the open one.
// The closed cards are written straight into SQLite (the index's triggers keep it as for any write);
// everything else goes through the MCP endpoint.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { Db } from "../src/storage/db";
import { ok } from "./helpers/mcp";
import { callCounted } from "./helpers/rows-read";

/** `count` closed evidence cards tagged `tag` in `doc` on `branch`, on the workspace's seq clock. */
async function closedTagged(workspace: string, branch: string, doc: string, tag: string, count: number): Promise<void> {
  await runInDurableObject(env.WORKSPACES.getByName(workspace), (_instance, state) => {
    const db = new Db(state.storage.sql, state.storage);
    const branchId = db.one<{ id: string }>("SELECT id FROM branches WHERE name = ?", branch)?.id;
    if (branchId === undefined) throw new Error(`no branch ${branch} in ${workspace}`);
    const seq = db.one<{ value: number }>("SELECT value FROM clocks WHERE name = 'seq'")?.value ?? 0;
    db.run(
      `WITH RECURSIVE n (i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < CAST(? AS INTEGER))
       INSERT INTO graph_versions (seq, branch_id, doc, kind, key, node_type, title, status, tags_json, deleted, ts_ms, agent_id)
       SELECT CAST(? AS INTEGER) + 1 + i, ?, ?, 'node', 'DONE-' || i, 'evidence', 'closed ' || i, 'done', json_array(?), 0, 0, 'seed' FROM n`,
      count,
      seq,
      branchId,
      doc,
      tag,
    );
    db.run("UPDATE clocks SET value = ? WHERE name = 'seq'", seq + count);
  });
}

/** A focused task with an open step, one open card on that step, then `closed` newer closed cards on it. */
async function seed(workspace: string, closed: number): Promise<{ task: string; open: string }> {
  const plan = (await ok("tasks_create", { workspace, title: "Faster reads" })).id as string;
  const task = (await ok("tasks_create", { workspace, parent: plan, title: "Tune the cache" })).id as string;
  const decomposed = await ok("tasks_decompose", { workspace, task, steps: [{ title: "Measure" }, { title: "Decide" }] });
  await ok("tasks_focus_set", { workspace, target: task });
  const step = ((decomposed.steps as { id: string }[])[0] as { id: string }).id;
  const card = await ok("think_card", { workspace, target: task, card: { type: "hypothesis", title: "The cache is cold" } });
  // A card written for the task while its step is open carries the step's tag (docs/tasks.md).
  const tag = `step:${step.toLowerCase()}`;
  await closedTagged(workspace, `task/${task}`, `${task}-graph`, tag, closed);
  return { task, open: card.card_id as string };
}

/** The snapshot's cards and the rows its call read. */
async function snapshot(workspace: string): Promise<{ cards: string[]; rows_read: number }> {
  const { result, rows_read } = await callCounted("tasks_snapshot", { workspace });
  expect(result.isError).toBeFalsy();
  const answer = result.structuredContent as { memory: { cards: { id: string }[] } };
  return { cards: answer.memory.cards.map((card) => card.id), rows_read };
}

describe("a step's open cards", () => {
  it("are read from their own range under 50,000 closed cards of the step", async () => {
    const small = await seed("terms/open-tags-1k", 1_000);
    const large = await seed("terms/open-tags-50k", 50_000);
    const few = await snapshot("terms/open-tags-1k");
    const many = await snapshot("terms/open-tags-50k");
    expect(few.cards).toContain(small.open);
    expect(many.cards).toContain(large.open);
    // Nothing closed is stepped over: the work does not grow with the closed cards of the step.
    expect(many.rows_read).toBeLessThan(few.rows_read + 500);
  });
});
