// End-to-end: code refs through the real MCP endpoint (toolset=full) — attach (path rejection, the
// normalized ref and its sha256, idempotent re-attach), check (stale or not), open (openCodeRef inside
// the workspace object) and cards carrying code refs in meta.code_refs.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { codeOpenStubs, openCodeRef } from "../src/capabilities/code-refs/code-refs";
import type { Warning } from "../src/shared/result";
import { Db } from "../src/storage/db";
import { failure, ok } from "./helpers/mcp";
import { storeContext } from "./helpers/store-context";

async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...digest].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

const tickOf = async (workspace: string) => (await ok("status", { workspace })).tick as number;

const rowsOf = (workspace: string) =>
  runInDurableObject(env.WORKSPACES.getByName(workspace), (_instance, state) =>
    new Db(state.storage.sql, state.storage).all("SELECT path, start_line, end_line, sha256, text, repo FROM code_refs ORDER BY id"),
  );

/** openCodeRef inside the workspace object, with the warnings it raised. */
function open(workspace: string, ref: string, options: { current_text?: string; current_sha256?: string } = {}) {
  return runInDurableObject(env.WORKSPACES.getByName(workspace), (_instance, state) => {
    const warnings: Warning[] = [];
    const ctx = { ...storeContext(new Db(state.storage.sql, state.storage), workspace), warn: (w: Warning) => warnings.push(w) };
    try {
      return { value: openCodeRef(ctx, ref, options), warnings };
    } catch (error) {
      return { error: (error as { error?: { code: string; details?: Record<string, unknown> } }).error, warnings };
    }
  });
}

const LINES = "export function add(a: number, b: number) {\n  return a + b;\n}\n";
const STORED = "export function add(a: number, b: number) {\n  return a + b;\n}";

describe("code refs: attach", () => {
  it("returns the normalized ref with the sha256 of the slice as stored; the same slice again writes nothing", async () => {
    const workspace = "code-refs/attach";
    const sha = await sha256(STORED);
    const first = await ok("code_ref_attach", {
      workspace,
      path: "./src//math.ts",
      start_line: 10,
      end_line: 12,
      text: LINES,
      repo: "acme/app",
    });
    expect(first).toEqual({
      ref: `code:src/math.ts#L10-L12@sha256:${sha}`,
      path: "src/math.ts",
      start_line: 10,
      end_line: 12,
      sha256: sha,
      lines: 3,
      repo: "acme/app",
      created: true,
    });
    const tick = await tickOf(workspace);
    expect(tick).toBeGreaterThan(0);

    // The same lines (CRLF, no trailing newline, the dotted path, another repo label): the same ref, nothing written.
    const again = await ok("code_ref_attach", {
      workspace,
      path: "src/math.ts",
      start_line: 10,
      end_line: 12,
      text: STORED.replace(/\n/g, "\r\n"),
      repo: "fork/app",
    });
    expect(again).toMatchObject({ ref: first.ref, sha256: sha, repo: "acme/app", created: false });
    expect(again.warnings.map((w: Warning) => w.code)).toEqual(["CODE_REF_REPO_KEPT"]);
    expect(await tickOf(workspace)).toBe(tick);
    expect(await rowsOf(workspace)).toEqual([
      { path: "src/math.ts", start_line: 10, end_line: 12, sha256: sha, text: STORED, repo: "acme/app" },
    ]);

    // Changed lines under the same range are another slice, stored beside the first.
    const changed = await ok("code_ref_attach", { workspace, path: "src/math.ts", start_line: 10, end_line: 12, text: "a\nb\nc" });
    expect(changed).toMatchObject({ ref: `code:src/math.ts#L10-L12@sha256:${await sha256("a\nb\nc")}`, created: true });
    expect(changed.repo).toBeUndefined();
    expect(await tickOf(workspace)).toBe(tick + 1);
  });

  it("refuses absolute paths, .., backslashes, more than 240 lines and a line count that does not match; nothing is written", async () => {
    const workspace = "code-refs/reject";
    const attach = (path: string, start_line: number, end_line: number, text: string) =>
      failure("code_ref_attach", { workspace, path, start_line, end_line, text });
    const cases: [Awaited<ReturnType<typeof attach>>, RegExp][] = [
      [await attach("/etc/passwd", 1, 1, "root"), /repo-relative/],
      [await attach("src/../../secrets.txt", 1, 1, "x"), /'\.\.'/],
      [await attach("src\\win.ts", 1, 1, "x"), /backslash/],
      [await attach("src/big.ts", 1, 241, "x\n".repeat(241)), /241 lines; at most 240/],
    ];
    for (const [error, problem] of cases) {
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.details?.problem).toMatch(problem);
    }
    const mismatch = await attach("src/a.ts", 1, 3, "one\ntwo\n");
    expect(mismatch).toMatchObject({ code: "INVALID_INPUT", details: { field: "text", expected_lines: 3, got_lines: 2 } });
    expect(mismatch.recovery_hint).toMatch(/final newline/);
    expect(await tickOf(workspace)).toBe(0);
    expect(await rowsOf(workspace)).toEqual([]);
  });
});

describe("code refs: check and open", () => {
  it("check warns CODE_REF_STALE when the current text or sha differs, and not when it is equal", async () => {
    const workspace = "code-refs/check";
    const { ref, sha256: stored } = await ok("code_ref_attach", { workspace, path: "lib/x.py", start_line: 1, end_line: 3, text: LINES });
    const same = await ok("code_ref_check", { workspace, ref, text: LINES });
    expect(same).toMatchObject({ ref, stale: false, stored_sha256: stored, current_sha256: stored });
    expect(same.warnings).toBeUndefined();
    expect(await ok("code_ref_check", { workspace, ref, sha256: stored.toUpperCase() })).toMatchObject({ stale: false });

    const edited = LINES.replace("a + b", "b + a");
    const stale = await ok("code_ref_check", { workspace, ref, text: edited });
    expect(stale).toMatchObject({ ref, stale: true, stored_sha256: stored, current_sha256: await sha256(edited.slice(0, -1)) });
    expect(stale.warnings).toEqual([expect.objectContaining({ code: "CODE_REF_STALE" })]);
    expect((await ok("code_ref_check", { workspace, ref, sha256: "0".repeat(64) })).stale).toBe(true);

    // A ref without its sha checks the latest slice of the range; a sha no slice of a stored range has
    // checks that latest slice and is stale (docs/think.md "Resolving a ref"); an unknown range is UNKNOWN_ID.
    expect(await ok("code_ref_check", { workspace, ref: "code:lib/x.py#L1-L3", text: LINES })).toMatchObject({ ref, stale: false });
    const unknownSha = await ok("code_ref_check", { workspace, ref: `code:lib/x.py#L1-L3@sha256:${"1".repeat(64)}`, text: LINES });
    expect(unknownSha).toMatchObject({ ref, stale: true, newer_ref: ref });
    expect(unknownSha.warnings).toEqual([expect.objectContaining({ code: "CODE_REF_STALE" })]);
    const unknownRange = await failure("code_ref_check", { workspace, ref: "code:lib/x.py#L2-L3", text: LINES });
    expect(unknownRange.code).toBe("UNKNOWN_ID");
    expect(unknownRange.recovery_hint).toContain("code_ref_attach");
    expect(unknownRange.actions?.[0]).toMatchObject({ tool: "code_ref_attach", args: { path: "lib/x.py", start_line: 2, end_line: 3 } });
    expect((await failure("code_ref_check", { workspace, ref })).code).toBe("INVALID_INPUT");
    expect((await failure("code_ref_check", { workspace, ref: "code:../x.py#L1-L3", text: "x" })).code).toBe("INVALID_INPUT");
  });

  it("open returns the stored slice and its normalized ref; a ref without sha opens the latest", async () => {
    const workspace = "code-refs/open";
    const first = await ok("code_ref_attach", { workspace, path: "src/a.ts", start_line: 5, end_line: 7, text: LINES });
    expect((await open(workspace, first.ref)).value).toEqual({
      kind: "code",
      ref: first.ref,
      path: "src/a.ts",
      start_line: 5,
      end_line: 7,
      sha256: first.sha256,
      lines: 3,
      text: STORED,
    });
    const second = await ok("code_ref_attach", { workspace, path: "src/a.ts", start_line: 5, end_line: 7, text: "x\ny\nz\n" });
    expect((await open(workspace, "code:./src/a.ts#L5-L7")).value).toMatchObject({ ref: second.ref, text: "x\ny\nz" });
    expect((await open(workspace, first.ref)).value).toMatchObject({ ref: first.ref, text: STORED });

    // The caller's current text or sha: a difference is CODE_REF_STALE, equality is silent.
    expect((await open(workspace, first.ref, { current_text: LINES })).warnings).toEqual([]);
    const stale = await open(workspace, first.ref, { current_sha256: second.sha256 });
    expect(stale.value).toMatchObject({ text: STORED });
    expect(stale.warnings.map((w) => w.code)).toEqual(["CODE_REF_STALE"]);

    expect((await open(workspace, "code:src/a.ts#L1-L2")).error).toMatchObject({ code: "UNKNOWN_ID" });
    const unknownSha = await open(workspace, `code:src/a.ts#L5-L7@sha256:${"2".repeat(64)}`);
    expect(unknownSha.value).toMatchObject({ ref: second.ref, text: "x\ny\nz", newer_ref: second.ref });
    expect(unknownSha.warnings.map((w) => w.code)).toEqual(["CODE_REF_STALE"]);
    expect((await open(workspace, "code:src/a.ts#L7-L5")).error).toMatchObject({ code: "INVALID_INPUT" });

    // For open's budget: smaller and smaller forms keep the ref and cut the text.
    const stubs = codeOpenStubs({ kind: "code", ref: first.ref, text: "x".repeat(1_500) });
    expect(stubs.map((stub) => (stub.text as string).length)).toEqual([1_000, 500, 200, 0]);
    expect(stubs[0]).toMatchObject({ kind: "code", ref: first.ref, text_truncated: true });
  });
});

describe("code refs on cards", () => {
  it("a decision card carrying a stored ref is accepted; an unknown or malformed ref is refused and nothing is written", async () => {
    const workspace = "code-refs/cards";
    const { ref } = await ok("code_ref_attach", { workspace, path: "src/cache.ts", start_line: 1, end_line: 2, text: "a\nb" });
    const decision = await ok("think_add_decision", {
      workspace,
      id: "D-cache",
      title: "Keep the LRU cache",
      meta: { code_refs: [ref, "code:src/cache.ts#L1-L2"] },
    });
    expect(decision).toMatchObject({ card_id: "D-cache", inserted: true });
    const repeat = await ok("think_add_decision", {
      workspace,
      id: "D-cache",
      title: "Keep the LRU cache",
      meta: { code_refs: [ref, "code:src/cache.ts#L1-L2"] },
    });
    expect(repeat).toMatchObject({ inserted: false });
    const dsl = await ok("think_card", { workspace, card: `type: evidence\ntitle: Hit rate 93%\ncode_refs: ${ref}` });
    const cards = await ok("think_query", { workspace, ids: ["D-cache", dsl.card_id] });
    expect(cards.cards.map((card: { id: string; meta: unknown }) => [card.id, card.meta])).toEqual([
      [dsl.card_id, { code_refs: ref }],
      ["D-cache", { code_refs: [ref, "code:src/cache.ts#L1-L2"] }],
    ]);
    const tick = await tickOf(workspace);

    const unknown = await failure("think_add_decision", {
      workspace,
      title: "Drop it",
      meta: { code_refs: [ref, "code:src/other.ts#L1-L2"] },
    });
    expect(unknown).toMatchObject({ code: "UNKNOWN_ID", details: { field: "card.meta.code_refs[1]" } });
    expect(unknown.recovery_hint).toContain("code_ref_attach");
    expect(unknown.actions?.[0]?.tool).toBe("code_ref_attach");
    const malformed = await failure("think_card", {
      workspace,
      card: { type: "decision", title: "x", meta: { code_refs: ["code:/etc/passwd#L1-L2"] } },
    });
    expect(malformed).toMatchObject({ code: "INVALID_INPUT", details: { field: "card.meta.code_refs[0]" } });
    expect(malformed.recovery_hint).toContain("code:<repo-relative path>");
    expect((await failure("think_add_evidence", { workspace, title: "x", meta: { code_refs: [42] } })).code).toBe("INVALID_INPUT");
    expect((await failure("think_add_decision", { workspace, title: "x", meta: { code_refs: ["CARD-1"] } })).code).toBe("INVALID_INPUT");
    expect(await tickOf(workspace)).toBe(tick);
  });

  it("an anchor may cite stored code refs; an unknown one is refused", async () => {
    const workspace = "code-refs/anchors";
    const { ref } = await ok("code_ref_attach", { workspace, path: "src/store.ts", start_line: 1, end_line: 1, text: "export {};" });
    const anchor = { id: "a:storage", title: "Storage", kind: "component", refs: [ref, "path:src/store.ts"] };
    await ok("anchors_bootstrap", { workspace, anchors: [anchor] });
    const snapshot = await ok("open", { workspace, id: "a:storage" });
    expect(snapshot.record.refs).toContain(ref);
    const refused = await failure("anchors_bootstrap", {
      workspace,
      anchors: [{ ...anchor, id: "a:other", refs: ["code:src/missing.ts#L1-L2"] }],
    });
    expect(refused.code).toBe("UNKNOWN_ID");
    expect(refused.actions?.[0]?.tool).toBe("code_ref_attach");
  });
});
