// Deleting a branch: the branch command has every store forget the branch (each registers its own
// cleaner in the catalog), then deletes the branch itself. Checked through the endpoint and in the
// workspace's tables: no row of any store still names the deleted branch, and an anchor that only a
// card on it was tagged with reads as an orphan again.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { Db } from "../src/storage/db";
import { ok } from "./helpers/mcp";

/** Tables that keep rows by branch, with the column that names it. */
const BY_BRANCH = [
  ["doc_entries", "branch_id"],
  ["documents", "branch_id"],
  ["branch_heads", "branch_id"],
  ["tags", "branch_id"],
  ["graph_versions", "branch_id"],
  ["graph_heads", "branch_id"],
  ["anchor_links", "branch_id"],
  ["checkouts", "branch_id"],
  ["branches", "id"],
] as const;

const rowsNaming = (workspace: string, branchId: string) =>
  runInDurableObject(env.WORKSPACES.getByName(workspace), (_instance, state) => {
    const db = new Db(state.storage.sql, state.storage);
    return Object.fromEntries(
      BY_BRANCH.map(([table, column]) => [
        table,
        db.one<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} = ?`, branchId)?.n,
      ]),
    );
  });

describe("branch_delete forgets the branch in every store", () => {
  it("leaves no notes, refs, graph, anchor links or checkouts of the branch behind", async () => {
    const workspace = "branches/forget";
    await ok("anchors_bootstrap", { workspace, anchors: [{ id: "a:solo", title: "Only on the branch" }] });
    const created = await ok("branch_create", { workspace, name: "gone" });
    const branchId = created.branch.id as string;
    await ok("checkout", { workspace, ref: "gone" });
    await ok("notes_commit", { workspace, content: "a note on the branch" });
    await ok("commit", { workspace, artifact: "v1", message: "first" });
    await ok("tag_create", { workspace, name: "gone-v1" });
    await ok("graph_apply", { workspace, ops: [{ op: "node_upsert", id: "H1", type: "hypothesis", title: "on the branch" }] });
    await ok("think_add_note", { workspace, text: "tagged on the branch", tags: ["a:solo"] });

    const before = await rowsNaming(workspace, branchId);
    for (const table of ["doc_entries", "documents", "branch_heads", "tags", "graph_versions", "anchor_links", "checkouts", "branches"])
      expect(before[table], table).toBeGreaterThan(0);
    const linted = await ok("anchors_lint", { workspace });
    expect(linted.issues.map((issue: { code: string; anchor: string }) => `${issue.code} ${issue.anchor}`)).not.toContain(
      "ORPHAN_ANCHOR a:solo",
    );

    await ok("checkout", { workspace, ref: "main" });
    expect(await ok("branch_delete", { workspace, name: "gone" })).toMatchObject({ deleted: true });

    expect(await rowsNaming(workspace, branchId)).toEqual(Object.fromEntries(BY_BRANCH.map(([table]) => [table, 0])));
    const after = await ok("anchors_lint", { workspace });
    expect(after.issues.map((issue: { code: string; anchor: string }) => `${issue.code} ${issue.anchor}`)).toContain(
      "ORPHAN_ANCHOR a:solo",
    );
  });
});
