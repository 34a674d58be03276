// End-to-end: the VCS helpers (commit, log, reset, reflog, tags, docs_list) through the real MCP endpoint.
import { describe, expect, it } from "vitest";
import { failure, ok } from "./helpers/mcp";

const seqs = (commits: { seq: number }[]) => commits.map((commit) => commit.seq);

describe("commit, log, reset and reflog", () => {
  it("commits move the head; reset moves it back; log walks up to the head; show ignores refs", async () => {
    const workspace = "vcs/head";
    const c1 = await ok("commit", { workspace, artifact: "v1", message: "first" });
    const c2 = await ok("commit", { workspace, artifact: "v2", message: "second" });
    expect(c1.commit).toMatchObject({ seq: 1, message: "first", branch: "main", doc: "notes" });
    expect(c2.previous_head).toBe(1);
    expect(seqs((await ok("log", { workspace })).commits)).toEqual([2, 1]);

    const moved = await ok("reset", { workspace, seq: 1 });
    expect(moved).toMatchObject({ ref: "main", previous_head: 2, head: 1 });
    const log = await ok("log", { workspace });
    expect(log.head).toBe(1);
    expect(seqs(log.commits)).toEqual([1]);
    expect((await ok("show", { workspace, doc: "notes" })).entries).toHaveLength(2);

    const reflog = await ok("reflog", { workspace });
    expect(
      reflog.entries.map((e: { action: string; old_seq: number | null; new_seq: number }) => [e.action, e.old_seq, e.new_seq]),
    ).toEqual([
      ["reset", 2, 1],
      ["commit", 1, 2],
      ["commit", null, 1],
    ]);

    const c3 = await ok("notes_commit", { workspace, content: "v3" });
    expect((await ok("log", { workspace })).head).toBe(c3.entry.seq);
  });

  it("refuses to reset to something that is not a commit of the branch", async () => {
    const workspace = "vcs/reset-errors";
    await ok("commit", { workspace, artifact: "on main", message: "m" });
    await ok("branch_create", { workspace, name: "side" });
    const side = await ok("commit", { workspace, branch: "side", artifact: "on side", message: "s" });
    const error = await failure("reset", { workspace, ref: "main", seq: side.commit.seq });
    expect(error.code).toBe("UNKNOWN_ID");
    expect(error.recovery_hint).toContain("log");
    expect((await failure("reset", { workspace, seq: 1, tag: "x" })).code).toBe("INVALID_INPUT");
    expect((await failure("reset", { workspace, seq: 999 })).code).toBe("UNKNOWN_ID");
  });

  it("pages the log newest-first", async () => {
    const workspace = "vcs/log-pages";
    for (let i = 1; i <= 4; i++) await ok("notes_commit", { workspace, content: `n${i}` });
    const page = await ok("log", { workspace, limit: 3 });
    expect(seqs(page.commits)).toEqual([4, 3, 2]);
    expect(page).toMatchObject({ has_more: true, next_cursor: 2 });
    expect(seqs((await ok("log", { workspace, limit: 3, cursor: page.next_cursor })).commits)).toEqual([1]);
  });
});

describe("tags", () => {
  it("creates, lists, resolves in log and reset, and deletes tags", async () => {
    const workspace = "vcs/tags";
    await ok("commit", { workspace, artifact: "a", message: "a" });
    await ok("commit", { workspace, artifact: "b", message: "b" });
    const tag = await ok("tag_create", { workspace, name: "v1", seq: 1, message: "release" });
    expect(tag.tag).toMatchObject({ name: "v1", branch: "main", seq: 1 });
    expect((await ok("tag_create", { workspace, name: "head" })).tag.seq).toBe(2);
    expect((await failure("tag_create", { workspace, name: "v1" })).code).toBe("ALREADY_EXISTS");
    expect((await ok("tag_list", { workspace })).tags.map((t: { name: string }) => t.name)).toEqual(["head", "v1"]);
    expect(seqs((await ok("log", { workspace, ref: "v1" })).commits)).toEqual([1]);
    expect(await ok("reset", { workspace, tag: "v1" })).toMatchObject({ head: 1 });
    expect(await ok("tag_delete", { workspace, name: "v1" })).toMatchObject({ deleted: true });
    expect((await failure("tag_delete", { workspace, name: "v1" })).code).toBe("UNKNOWN_ID");
    const reflog = await ok("reflog", { workspace, ref: "tag:v1" });
    expect(reflog.entries.map((e: { action: string }) => e.action)).toEqual(["tag_delete", "tag_create"]);
  });
});

describe("docs_list", () => {
  it("lists own and inherited documents", async () => {
    const workspace = "vcs/docs";
    await ok("notes_commit", { workspace, content: "x" });
    await ok("notes_commit", { workspace, doc: "design", content: "y" });
    await ok("branch_create", { workspace, name: "feature" });
    await ok("notes_commit", { workspace, branch: "feature", doc: "scratch", content: "z" });
    await ok("notes_commit", { workspace, doc: "late", content: "after branching" });
    const listed = await ok("docs_list", { workspace, ref: "feature" });
    expect(listed.docs.map((d: { doc: string; branch: string }) => [d.doc, d.branch])).toEqual([
      ["design", "main"],
      ["notes", "main"],
      ["scratch", "feature"],
    ]);
  });
});
