// End-to-end: an outdated code ref warns, through the real MCP endpoint (toolset=full). Opening
// `code:…@sha256:<old>` after a newer slice of the same path and range was attached returns the old
// slice with CODE_REF_STALE (typed {code, message, recovery}, the recovery naming the newer ref) and
// `newer_ref`; the caller's current text decides when given; overlapping ranges and other paths are
// other slices; code_ref_check names the same newer ref. A sha no stored slice has opens the range's
// latest slice, stale, as seed 002 says; a range with nothing stored stays UNKNOWN_ID.
import { describe, expect, it } from "vitest";
import type { Warning } from "../src/shared/result";
import { failure, ok } from "./helpers/mcp";

const OLD = "const limit = 10;\nexport function cap(n: number) {\n  return Math.min(n, limit);\n}";
const NEW = "const limit = 20;\nexport function cap(n: number) {\n  return Math.min(n, limit);\n}";
const NEWEST = "const limit = 30;\nexport function cap(n: number) {\n  return Math.min(n, limit);\n}";
const UNSTORED = "const limit = 40;\nexport function cap(n: number) {\n  return Math.min(n, limit);\n}";

const attach = (workspace: string, text: string, path = "src/cap.ts", start_line = 3, end_line = 6) =>
  ok("code_ref_attach", { workspace, path, start_line, end_line, text });

/** The one warning of an answer; fails unless it has exactly one, typed {code, message, recovery}. */
function onlyWarning(answer: Record<string, any>): Warning {
  expect(answer.warnings).toHaveLength(1);
  const warning = (answer.warnings as Warning[])[0] as Warning;
  expect(Object.keys(warning).sort()).toEqual(["code", "message", "recovery"]);
  return warning;
}

describe("code refs: an outdated ref warns", () => {
  it("open of an older sha returns the stored slice, CODE_REF_STALE naming the newer ref, and newer_ref", async () => {
    const workspace = "code-ref-stale/open";
    const old = await attach(workspace, OLD);
    const fresh = await ok("open", { workspace, id: old.ref });
    expect(fresh).toMatchObject({ kind: "code", ref: old.ref, text: OLD });
    expect(fresh.warnings).toBeUndefined();
    expect(fresh.newer_ref).toBeUndefined();

    const newer = await attach(workspace, NEW);
    expect(newer.created).toBe(true);
    const outdated = await ok("open", { workspace, id: old.ref });
    expect(outdated).toMatchObject({
      kind: "code",
      ref: old.ref,
      path: "src/cap.ts",
      start_line: 3,
      end_line: 6,
      sha256: old.sha256,
      text: OLD,
      newer_ref: newer.ref,
    });
    const warning = onlyWarning(outdated);
    expect(warning.code).toBe("CODE_REF_STALE");
    expect(warning.message).toContain(old.ref);
    expect(warning.recovery).toContain(`open {id: "${newer.ref}"}`);

    // Following the recovery opens the newer slice, which is current: no warning, no newer_ref.
    const followed = await ok("open", { workspace, id: newer.ref });
    expect(followed).toMatchObject({ ref: newer.ref, text: NEW });
    expect(followed.warnings).toBeUndefined();
    expect(followed.newer_ref).toBeUndefined();
    // A ref without a sha is the latest slice: never outdated.
    const latest = await ok("open", { workspace, id: "code:src/cap.ts#L3-L6" });
    expect(latest).toMatchObject({ ref: newer.ref, text: NEW });
    expect(latest.warnings).toBeUndefined();

    // A third version: every older ref names the latest one.
    const newest = await attach(workspace, NEWEST);
    for (const ref of [old.ref, newer.ref]) {
      const answer = await ok("open", { workspace, id: ref });
      expect(answer).toMatchObject({ ref, newer_ref: newest.ref });
      expect(onlyWarning(answer).recovery).toContain(`open {id: "${newest.ref}"}`);
    }
  });

  it("the caller's current text decides: equal is silent, the newer text or unknown text warns with the newer ref", async () => {
    const workspace = "code-ref-stale/current";
    const old = await attach(workspace, OLD);
    const newer = await attach(workspace, NEW);
    // The code went back to the old lines: attaching them again writes nothing, so the newer slice stays latest.
    expect((await attach(workspace, OLD)).created).toBe(false);
    expect(onlyWarning(await ok("open", { workspace, id: old.ref })).code).toBe("CODE_REF_STALE");

    const matches = await ok("open", { workspace, id: old.ref, current_text: `${OLD}\n` });
    expect(matches).toMatchObject({ ref: old.ref, text: OLD, newer_ref: newer.ref });
    expect(matches.warnings).toBeUndefined();

    const isNewer = await ok("open", { workspace, id: old.ref, current_sha256: newer.sha256 });
    expect(isNewer).toMatchObject({ ref: old.ref, text: OLD, newer_ref: newer.ref });
    const toNewer = onlyWarning(isNewer);
    expect(toNewer.code).toBe("CODE_REF_STALE");
    expect(toNewer.message).toContain(newer.ref);
    expect(toNewer.recovery).toBe(`Cite the newer slice: open {id: "${newer.ref}"}.`);

    const unknown = onlyWarning(await ok("open", { workspace, id: old.ref, current_text: UNSTORED }));
    expect(unknown.code).toBe("CODE_REF_STALE");
    expect(unknown.recovery).toContain("code_ref_attach");
    expect(unknown.recovery).toContain(`open {id: "${newer.ref}"}`);
  });

  it("overlapping ranges and the same range of another path are other slices: no warning", async () => {
    const workspace = "code-ref-stale/overlap";
    const old = await attach(workspace, OLD);
    await attach(workspace, "a\nb\nc\nd", "src/cap.ts", 4, 7);
    await attach(workspace, "a\nb\nc\nd\ne", "src/cap.ts", 2, 6);
    await attach(workspace, "a\nb", "src/cap.ts", 4, 5);
    await attach(workspace, NEW, "src/other.ts");
    const answer = await ok("open", { workspace, id: old.ref });
    expect(answer).toMatchObject({ ref: old.ref, text: OLD });
    expect(answer.warnings).toBeUndefined();
    expect(answer.newer_ref).toBeUndefined();
  });

  it("code_ref_check names the same newer ref; its stale still follows the caller's text", async () => {
    const workspace = "code-ref-stale/check";
    const old = await attach(workspace, OLD);
    const newer = await attach(workspace, NEW);

    const same = await ok("code_ref_check", { workspace, ref: old.ref, text: OLD });
    expect(same).toMatchObject({ ref: old.ref, stale: false, stored_sha256: old.sha256, newer_ref: newer.ref });
    expect(same.warnings).toBeUndefined();

    const changed = await ok("code_ref_check", { workspace, ref: old.ref, text: NEW });
    expect(changed).toMatchObject({ ref: old.ref, stale: true, current_sha256: newer.sha256, newer_ref: newer.ref });
    const warning = onlyWarning(changed);
    expect(warning.code).toBe("CODE_REF_STALE");
    expect(warning.recovery).toContain(`open {id: "${newer.ref}"}`);

    const latest = await ok("code_ref_check", { workspace, ref: newer.ref, text: NEW });
    expect(latest).toMatchObject({ ref: newer.ref, stale: false });
    expect(latest.newer_ref).toBeUndefined();
    expect(latest.warnings).toBeUndefined();
  });

  it("a sha no stored slice has answers the range's latest slice with CODE_REF_STALE and newer_ref", async () => {
    const workspace = "code-ref-stale/unknown-sha";
    await attach(workspace, OLD);
    const newer = await attach(workspace, NEW);
    const unknownRef = newer.ref.replace(newer.sha256, "e".repeat(64));

    const answer = await ok("open", { workspace, id: unknownRef });
    expect(answer).toMatchObject({ kind: "code", ref: newer.ref, sha256: newer.sha256, text: NEW, newer_ref: newer.ref });
    const warning = onlyWarning(answer);
    expect(warning.code).toBe("CODE_REF_STALE");
    expect(warning.message).toContain(unknownRef);
    expect(warning.message).toContain(newer.ref);
    expect(warning.recovery).toContain(`open {id: "${newer.ref}"}`);
    expect(warning.recovery).toContain("code_ref_attach");

    // The caller's text is the latest slice: cite it. Other text: attach it.
    const isLatest = onlyWarning(await ok("open", { workspace, id: unknownRef, current_text: NEW }));
    expect(isLatest.recovery).toBe(`Cite the latest slice: open {id: "${newer.ref}"}.`);
    const other = onlyWarning(await ok("open", { workspace, id: unknownRef, current_text: UNSTORED }));
    expect(other.recovery).toContain("code_ref_attach");

    // code_ref_check follows open: the latest slice, stale whatever the caller's text (the ref names no stored lines).
    const checked = await ok("code_ref_check", { workspace, ref: unknownRef, text: NEW });
    expect(checked).toMatchObject({ ref: newer.ref, stale: true, stored_sha256: newer.sha256, newer_ref: newer.ref });
    expect(onlyWarning(checked).code).toBe("CODE_REF_STALE");

    // A card carries only stored slices: it still refuses the ref, naming the latest.
    const refused = await failure("think_card", { workspace, card: { type: "note", title: "cites", meta: { code_refs: [unknownRef] } } });
    expect(refused).toMatchObject({ code: "UNKNOWN_ID", details: { latest_ref: newer.ref } });
    // A range with no stored version is still UNKNOWN_ID.
    const none = await failure("open", { workspace, id: `code:src/cap.ts#L3-L7@sha256:${"e".repeat(64)}` });
    expect(none.code).toBe("UNKNOWN_ID");
  });

  it("a tight budget cuts the old text but keeps the warning and newer_ref", async () => {
    const workspace = "code-ref-stale/budget";
    const long = (mark: string) => Array.from({ length: 40 }, (_, i) => `// ${mark} line ${i} ${"x".repeat(80)}`).join("\n");
    const old = await attach(workspace, long("old"), "src/long.ts", 1, 40);
    const newer = await attach(workspace, long("new"), "src/long.ts", 1, 40);
    const answer = await ok("open", { workspace, id: old.ref, max_chars: 1_500 });
    expect(answer).toMatchObject({ ref: old.ref, newer_ref: newer.ref, text_truncated: true, truncated: true });
    const codes = (answer.warnings as Warning[]).map((w) => w.code);
    expect(codes).toContain("CODE_REF_STALE");
    const stale = (answer.warnings as Warning[]).find((w) => w.code === "CODE_REF_STALE");
    expect(stale?.recovery).toContain(`open {id: "${newer.ref}"}`);
  });
});
