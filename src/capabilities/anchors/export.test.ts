// Anchor map export: deterministic text and mermaid, whatever the input order.
import { describe, expect, it } from "vitest";
import { type ExportAnchor, exportAnchors } from "./export";

const anchor = (slug: string, parent: string | null = null, depends_on: string[] = [], title = slug): ExportAnchor => ({
  slug,
  title,
  kind: "component",
  parent,
  depends_on,
});

const MAP = [
  anchor("storage", "core", ["net"], 'Storage "engine"'),
  anchor("core"),
  anchor("net", null, ["ghost"]),
  anchor("storage-sql", "storage"),
  anchor("loop-a", "loop-b"),
  anchor("loop-b", "loop-a"),
];
const ALIASES = [{ alias: "store", anchor: "storage" }];

describe("anchors export", () => {
  it("writes an indented tree with depends_on, unknown targets, cycles and aliases", () => {
    expect(exportAnchors("text", MAP, ALIASES)).toBe(
      [
        "# anchors: 6, aliases: 1",
        "a:core  core [component]",
        '  a:storage  Storage "engine" [component]  depends_on: a:net',
        "    a:storage-sql  storage-sql [component]",
        "a:net  net [component]  depends_on: a:ghost (unregistered)",
        "a:loop-a  loop-a [component]  parent: a:loop-b (cycle)",
        "  a:loop-b  loop-b [component]",
        "aliases:",
        "  a:store -> a:storage",
        "",
      ].join("\n"),
    );
  });

  it("writes a mermaid flowchart: nodes by slug, parent and depends_on edges to registered anchors", () => {
    expect(exportAnchors("mermaid", MAP, ALIASES)).toBe(
      [
        "flowchart TD",
        '  a_core["a:core: core"]',
        '  a_loop_a["a:loop-a: loop-a"]',
        '  a_loop_b["a:loop-b: loop-b"]',
        '  a_net["a:net: net"]',
        '  a_storage["a:storage: Storage #quot;engine#quot;"]',
        '  a_storage_sql["a:storage-sql: storage-sql"]',
        "  a_loop_b --> a_loop_a",
        "  a_loop_a --> a_loop_b",
        "  a_core --> a_storage",
        "  a_storage --> a_storage_sql",
        "  a_storage -.->|depends on| a_net",
        "  %% alias a:store -> a:storage",
        "",
      ].join("\n"),
    );
  });

  it("is byte-identical for any input order", () => {
    for (const format of ["text", "mermaid"] as const) {
      expect(exportAnchors(format, [...MAP].reverse(), ALIASES)).toBe(exportAnchors(format, MAP, ALIASES));
    }
  });
});
