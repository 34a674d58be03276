// Unit tests of how the front door takes a workspace object's answer. The time a real call spent in its
// object is checked through the Worker in test/auth.test.ts, the rows it read in test/rows-read.test.ts;
// an object on older code cannot be made there.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PORTAL_CONNECTION } from "../catalog/suggestions";
import type { ObjectAnswer } from "../hosts/workspace/workspace-object";
import { type CallSession, resultOf } from "./call-command";

function session(): CallSession {
  return {
    principal: { agent_id: "a", workspaces: ["**"], role: "write", key_id: "dev" },
    lock: undefined,
    env,
    connection: PORTAL_CONNECTION,
    timing: { object_ms: null, rows_read: null },
  };
}

describe("a workspace object's answer", () => {
  it("gives its result and adds its time and rows read to the call's, over several answers", () => {
    const call = session();
    expect(resultOf(call, { result: { ok: true, value: { n: 1 } }, object_ms: 1.5, rows_read: 7 })).toEqual({ ok: true, value: { n: 1 } });
    expect(resultOf(call, { result: { ok: true, value: { n: 2 } }, object_ms: 2.25, rows_read: 5 })).toEqual({ ok: true, value: { n: 2 } });
    expect(call.timing?.object_ms).toBe(3.75);
    expect(call.timing?.rows_read).toBe(12);
  });

  it("takes an answer without rows_read, as an object on the code before it answers, with no rows", () => {
    const call = session();
    const older = { result: { ok: true, value: { n: 1 } }, object_ms: 1.5 } as unknown as ObjectAnswer;
    expect(resultOf(call, older)).toEqual({ ok: true, value: { n: 1 } });
    expect(call.timing).toEqual({ object_ms: 1.5, rows_read: null });
  });

  it("takes a bare result, as an object on the code before ObjectAnswer answers, with no time", () => {
    const call = session();
    expect(resultOf(call, { ok: true, value: { result: "a field named result" } })).toEqual({
      ok: true,
      value: { result: "a field named result" },
    });
    expect(call.timing).toEqual({ object_ms: null, rows_read: null });
  });
});
