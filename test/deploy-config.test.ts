// What a deployment gets from wrangler.toml without further setup: Workers Logs on (the one JSON line per
// call is queryable in the dashboard, not only through `wrangler tail`), every request logged by default
// (docs/deploy.md "Logs" says what a team sees at that rate and what it pays).
import { describe, expect, it } from "vitest";
import wranglerToml from "../wrangler.toml?raw";

/** The `key = value` lines of one top-level TOML table, comments dropped (enough for this flat table). */
function tableOf(toml: string, name: string): Record<string, string> {
  const lines = toml.split("\n");
  const start = lines.findIndex((line) => line.trim() === `[${name}]`);
  if (start < 0) return {};
  const table: Record<string, string> = {};
  for (const line of lines.slice(start + 1)) {
    const text = line.replace(/#.*$/, "").trim();
    if (text.startsWith("[")) break;
    const match = /^([A-Za-z_]+)\s*=\s*(.+)$/.exec(text);
    if (match) table[match[1] as string] = (match[2] as string).trim();
  }
  return table;
}

describe("wrangler.toml", () => {
  it("turns Workers Logs on, logging every request", () => {
    const observability = tableOf(wranglerToml, "observability");
    expect(observability.enabled).toBe("true");
    expect(Number(observability.head_sampling_rate)).toBe(1);
  });
});
