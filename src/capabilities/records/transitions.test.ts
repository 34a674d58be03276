// The record workflow state machine: exactly seed 004's moves, their requirements, and what they leave.
import { describe, expect, it } from "vitest";
import { RECORD_STATES } from "./records.schema";
import { allowedFrom, checkInitialState, checkTransition, transitionTable } from "./transitions";

describe("record transitions", () => {
  it("allows exactly seed 004's seven moves and refuses the other nine", () => {
    expect(transitionTable()).toEqual([
      { from: "OPEN", to: "LATER", requires: "reason" },
      { from: "OPEN", to: "RESOLVED", requires: "resolved_by" },
      { from: "OPEN", to: "DISCARDED", requires: "reason" },
      { from: "LATER", to: "OPEN", requires: null },
      { from: "LATER", to: "DISCARDED", requires: "reason" },
      { from: "RESOLVED", to: "OPEN", requires: null },
      { from: "DISCARDED", to: "OPEN", requires: null },
    ]);
    const full = { reason: "why", resolved_by: "R009" };
    let refused = 0;
    for (const from of RECORD_STATES) {
      for (const to of RECORD_STATES) {
        const valid = transitionTable().some((move) => move.from === from && move.to === to);
        const args = to === "RESOLVED" ? full : { reason: "why" };
        const check = checkTransition(from, to, args);
        expect(check.ok, `${from} → ${to}`).toBe(valid);
        if (!check.ok) {
          refused++;
          expect(check.problem).toBe("not_allowed");
          expect(check.allowed).toEqual(allowedFrom(from));
        }
      }
    }
    expect(refused).toBe(9);
  });

  it("requires a reason for LATER and DISCARDED and resolved_by for RESOLVED", () => {
    expect(checkTransition("OPEN", "LATER", {})).toMatchObject({ ok: false, problem: "reason_required" });
    expect(checkTransition("OPEN", "DISCARDED", {})).toMatchObject({ ok: false, problem: "reason_required" });
    expect(checkTransition("LATER", "DISCARDED", {})).toMatchObject({ ok: false, problem: "reason_required" });
    expect(checkTransition("OPEN", "RESOLVED", { reason: "done" })).toMatchObject({ ok: false, problem: "resolved_by_required" });
    expect(checkTransition("OPEN", "LATER", { reason: "x", resolved_by: "R002" })).toMatchObject({
      ok: false,
      problem: "resolved_by_not_allowed",
    });
  });

  it("keeps the reason, sets resolved_by on RESOLVED and clears both on reopening", () => {
    expect(checkTransition("OPEN", "LATER", { reason: "blocked" })).toEqual({ ok: true, resolved_by: null, state_reason: "blocked" });
    expect(checkTransition("OPEN", "RESOLVED", { resolved_by: "R002" })).toEqual({ ok: true, resolved_by: "R002", state_reason: null });
    expect(checkTransition("RESOLVED", "OPEN", { reason: "new facts" })).toEqual({ ok: true, resolved_by: null, state_reason: null });
    expect(checkTransition("DISCARDED", "OPEN", {})).toEqual({ ok: true, resolved_by: null, state_reason: null });
  });

  it("checks an initial state with the same requirements", () => {
    expect(checkInitialState("OPEN", {})).toMatchObject({ ok: true });
    expect(checkInitialState("LATER", {})).toMatchObject({ ok: false, problem: "reason_required" });
    expect(checkInitialState("RESOLVED", { resolved_by: "R001" })).toMatchObject({ ok: true, resolved_by: "R001" });
  });
});
