// End-to-end: notes and effective views through the real MCP endpoint (branches: test/branches.test.ts).
import { describe, expect, it } from "vitest";
import { failure, ok } from "./helpers/mcp";

describe("notes_commit and show", () => {
  it("appends notes and reads them back oldest-first with seqs", async () => {
    const workspace = "notes/basic";
    const first = await ok("notes_commit", { workspace, content: "first" });
    const second = await ok("notes_commit", { workspace, content: "second", title: "t2" });
    expect(first.entry.seq).toBe(1);
    expect(second.entry).toMatchObject({ seq: 2, branch: "main", doc: "notes", kind: "note", title: "t2", agent_id: "alice" });
    const shown = await ok("show", { workspace, doc_kind: "notes" });
    expect(shown.entries.map((e: { content: string }) => e.content)).toEqual(["first", "second"]);
    expect(shown.pagination).toMatchObject({ cursor: null, has_more: false, count: 2 });
  });

  it("show defaults to the trace document, as seed 001 says", async () => {
    const workspace = "notes/trace-default";
    await ok("notes_commit", { workspace, content: "a note" });
    const shown = await ok("show", { workspace });
    expect(shown.doc).toBe("trace");
    expect(shown.entries).toEqual([]);
  });

  it("unknown branch is UNKNOWN_ID with a hint naming branch_list", async () => {
    const error = await failure("show", { workspace: "notes/unknown", branch: "nope" });
    expect(error.code).toBe("UNKNOWN_ID");
    expect(error.recovery_hint).toContain("branch_list");
  });
});
