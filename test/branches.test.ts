// End-to-end: branches, effective views, diff and merge through the real MCP endpoint (toolset=full).
import { describe, expect, it } from "vitest";
import { as, failure, ok } from "./helpers/mcp";

const contents = (entries: { content: string }[]) => entries.map((entry) => entry.content);

describe("effective views across a 3-level chain", () => {
  it("shows base snapshots, own entries, and never base entries written after branching", async () => {
    const workspace = "branches/chain";
    await ok("notes_commit", { workspace, content: "m1" });
    await ok("branch_create", { workspace, name: "a", from: "main" });
    await ok("notes_commit", { workspace, content: "m2-after-a" });
    await ok("notes_commit", { workspace, branch: "a", content: "a1" });
    await ok("branch_create", { workspace, name: "b", from: "a" });
    await ok("notes_commit", { workspace, branch: "a", content: "a2-after-b" });
    await ok("notes_commit", { workspace, content: "m3-after-b" });
    await ok("notes_commit", { workspace, branch: "b", content: "b1" });

    const onB = await ok("show", { workspace, branch: "b", doc: "notes" });
    expect(contents(onB.entries)).toEqual(["m1", "a1", "b1"]);
    const onA = await ok("show", { workspace, branch: "a", doc: "notes" });
    expect(contents(onA.entries)).toEqual(["m1", "a1", "a2-after-b"]);
    const onMain = await ok("show", { workspace, branch: "main", doc: "notes" });
    expect(contents(onMain.entries)).toEqual(["m1", "m2-after-a", "m3-after-b"]);
    // Base entries name their branch; the branch's own leave it out (it is the answer's `branch`).
    expect(onB.branch).toBe("b");
    expect(onB.entries.map((entry: { branch?: string }) => entry.branch)).toEqual(["main", "a", undefined]);
  });

  it("paginates the tail by seq with next_cursor until has_more is false", async () => {
    const workspace = "branches/pages";
    for (let i = 1; i <= 5; i++) await ok("notes_commit", { workspace, content: `n${i}` });
    const first = await ok("show", { workspace, doc: "notes", limit: 2 });
    expect(contents(first.entries)).toEqual(["n4", "n5"]);
    expect(first.pagination).toMatchObject({ has_more: true, next_cursor: 4, count: 2 });
    const second = await ok("show", { workspace, doc: "notes", limit: 2, cursor: first.pagination.next_cursor });
    expect(contents(second.entries)).toEqual(["n2", "n3"]);
    const third = await ok("show", { workspace, doc: "notes", limit: 2, cursor: second.pagination.next_cursor });
    expect(contents(third.entries)).toEqual(["n1"]);
    expect(third.pagination.has_more).toBe(false);
    expect(third.pagination.next_cursor).toBeUndefined();
  });
});

describe("diff and merge", () => {
  it("diffs in both directions, merges idempotently, and the diff empties after merge", async () => {
    const workspace = "branches/merge";
    await ok("notes_commit", { workspace, content: "base" });
    await ok("branch_create", { workspace, name: "idea" });
    await ok("notes_commit", { workspace, branch: "idea", content: "i1" });
    await ok("notes_commit", { workspace, branch: "idea", content: "i2" });
    await ok("notes_commit", { workspace, branch: "main", content: "m-later" });

    expect(contents((await ok("diff", { workspace, from: "main", to: "idea" })).entries)).toEqual(["i1", "i2"]);
    expect(contents((await ok("diff", { workspace, from: "idea", to: "main" })).entries)).toEqual(["m-later"]);

    const dry = await ok("merge", { workspace, from: "idea", dry_run: true });
    expect(dry).toMatchObject({ into: "main", merged: 2, dry_run: true });
    expect((await ok("diff", { workspace, from: "main", to: "idea" })).entries).toHaveLength(2);

    const first = await ok("merge", { workspace, from: "idea", merge_to_base: true });
    expect(first).toMatchObject({ from: "idea", into: "main", merged: 2, skipped: 0 });
    const second = await ok("merge", { workspace, from: "idea" });
    expect(second.merged).toBe(0);

    expect((await ok("diff", { workspace, from: "main", to: "idea" })).entries).toEqual([]);
    // The copies on main are present on idea too (same identity), so the reverse diff only shows main's own note.
    expect(contents((await ok("diff", { workspace, from: "idea", to: "main" })).entries)).toEqual(["m-later"]);
    const main = await ok("show", { workspace, branch: "main", doc: "notes" });
    expect(contents(main.entries)).toEqual(["base", "m-later", "i1", "i2"]);
    expect(main.entries[2].meta._merge).toMatchObject({ from: "idea" });
  });

  it("pages a large merge with next_cursor and copies each note once", async () => {
    const workspace = "branches/merge-pages";
    await ok("branch_create", { workspace, name: "big" });
    for (let i = 1; i <= 5; i++) await ok("notes_commit", { workspace, branch: "big", content: `b${i}` });
    const page1 = await ok("merge", { workspace, from: "big", limit: 2 });
    expect(page1).toMatchObject({ merged: 2, pagination: { has_more: true } });
    const page2 = await ok("merge", { workspace, from: "big", limit: 2, cursor: page1.pagination.next_cursor });
    const page3 = await ok("merge", { workspace, from: "big", limit: 2, cursor: page2.pagination.next_cursor });
    expect([page2.merged, page3.merged, page3.pagination.has_more]).toEqual([2, 1, false]);
    const main = await ok("show", { workspace, branch: "main", doc: "notes", limit: 50 });
    expect(contents(main.entries)).toEqual(["b1", "b2", "b3", "b4", "b5"]);
    expect((await ok("merge", { workspace, from: "big" })).merged).toBe(0);
  });

  it("stays idempotent after the source branch is renamed", async () => {
    const workspace = "branches/rename-merge";
    await ok("branch_create", { workspace, name: "draft" });
    await ok("notes_commit", { workspace, branch: "draft", content: "d1" });
    expect((await ok("merge", { workspace, from: "draft" })).merged).toBe(1);
    const renamed = await ok("branch_rename", { workspace, old: "draft", new: "final" });
    expect(renamed).toMatchObject({ previous: "draft", current: "final" });
    expect((await ok("merge", { workspace, from: "final" })).merged).toBe(0);
    expect((await failure("show", { workspace, branch: "draft" })).code).toBe("UNKNOWN_ID");
    expect(contents((await ok("show", { workspace, branch: "final", doc: "notes" })).entries)).toEqual(["d1"]);
  });

  it("refuses merge_to_base with another `into`, and a branch without a base", async () => {
    const workspace = "branches/merge-errors";
    await ok("branch_create", { workspace, name: "x" });
    await ok("branch_create", { workspace, name: "y" });
    expect((await failure("merge", { workspace, from: "x", into: "y", merge_to_base: true })).code).toBe("MERGE_NOT_SUPPORTED");
    expect((await failure("merge", { workspace, from: "main" })).code).toBe("INVALID_INPUT");
    expect((await ok("merge", { workspace, from: "x", into: "y" })).merged).toBe(0);
  });
});

describe("branch management", () => {
  it("lists branches with bases and pages by name", async () => {
    const workspace = "branches/list";
    await ok("branch_create", { workspace, name: "one" });
    await ok("branch_create", { workspace, name: "two", from: "one" });
    const page = await ok("branch_list", { workspace, limit: 2 });
    expect(page.branches.map((b: { name: string }) => b.name)).toEqual(["main", "one"]);
    expect(page.has_more).toBe(true);
    const rest = await ok("branch_list", { workspace, limit: 2, cursor: page.next_cursor });
    expect(rest.branches).toEqual([expect.objectContaining({ name: "two", base_branch: "one", depth: 2 })]);
  });

  it("refuses to delete a base or a checked-out branch, then deletes it once free", async () => {
    const workspace = "branches/delete";
    await ok("branch_create", { workspace, name: "parent" });
    await ok("branch_create", { workspace, name: "child", from: "parent" });
    const inUse = await failure("branch_delete", { workspace, name: "parent" });
    expect(inUse.code).toBe("BRANCH_IN_USE");
    expect(inUse.details).toMatchObject({ derived_branches: 1 });

    const bob = await as("bob");
    await ok("checkout", { workspace, ref: "child" }, bob);
    expect((await failure("branch_delete", { workspace, name: "child" })).details).toMatchObject({ checked_out_by: ["bob"] });
    await ok("checkout", { workspace, ref: "main" }, bob);
    expect(await ok("branch_delete", { workspace, name: "child" })).toMatchObject({ deleted: true });
    expect(await ok("branch_delete", { workspace, name: "parent" })).toMatchObject({ deleted: true });
    expect((await failure("branch_delete", { workspace, name: "main" })).code).toBe("INVALID_INPUT");
  });

  it("protects reserved names and refuses duplicates and invalid names", async () => {
    const workspace = "branches/names";
    expect((await failure("branch_rename", { workspace, old: "main", new: "trunk" })).code).toBe("INVALID_INPUT");
    expect((await failure("branch_create", { workspace, name: "task/TASK-001" })).code).toBe("INVALID_NAME");
    await ok("branch_create", { workspace, name: "dup" });
    expect((await failure("branch_create", { workspace, name: "dup" })).code).toBe("ALREADY_EXISTS");
    expect((await failure("branch_create", { workspace, name: "bad|name" })).code).toBe("INVALID_NAME");
    expect((await failure("branch_create", { workspace, name: "x".repeat(129) })).code).toBe("INVALID_NAME");
  });

  it("refuses chains deeper than 32", async () => {
    const workspace = "branches/depth";
    let from = "main";
    for (let depth = 1; depth <= 32; depth++) {
      await ok("branch_create", { workspace, name: `d${depth}`, from });
      from = `d${depth}`;
    }
    const tooDeep = await failure("branch_create", { workspace, name: "d33", from });
    expect(tooDeep.code).toBe("INVALID_INPUT");
    expect(tooDeep.details).toMatchObject({ max_depth: 32 });
  });

  it("reads, diffs, logs and merges through a chain of the maximum depth", async () => {
    const workspace = "branches/deep-reads";
    await ok("notes_commit", { workspace, content: "root" });
    let from = "main";
    for (let depth = 1; depth <= 32; depth++) {
      await ok("branch_create", { workspace, name: `d${depth}`, from });
      await ok("notes_commit", { workspace, branch: `d${depth}`, content: `at ${depth}` });
      await ok("notes_commit", { workspace, branch: from, content: `hidden after ${depth}` });
      from = `d${depth}`;
    }
    const shown = await ok("show", { workspace, branch: "d32", doc: "notes", limit: 50 });
    expect(contents(shown.entries)).toEqual(["root", ...Array.from({ length: 32 }, (_, i) => `at ${i + 1}`)]);
    expect(shown.entries[0].branch).toBe("main");
    const page = await ok("show", { workspace, branch: "d32", doc: "notes", limit: 5 });
    expect(contents(page.entries)).toEqual(["at 28", "at 29", "at 30", "at 31", "at 32"]);
    expect((await ok("log", { workspace, ref: "d32", limit: 40 })).commits).toHaveLength(33);
    expect(contents((await ok("diff", { workspace, from: "d31", to: "d32" })).entries)).toEqual(["at 32"]);
    expect((await ok("export", { workspace, branch: "d32", notes_limit: 3 })).notes.entries).toHaveLength(3);
    expect((await ok("merge", { workspace, from: "d32" })).merged).toBe(1);
  });
});

describe("per-agent checkout", () => {
  it("keeps each agent's writes on its own checkout", async () => {
    const workspace = "branches/agents";
    const alice = await as("alice");
    const bob = await as("bob");
    await ok("branch_create", { workspace, name: "alice-work" }, alice);
    await ok("branch_create", { workspace, name: "bob-work" }, bob);
    expect(await ok("checkout", { workspace, ref: "alice-work" }, alice)).toMatchObject({ previous: "main", current: "alice-work" });
    await ok("checkout", { workspace, ref: "bob-work" }, bob);
    await ok("notes_commit", { workspace, content: "from alice" }, alice);
    await ok("notes_commit", { workspace, content: "from bob" }, bob);
    expect(contents((await ok("show", { workspace, branch: "alice-work", doc: "notes" })).entries)).toEqual(["from alice"]);
    expect(contents((await ok("show", { workspace, branch: "bob-work", doc: "notes" })).entries)).toEqual(["from bob"]);
    expect((await ok("status", { workspace }, alice)).checkout).toBe("alice-work");
    expect((await ok("status", { workspace }, await as("carol"))).checkout).toBe("main");
  });

  it("macro_branch_note creates, checks out and notes in one call", async () => {
    const workspace = "branches/macro";
    const made = await ok("macro_branch_note", { workspace, name: "try/cache", template: "experiment", goal: "faster reads" });
    expect(made.branch).toMatchObject({ name: "try/cache", created: true, base_branch: "main" });
    expect(made.checkout).toBe("try/cache");
    expect(made.note.content).toContain("Goal: faster reads");
    const again = await ok("macro_branch_note", { workspace, content: "second note" });
    expect(again.branch).toMatchObject({ name: "try/cache", created: false });
    expect(contents((await ok("show", { workspace, doc_kind: "notes" })).entries)).toHaveLength(2);
    const back = await ok("macro_branch_note", { workspace, from: "main" });
    expect(back).toMatchObject({ checkout: "main", note: null });
  });
});
