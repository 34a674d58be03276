// Anchor map lint: every code, sorted output.
import { describe, expect, it } from "vitest";
import { type LintAnchor, lintAnchors } from "./lint";

const anchor = (slug: string, parent: string | null = null, depends_on: string[] = [], linked = true): LintAnchor => ({
  slug,
  parent,
  depends_on,
  linked,
});

describe("anchors lint", () => {
  it("finds nothing in a clean map", () => {
    expect(lintAnchors([anchor("core"), anchor("db", "core", ["core"])], [{ alias: "database", anchor: "db" }])).toEqual([]);
  });

  it("reports each problem with its code, anchor and hint", () => {
    const issues = lintAnchors(
      [
        anchor("core", null, [], false),
        anchor("db", "ghost", ["phantom", "db", "old-core"]),
        anchor("self", "self"),
        anchor("x", "y"),
        anchor("y", "x"),
        anchor("twin"),
      ],
      [
        { alias: "old-core", anchor: "core" },
        { alias: "gone", anchor: "nowhere" },
        { alias: "twin", anchor: "core" },
      ],
    );
    expect(issues.map((issue) => `${issue.code} ${issue.anchor}`)).toEqual([
      "ALIAS_COLLIDES_WITH_ANCHOR_ID a:twin",
      "ALIAS_DANGLING a:gone",
      "PARENT_CYCLE a:x",
      "RELATION_USES_ALIAS a:db",
      "SELF_DEPENDS_ON a:db",
      "SELF_PARENT a:self",
      "UNKNOWN_DEPENDS_ON a:db",
      "UNKNOWN_PARENT a:db",
      "ORPHAN_ANCHOR a:core",
    ]);
    for (const issue of issues) expect(issue.hint.length).toBeGreaterThan(0);
    expect(issues.find((issue) => issue.code === "PARENT_CYCLE")?.message).toBe("Parents form a cycle: a:x, a:y.");
  });

  it("follows aliases when looking for parent cycles", () => {
    const issues = lintAnchors([anchor("x", "old-y"), anchor("y", "x")], [{ alias: "old-y", anchor: "y" }]);
    expect(issues.map((issue) => issue.code)).toEqual(["PARENT_CYCLE", "RELATION_USES_ALIAS"]);
  });
});
