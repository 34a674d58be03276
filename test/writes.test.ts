// End-to-end: idempotency keys, atomicity of failing writes, the journal/tick clock and size limits.
import { describe, expect, it } from "vitest";
import { as, failure, ok } from "./helpers/mcp";

const tickOf = async (workspace: string) => (await ok("status", { workspace })).tick as number;

describe("idempotency keys", () => {
  it("replays the first result without writing, and refuses the key with other arguments", async () => {
    const workspace = "writes/idem";
    const first = await ok("notes_commit", { workspace, content: "once", idempotency_key: "k-1" });
    const tick = await tickOf(workspace);
    const replay = await ok("notes_commit", { workspace, content: "once", idempotency_key: "k-1" });
    expect(replay).toEqual(first);
    expect(await tickOf(workspace)).toBe(tick);
    expect((await ok("show", { workspace, doc: "notes" })).entries).toHaveLength(1);

    const reused = await failure("notes_commit", { workspace, content: "different", idempotency_key: "k-1" });
    expect(reused.code).toBe("IDEMPOTENCY_KEY_REUSED");
    expect((await failure("branch_create", { workspace, name: "b", idempotency_key: "k-1" })).code).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(await tickOf(workspace)).toBe(tick);
  });

  it("scopes keys per agent", async () => {
    const workspace = "writes/idem-agents";
    await ok("notes_commit", { workspace, content: "a", idempotency_key: "same" });
    const bobs = await ok("notes_commit", { workspace, content: "b", idempotency_key: "same" }, await as("bob"));
    expect(bobs.entry.content).toBe("b");
  });
});

describe("the journal", () => {
  it("advances the tick once per changing operation, not for reads, no-ops or rejected calls", async () => {
    const workspace = "writes/ticks";
    expect(await tickOf(workspace)).toBe(0);
    await ok("notes_commit", { workspace, content: "x" });
    const afterFirst = await tickOf(workspace);
    expect(afterFirst).toBe(1);
    const status = await ok("status", { workspace });
    expect(status.last_event).toMatchObject({ event_id: "evt_0000000000000001", command: "notes_commit", agent_id: "alice" });
    expect(status.last_doc_entry).toMatchObject({ seq: 1, branch: "main", doc: "notes", kind: "note" });
    await ok("show", { workspace, doc: "notes" });
    await ok("checkout", { workspace, ref: "main" });
    expect((await failure("merge", { workspace, from: "main", into: "main" })).code).toBe("INVALID_INPUT");
    await failure("branch_create", { workspace, name: "bad|name" });
    await ok("init", { workspace });
    expect(await tickOf(workspace)).toBe(1);
    await ok("branch_create", { workspace, name: "b" });
    expect(await tickOf(workspace)).toBe(2);
  });
});

describe("atomicity", () => {
  it("a write failing midway leaves no rows and no tick", async () => {
    const workspace = "writes/atomic";
    await ok("notes_commit", { workspace, content: "before" });
    const tick = await tickOf(workspace);
    const admin = await as("root", { role: "admin" });
    const error = await failure(
      "workspace_import",
      {
        workspace,
        ops: [
          { op: "note", content: "lost 1" },
          { op: "branch", name: "half" },
          { op: "note", branch: "half", content: "lost 2" },
          { op: "note", branch: "missing-branch", content: "fails here" },
        ],
      },
      admin,
    );
    expect(error.code).toBe("UNKNOWN_ID");
    expect(await tickOf(workspace)).toBe(tick);
    expect((await ok("show", { workspace, doc: "notes" })).entries.map((e: { content: string }) => e.content)).toEqual(["before"]);
    expect((await ok("branch_list", { workspace })).branches.map((b: { name: string }) => b.name)).toEqual(["main"]);
    const status = await ok("status", { workspace });
    expect(status.seq).toBe(1);
  });

  it("bulk import applies graph batches in order with the graph rules, all or nothing", async () => {
    const workspace = "writes/import-graph";
    const admin = await as("root", { role: "admin" });
    const imported = await ok(
      "workspace_import",
      {
        workspace,
        ops: [
          {
            op: "graph",
            ops: [
              { op: "node_upsert", id: "A", type: "hypothesis" },
              { op: "node_upsert", id: "B", type: "test" },
            ],
          },
          { op: "branch", name: "side" },
          { op: "graph", branch: "side", ops: [{ op: "edge_upsert", from: "B", rel: "supports", to: "A" }] },
        ],
      },
      admin,
    );
    expect(imported).toMatchObject({ branches_created: 1, graph_ops_applied: 3, first_seq: 1, last_seq: 3 });
    expect((await ok("graph_query", { workspace, branch: "side" })).edges).toHaveLength(1);
    const refused = await failure(
      "workspace_import",
      { workspace, ops: [{ op: "graph", ops: [{ op: "node_upsert", id: "task:X", type: "t" }] }] },
      admin,
    );
    expect(refused.code).toBe("INVALID_INPUT");
    expect((await ok("status", { workspace })).seq).toBe(3);
  });

  it("a rejected first write does not create the workspace", async () => {
    const workspace = "writes/never";
    await failure("notes_commit", { workspace, branch: "nope", content: "x" });
    expect(await ok("status", { workspace })).toMatchObject({ workspace_exists: false, tick: 0, seq: 0 });
  });
});

describe("limits", () => {
  it("refuses oversized content and meta, and control characters in names", async () => {
    const workspace = "writes/limits";
    expect((await failure("notes_commit", { workspace, content: "é".repeat(140_000) })).code).toBe("PAYLOAD_TOO_LARGE");
    expect((await failure("notes_commit", { workspace, content: "x", meta: { big: "y".repeat(20_000) } })).code).toBe("PAYLOAD_TOO_LARGE");
    expect((await failure("notes_commit", { workspace, content: "" })).code).toBe("INVALID_INPUT");
    expect((await failure("notes_commit", { workspace, content: "x", doc: "bad\u0007doc" })).code).toBe("INVALID_NAME");
    expect((await failure("notes_commit", { workspace, content: "x", unexpected: 1 })).code).toBe("INVALID_INPUT");
    expect((await failure("show", { workspace, limit: 500 })).code).toBe("INVALID_INPUT");
    expect(await tickOf(workspace)).toBe(0);
  });
});
