// The job state machine and claim rules as pure checks, and the job ref grammar.
import { describe, expect, it } from "vitest";
import { CommandError } from "../../shared/errors";
import { parseJobRef } from "./job-refs";
import { type ClaimState, claimLive, requireHolder, requireTransition } from "./lifecycle";

function codeOf(fn: () => void): string | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error instanceof CommandError ? error.error.code : "thrown";
  }
}

const running: ClaimState = { id: "JOB-001", status: "RUNNING", revision: 3, holder: "alice", claim_revision: 3, expires_tick: 10 };

describe("job lifecycle", () => {
  it("allows each action only from its statuses; DONE is final", () => {
    expect(codeOf(() => requireTransition({ ...running, status: "QUEUED" }, "claim"))).toBeUndefined();
    expect(codeOf(() => requireTransition({ ...running, status: "DONE" }, "requeue"))).toBe("INVALID_TRANSITION");
    expect(codeOf(() => requireTransition({ ...running, status: "CANCELED" }, "cancel"))).toBe("INVALID_TRANSITION");
    expect(codeOf(() => requireTransition({ ...running, status: "FAILED" }, "requeue"))).toBeUndefined();
    for (const action of ["claim", "report", "complete", "fail", "cancel", "requeue"] as const) {
      expect(
        codeOf(() => requireTransition({ ...running, status: "DONE" }, action)),
        action,
      ).toBe("INVALID_TRANSITION");
    }
  });

  it("counts a claim live strictly below its expiry tick, and checks holder, liveness and claim revision in that order", () => {
    expect(claimLive(running, 9)).toBe(true);
    expect(claimLive(running, 10)).toBe(false);
    expect(claimLive({ ...running, status: "DONE" }, 1)).toBe(false);
    expect(codeOf(() => requireHolder(running, "report", 9, "alice", 3))).toBeUndefined();
    expect(codeOf(() => requireHolder(running, "report", 9, "bob", 3))).toBe("JOB_CLAIM_HELD");
    expect(codeOf(() => requireHolder(running, "report", 10, "alice", 3))).toBe("JOB_NOT_CLAIMED");
    expect(codeOf(() => requireHolder(running, "complete", 9, "alice", 2))).toBe("REVISION_MISMATCH");
    expect(codeOf(() => requireHolder({ ...running, status: "CANCELED" }, "fail", 9, "alice", 3))).toBe("INVALID_TRANSITION");
  });

  it("parses JOB-<n> and JOB-<n>@<seq>, and nothing else", () => {
    expect(parseJobRef("JOB-001")).toEqual({ id: "JOB-001" });
    expect(parseJobRef("JOB-1000@12")).toEqual({ id: "JOB-1000", eventSeq: 12 });
    expect(parseJobRef("JOB-7")).toBeUndefined();
    expect(parseJobRef("JOB-001@")).toBeUndefined();
    expect(parseJobRef("TASK-001")).toBeUndefined();
  });
});
