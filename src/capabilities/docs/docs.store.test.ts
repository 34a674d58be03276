// Store-level tests of document pages inside a real workspace object (the MCP behaviour of show, diff
// and merge is in test/branches.test.ts): the content cap and page merging across sources.

import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { storeContext } from "../../../test/helpers/store-context";
import { createBranch, ensureMain, requireBranch, sourcesOf } from "../../place/branches.store";
import { Db } from "../../storage/db";
import { appendEntry, viewPage } from "./docs.store";

describe("viewPage", () => {
  it("loads at most contentChars of each content, and whole rows without it", async () => {
    await runInDurableObject(env.WORKSPACES.getByName("store/content-cap"), (_instance, state) => {
      const ctx = storeContext(new Db(state.storage.sql, state.storage));
      ensureMain(ctx);
      const main = requireBranch(ctx.db, "main");
      appendEntry(ctx, { branch: main, doc: "notes", kind: "note", content: "x".repeat(5_000) });
      const sources = sourcesOf(ctx.db, main);
      const capped = viewPage(ctx.db, sources, "notes", { limit: 10, order: "newest", contentChars: 101 });
      expect(capped.rows[0]?.content.length).toBe(101);
      const whole = viewPage(ctx.db, sources, "notes", { limit: 10, order: "newest" });
      expect(whole.rows[0]?.content.length).toBe(5_000);
    });
  });

  it("merges sources newest-first and oldest-first with has_more", async () => {
    await runInDurableObject(env.WORKSPACES.getByName("store/merge-sources"), (_instance, state) => {
      const ctx = storeContext(new Db(state.storage.sql, state.storage));
      ensureMain(ctx);
      const main = requireBranch(ctx.db, "main");
      for (const content of ["m1", "m2"]) appendEntry(ctx, { branch: main, doc: "notes", kind: "note", content });
      const child = createBranch(ctx, "child", main);
      appendEntry(ctx, { branch: main, doc: "notes", kind: "note", content: "m3-hidden" });
      for (const content of ["c1", "c2"]) appendEntry(ctx, { branch: child, doc: "notes", kind: "note", content });
      const sources = sourcesOf(ctx.db, child);
      const newest = viewPage(ctx.db, sources, "notes", { limit: 3, order: "newest" });
      expect(newest.rows.map((row) => row.content)).toEqual(["c2", "c1", "m2"]);
      expect(newest.has_more).toBe(true);
      const oldest = viewPage(ctx.db, sources, "notes", { limit: 10, order: "oldest" });
      expect(oldest.rows.map((row) => row.content)).toEqual(["m1", "m2", "c1", "c2"]);
      expect(oldest.has_more).toBe(false);
    });
  });
});
