// The capability ranks are declared once, in .dependency-cruiser.cjs (CAPABILITY_RANKS), where the lint
// turns them into rules; docs/architecture.md ("Capability ranks") shows them to readers. This keeps the
// two the same, and every capability folder ranked.

import { describe, expect, it } from "vitest";
import architecture from "../docs/architecture.md?raw";

const CONFIG =
  Object.values(import.meta.glob<string>("../.dependency-cruiser.cjs", { query: "?raw", import: "default", eager: true }))[0] ?? "";

const FOLDERS = [
  ...new Set(
    Object.keys(import.meta.glob<string>("../src/capabilities/*/*.catalog.ts", { query: "?raw", import: "default", eager: true })).map(
      (path) => path.split("/")[3] as string,
    ),
  ),
].sort();

/** rank → capability names, from lines `{ rank: 1, why: "…", names: ["docs", "records"] }`. */
function declaredRanks(): Map<number, string[]> {
  const ranks = new Map<number, string[]>();
  for (const match of CONFIG.matchAll(/\{ rank: (\d+), why: "[^"]*", names: \[([^\]]*)\] \}/g)) {
    ranks.set(Number(match[1]), [...(match[2] ?? "").matchAll(/"([^"]+)"/g)].map((name) => name[1] as string).sort());
  }
  return ranks;
}

/** rank → capability names, from the table rows `| 1 | \`docs\`, \`records\` | why |` of the ranks section. */
function documentedRanks(): Map<number, string[]> {
  const section = architecture.split("### Capability ranks")[1]?.split("\n### ")[0] ?? "";
  const ranks = new Map<number, string[]>();
  for (const match of section.matchAll(/^\| (\d+) \| ([^|]+) \|/gm)) {
    ranks.set(Number(match[1]), [...(match[2] ?? "").matchAll(/`([^`]+)`/g)].map((name) => name[1] as string).sort());
  }
  return ranks;
}

describe("capability ranks", () => {
  it("are declared for every capability folder, once each", () => {
    const declared = [...declaredRanks().values()].flat();
    expect(declared.length).toBeGreaterThan(0);
    expect([...declared].sort()).toEqual(FOLDERS);
    expect(new Set(declared).size).toBe(declared.length);
  });

  it("read the same in docs/architecture.md as in the lint's configuration", () => {
    expect(documentedRanks()).toEqual(declaredRanks());
  });
});
