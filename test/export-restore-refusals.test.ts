// End-to-end: the refusals of workspace_export and of the restore mode of workspace_import through the real
// MCP endpoint (toolset=full): non-admin, non-empty target, a write between export pages, pages out of order,
// writes during a restore, damaged lines (nothing written), unknown versions.
import { describe, expect, it } from "vitest";
import { DIGEST_START, digestLines } from "../src/capabilities/workspace/export-digest";
import { type Args, exportPages, linesOf, restore } from "./helpers/export-pages";
import { as, callTool, failure, ok } from "./helpers/mcp";

describe("workspace export and restore", () => {
  it("is admin only, and takes exactly one of ops, jsonl and abort_restore", async () => {
    const workspace = "export/roles";
    const writer = await as("alice");
    await ok("notes_commit", { workspace, content: "n" }, writer);
    expect(await failure("workspace_export", { workspace }, writer)).toMatchObject({ code: "FORBIDDEN", details: { required: "admin" } });
    expect((await failure("workspace_import", { workspace: "export/roles-2", jsonl: "{}" }, writer)).code).toBe("FORBIDDEN");
    const admin = await as("root", { role: "admin" });
    expect((await failure("workspace_import", { workspace, ops: [{ op: "note", content: "x" }], jsonl: "{}" }, admin)).code).toBe(
      "INVALID_INPUT",
    );
    expect((await failure("workspace_import", { workspace }, admin)).code).toBe("INVALID_INPUT");
    expect((await failure("workspace_import", { workspace: "export/roles-2", jsonl: "{}", idempotency_key: "k" }, admin)).code).toBe(
      "INVALID_INPUT",
    );
    // No restore to abort: nothing is emptied.
    expect((await failure("workspace_import", { workspace, abort_restore: true }, admin)).code).toBe("INVALID_INPUT");
    expect((await ok("show", { workspace, doc: "notes" }, writer)).entries).toHaveLength(1);
    // Through the workspace portal the page still arrives whole, beside the capsule.
    const portal = await ok(
      "workspace",
      { workspace, op: "call", cmd: "workspace.export", args: { max_chars: 6_000 } },
      { ...admin, path: "/mcp?toolset=portals" },
    );
    expect(portal).toMatchObject({ first_line: 0, budget: { truncated: false } });
    expect(portal.capsule).toBeDefined();
    expect(linesOf([portal.jsonl]).length).toBe(portal.line_count);
    // A budget too small for a page is refused, not trimmed; so is one too small for the next line,
    // and the same cursor goes on with a larger budget.
    expect((await failure("workspace_export", { workspace, max_chars: 2_000 }, admin)).code).toBe("BUDGET_EXCEEDED");
    await ok("notes_commit", { workspace, content: "w".repeat(12_000) }, writer);
    let cursor: string | undefined;
    let refusal: Awaited<ReturnType<typeof failure>> | undefined;
    for (let call = 0; call < 20 && refusal === undefined; call++) {
      const args = { workspace, max_chars: 8_000, ...(cursor === undefined ? {} : { cursor }) };
      const answer = await callTool("workspace_export", args, admin);
      if (answer.isError) refusal = (answer.structuredContent as { error: Awaited<ReturnType<typeof failure>> }).error;
      else cursor = answer.structuredContent.cursor as string;
    }
    expect(refusal).toMatchObject({ code: "BUDGET_EXCEEDED", details: { table: "doc_entries" } });
    expect(refusal?.details?.chars).toBeGreaterThan(12_000);
    const big = await ok("workspace_export", { workspace, max_chars: 20_000, cursor }, admin);
    expect(big.jsonl).toContain("w".repeat(12_000));
  });

  it("refuses to restore into a workspace that holds data, and writes nothing", async () => {
    const admin = await as("root", { role: "admin" });
    await ok("notes_commit", { workspace: "export/small", content: "one" });
    const pages = await exportPages("export/small", admin);
    const target = "export/occupied";
    await ok("notes_commit", { workspace: target, content: "already here" });
    const tick = (await ok("status", { workspace: target })).tick;
    const refused = await failure("workspace_import", { workspace: target, jsonl: pages[0] }, admin);
    expect(refused).toMatchObject({ code: "WORKSPACE_NOT_EMPTY" });
    expect(refused.details?.non_empty).toEqual(expect.arrayContaining(["branches", "doc_entries", "journal"]));
    expect((await ok("status", { workspace: target })).tick).toBe(tick);
    expect((await ok("notes_commit", { workspace: target, content: "still writable" })).entry.seq).toBe(2);
  });

  it("refuses the next page once the workspace changed since the export began", async () => {
    const workspace = "export/stale";
    const admin = await as("root", { role: "admin" });
    for (let i = 0; i < 12; i++) await ok("notes_commit", { workspace, content: `note ${i} ${"x".repeat(600)}` });
    const first = await ok("workspace_export", { workspace, max_chars: 6_000 }, admin);
    expect(first.done).toBe(false);
    // A read changes nothing.
    await ok("show", { workspace });
    const second = await ok("workspace_export", { workspace, max_chars: 6_000, cursor: first.cursor }, admin);
    expect(second.first_line).toBe(first.last_line + 1);
    await ok("notes_commit", { workspace, content: "a write between pages" });
    const stale = await failure("workspace_export", { workspace, max_chars: 6_000, cursor: second.cursor }, admin);
    expect(stale).toMatchObject({ code: "EXPORT_STALE", actions: [{ tool: "workspace_export" }] });
    expect(stale.recovery_hint).toMatch(/again/);
    // Bookkeeping by a read (a snapshot's delta baseline) counts as a change too.
    const task = await ok("tasks_macro_start", { workspace, title: "T" });
    const fresh = await ok("workspace_export", { workspace, max_chars: 6_000 }, admin);
    await ok("tasks_snapshot", { workspace, task: task.task_id, delta: true });
    expect((await failure("workspace_export", { workspace, max_chars: 6_000, cursor: fresh.cursor }, admin)).code).toBe("EXPORT_STALE");
    // A cursor of another workspace, or no cursor at all, is refused as such.
    // Cursors are signed with each workspace's own key (test/hardening.test.ts has the forgeries).
    expect((await failure("workspace_export", { workspace: "export/other", cursor: fresh.cursor }, admin)).code).toBe("INVALID_CURSOR");
    expect((await failure("workspace_export", { workspace, cursor: "not-a-cursor" }, admin)).code).toBe("INVALID_CURSOR");
  });

  it("takes pages only in order, refuses other writes meanwhile, and continues after a refused page", async () => {
    const source = "export/order-source";
    const target = "export/order-target";
    const admin = await as("root", { role: "admin" });
    for (let i = 0; i < 10; i++) await ok("notes_commit", { workspace: source, content: `note ${i} ${"y".repeat(900)}` });
    const pages = await exportPages(source, admin, 6_000);
    expect(pages.length).toBeGreaterThan(3);

    await ok("workspace_import", { workspace: target, jsonl: pages[0] }, admin);
    const expected = JSON.parse((pages[1] as string).split("\n")[0] as string).n;
    const skipped = await failure("workspace_import", { workspace: target, jsonl: pages[2] }, admin);
    expect(skipped).toMatchObject({ code: "RESTORE_OUT_OF_ORDER", details: { expected_line: expected } });
    const repeated = await failure("workspace_import", { workspace: target, jsonl: pages[0] }, admin);
    expect(repeated).toMatchObject({ code: "RESTORE_OUT_OF_ORDER", details: { expected_line: expected, first_line: 0 } });

    // Mid-restore: writes are refused (bulk ops too), reads answer, an export has nothing consistent to show.
    const busy = await failure("notes_commit", { workspace: target, content: "too early" });
    expect(busy).toMatchObject({ code: "RESTORE_IN_PROGRESS", details: { next_line: expected } });
    // The way out needs an admin: only an admin is told to call it (a writer reads it in the recovery hint).
    expect(busy.actions).toBeUndefined();
    expect(busy.recovery_hint).toContain("abort_restore");
    const busyForAdmin = await failure("notes_commit", { workspace: target, content: "too early" }, admin);
    expect(busyForAdmin.actions?.[0]).toMatchObject({ tool: "workspace_import", args: { workspace: target, abort_restore: true } });
    expect((await failure("workspace_import", { workspace: target, ops: [{ op: "note", content: "x" }] }, admin)).code).toBe(
      "RESTORE_IN_PROGRESS",
    );
    expect((await failure("workspace_export", { workspace: target }, admin)).code).toBe("RESTORE_IN_PROGRESS");
    await ok("status", { workspace: target });

    // A page may also be any run of consecutive lines: the rest goes in two uneven calls.
    const rest = linesOf(pages.slice(1));
    const cut = Math.floor(rest.length / 3);
    const firstPart = await ok("workspace_import", { workspace: target, jsonl: `${rest.slice(0, cut).join("\n")}\n` }, admin);
    expect(firstPart.restore).toMatchObject({ status: "in_progress", next_line: expected + cut });
    const done = await ok("workspace_import", { workspace: target, jsonl: rest.slice(cut).join("\n") }, admin);
    expect(done.restore).toMatchObject({ status: "complete" });
    expect(linesOf(await exportPages(target, admin)).slice(1)).toEqual(linesOf(pages).slice(1));
  });

  it("refuses a damaged page whole, and a restore that cannot finish can be given up", async () => {
    const source = "export/damaged-source";
    const target = "export/damaged-target";
    const admin = await as("root", { role: "admin" });
    for (let i = 0; i < 6; i++) await ok("notes_commit", { workspace: source, content: `note ${i} ${"z".repeat(900)}` });
    const pages = await exportPages(source, admin, 6_000);
    const all = linesOf(pages);
    await ok("workspace_import", { workspace: target, jsonl: all[0] }, admin);
    const page = all.slice(1, 5);

    // Broken JSON in the middle of the page: nothing of the page is written, the restore still expects it.
    const broken = [...page];
    broken[2] = (broken[2] as string).slice(0, -5);
    const refused = await failure("workspace_import", { workspace: target, jsonl: broken.join("\n") }, admin);
    expect(refused).toMatchObject({ code: "INVALID_INPUT", details: { page_line: 3 } });
    // A lone surrogate escaped in the JSON (SQLite would keep U+FFFD): refused, never replaced.
    const lone = [...page];
    const noteAt = 2;
    lone[noteAt] = (lone[noteAt] as string).replace('":"', '":"\\ud800');
    const surrogate = await failure("workspace_import", { workspace: target, jsonl: lone.join("\n") }, admin);
    expect(surrogate).toMatchObject({ code: "INVALID_INPUT", details: { page_line: noteAt + 1 } });
    expect(surrogate.message).toContain("lone UTF-16 surrogate");
    // A value of the wrong type for its column (a number sent as text), after two good lines.
    const retyped = [...page];
    const rowAt = retyped.findIndex((line) => line.includes('"t":"branches"'));
    const row = JSON.parse(retyped[rowAt] as string);
    retyped[rowAt] = JSON.stringify({ ...row, r: row.r.map((value: unknown) => (typeof value === "number" ? String(value) : value)) });
    expect(await failure("workspace_import", { workspace: target, jsonl: retyped.join("\n") }, admin)).toMatchObject({
      code: "INVALID_INPUT",
      details: { table: "branches" },
    });
    expect((await ok("workspace_import", { workspace: target, jsonl: page.join("\n") }, admin)).restore).toMatchObject({
      first_line: 1,
      next_line: 5,
    });
    await ok("workspace_import", { workspace: target, abort_restore: true }, admin);
    await ok("workspace_import", { workspace: target, jsonl: pages[0] }, admin);
    const status = await ok("status", { workspace: target });
    expect(status.tick).toBe(0);

    // A valid-looking but edited line passes row checks; the trailer's digest catches it at the end.
    const edited = pages.map((text) => text.replace("note 3 ", "note 9 "));
    expect(edited.join("")).not.toBe(pages.join(""));
    await restore(target, edited.slice(1, -1), admin);
    const last = await failure("workspace_import", { workspace: target, jsonl: edited[edited.length - 1] }, admin);
    expect(last).toMatchObject({ code: "INVALID_INPUT" });
    expect(last.message).toMatch(/digest/);
    expect((await failure("notes_commit", { workspace: target, content: "x" })).code).toBe("RESTORE_IN_PROGRESS");

    // Giving up empties the workspace; then the intact export restores.
    expect((await ok("workspace_import", { workspace: target, abort_restore: true }, admin)).restore).toMatchObject({ status: "aborted" });
    expect((await ok("status", { workspace: target })).tick).toBe(0);
    expect((await ok("show", { workspace: target, doc: "notes" })).entries).toEqual([]);
    await restore(target, pages, admin);
    expect(linesOf(await exportPages(target, admin)).slice(1)).toEqual(linesOf(pages).slice(1));
  });

  it("refuses a header of another format or schema version, and text that was never redacted stays as it was", async () => {
    const admin = await as("root", { role: "admin" });
    await ok("notes_commit", { workspace: "export/versions", content: "plain" });
    const lines = linesOf(await exportPages("export/versions", admin));
    const header = JSON.parse(lines[0] as string);
    const withHeader = (changed: Args) => [JSON.stringify({ ...header, ...changed }), ...lines.slice(1)].join("\n");
    const schema = await failure("workspace_import", { workspace: "export/versions-1", jsonl: withHeader({ schema_version: 99 }) }, admin);
    expect(schema).toMatchObject({
      code: "INVALID_INPUT",
      details: { schema_version: 99, supported_schema_version: 22, oldest_restorable_schema_version: 21 },
    });
    expect((await failure("workspace_import", { workspace: "export/versions-1", jsonl: withHeader({ version: 2 }) }, admin)).code).toBe(
      "INVALID_INPUT",
    );
    expect(
      (await failure("workspace_import", { workspace: "export/versions-1", jsonl: withHeader({ format: "other" }) }, admin)).code,
    ).toBe("INVALID_INPUT");
    // Migration 21 added exported tables (task_dependencies, task_claims): an export of 20 lacks them, so
    // 21 is the oldest version whose tables are this server's; before, 14 to 20 restored here.
    const older = await failure("workspace_import", { workspace: "export/versions-1", jsonl: withHeader({ schema_version: 20 }) }, admin);
    expect(older).toMatchObject({ code: "INVALID_INPUT", details: { schema_version: 20, oldest_restorable_schema_version: 21 } });
    expect((await ok("status", { workspace: "export/versions-1" })).tick).toBe(0);

    // A dump whose text holds what this server would redact (written where redaction was off) is restored
    // byte for byte: a restore page is not redacted.
    const secret = "token=abcd1234efgh5678";
    const rows = lines.slice(0, -1).map((line) => line.replace('"plain"', JSON.stringify(secret)));
    expect(rows.join("\n")).toContain(secret);
    const trailer = JSON.parse(lines[lines.length - 1] as string);
    const file = [...rows, JSON.stringify({ ...trailer, digest: digestLines(DIGEST_START, rows.slice(1)) })].join("\n");
    const done = await ok("workspace_import", { workspace: "export/versions-2", jsonl: file }, admin);
    expect(done.restore).toMatchObject({ status: "complete" });
    expect(done.warnings).toBeUndefined();
    expect((await ok("show", { workspace: "export/versions-2", doc: "notes" })).entries[0].content).toBe(secret);
  });
});
