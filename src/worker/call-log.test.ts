// Unit tests of the log line formatters. The line a real call writes is checked in test/auth.test.ts, its
// rows_read in test/rows-read.test.ts.
import { describe, expect, it } from "vitest";
import { appError } from "../shared/errors";
import { CALL_LOG_KEYS, callLogLine, outcomeOf, REFUSAL_LOG_KEYS, refusalLogLine, tickOf, workspaceOf } from "./call-log";

describe("call log lines", () => {
  it("keep exactly the allowed keys, null when unknown, and drop everything else", () => {
    const line = JSON.parse(
      callLogLine({
        ts: "2026-01-01T00:00:00.000Z",
        event: "something else",
        agent_id: "alice",
        key_id: "k1",
        workspace: "acme/repo",
        tool: "notes_commit",
        cmd: "vcs.notes.commit",
        outcome: "ok",
        duration_ms: 12,
        object_ms: 0.4567,
        rows_read: 42,
        arguments: { content: "SECRET ARGUMENT" },
        content: "SECRET RESULT",
        token: "bm1.secret.token",
      }),
    );
    expect(Object.keys(line)).toEqual([...CALL_LOG_KEYS]);
    expect(line).toEqual({
      ts: "2026-01-01T00:00:00.000Z",
      event: "call",
      agent_id: "alice",
      key_id: "k1",
      workspace: "acme/repo",
      tool: "notes_commit",
      op: null,
      cmd: "vcs.notes.commit",
      outcome: "ok",
      duration_ms: 12,
      tick: null,
      object_ms: 0.457,
      rows_read: 42,
    });
  });

  it("keep only strings and finite numbers, and bound strings", () => {
    const line = JSON.parse(
      callLogLine({
        agent_id: { nested: "SECRET" },
        tool: ["SECRET"],
        duration_ms: Number.NaN,
        rows_read: Number.POSITIVE_INFINITY,
        cmd: "x".repeat(500),
      }),
    );
    expect(line.agent_id).toBeNull();
    expect(line.tool).toBeNull();
    expect(line.duration_ms).toBeNull();
    expect(line.rows_read).toBeNull();
    expect(line.cmd).toHaveLength(128);
    expect(JSON.stringify(line)).not.toContain("SECRET");
  });

  it("refusal lines keep exactly their keys", () => {
    const line = JSON.parse(refusalLogLine({ ts: "t", status: 401, outcome: "UNAUTHORIZED", reason: "token revoked", token: "bm1.x.y" }));
    expect(Object.keys(line)).toEqual([...REFUSAL_LOG_KEYS]);
    expect(line).toEqual({ ts: "t", event: "refused", status: 401, outcome: "UNAUTHORIZED", reason: "token revoked" });
  });
});

describe("call facts", () => {
  const failed = { ok: false as const, error: appError("FORBIDDEN", "no", "no") };

  it("take the outcome and the tick from the result", () => {
    expect(outcomeOf({ ok: true, value: {} })).toBe("ok");
    expect(outcomeOf(failed)).toBe("FORBIDDEN");
    expect(tickOf({ ok: true, value: { tick: 7 } })).toBe(7);
    expect(tickOf({ ok: true, value: { tick: "7" } })).toBeNull();
    expect(tickOf(failed)).toBeNull();
    expect(tickOf(undefined)).toBeNull();
  });

  it("take the workspace from the result, else the lock, else a valid named one", () => {
    const capsule = { ok: true as const, value: { capsule: { where: { workspace: "from/capsule" } }, workspace: "from/value" } };
    expect(workspaceOf(capsule, "lock", ["arg"])).toBe("from/capsule");
    expect(workspaceOf({ ok: true, value: { workspace: "from/value" } }, "lock", ["arg"])).toBe("from/value");
    expect(workspaceOf(failed, "the/lock", ["arg"])).toBe("the/lock");
    expect(workspaceOf(failed, undefined, [undefined, "../etc", 42, "named/ws"])).toBe("named/ws");
    expect(workspaceOf(undefined, undefined, ["not a name", "x".repeat(300)])).toBeNull();
  });
});
