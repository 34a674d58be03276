// End-to-end: the SQLite rows a call read (`rows_read` of its `call` log line), through the real MCP
// endpoint with test/helpers/rows-read.ts. The bounds are loose on purpose (a few rows per entry read),
// but tight enough that a read paying for a whole document, or a count that stays at zero, fails them.
import { describe, expect, it, vi } from "vitest";
import { CALL_LOG_KEYS } from "../src/worker/call-log";
import { ok } from "./helpers/mcp";
import { callCounted } from "./helpers/rows-read";

/** More than a note's commit or a short read needs (about 15 rows each when written), far less than a long document. */
const FEW_ROWS = 50;

describe("rows read per call", () => {
  it("are none for a call that reads nothing, and a few for writing and reading a few notes", async () => {
    const workspace = "rows/few";
    expect((await callCounted("ping", { workspace })).rows_read).toBe(0);
    for (const content of ["first", "second", "third"]) {
      const commit = await callCounted("notes_commit", { workspace, content });
      expect(commit.result.isError).toBeFalsy();
      expect(commit.rows_read).toBeGreaterThan(0);
      expect(commit.rows_read).toBeLessThan(FEW_ROWS);
    }
    const shown = await callCounted("show", { workspace, doc_kind: "notes" });
    expect(shown.result.structuredContent.entries).toHaveLength(3);
    expect(shown.rows_read).toBeGreaterThan(0);
    expect(shown.rows_read).toBeLessThan(FEW_ROWS);
  });

  it("grow with the entries a read returns: a big limit reads more than a small one", async () => {
    const workspace = "rows/many";
    for (let index = 0; index < 120; index++) await ok("notes_commit", { workspace, content: `note ${index}` });
    const small = await callCounted("show", { workspace, doc_kind: "notes", limit: 5 });
    const big = await callCounted("show", { workspace, doc_kind: "notes", limit: 100 });
    expect(small.result.structuredContent.entries).toHaveLength(5);
    expect(big.result.structuredContent.entries).toHaveLength(100);
    // The tail of five does not pay for the 115 entries before it; each of the 95 more entries is read at least once.
    expect(small.rows_read).toBeLessThan(FEW_ROWS);
    expect(big.rows_read).toBeGreaterThanOrEqual(small.rows_read + 95);
  });

  it("are a key of every call line, null when no workspace object ran, which callCounted refuses", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      await ok("help", {});
      const lines = log.mock.calls.map((call) => JSON.parse(String(call[0])) as Record<string, unknown>);
      const calls = lines.filter((line) => line.event === "call");
      expect(calls).toHaveLength(1);
      expect(Object.keys(calls[0] ?? {})).toEqual([...CALL_LOG_KEYS]);
      expect(calls[0]).toMatchObject({ tool: "help", rows_read: null });
    } finally {
      log.mockRestore();
    }
    await expect(callCounted("help", {})).rejects.toThrow(/rows_read is null/);
    // The helper restored console.log after it failed.
    expect(vi.isMockFunction(console.log)).toBe(false);
  });
});
