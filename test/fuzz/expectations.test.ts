// Unit check of the fuzzer's oracle (test/fuzz/expectations.ts): the expectation of a call is read from
// any arguments the generators make, hostile ones included (`null` for tasks_snapshot once threw in the
// oracle at VITE_FUZZ_SEED=20261101, while the server answered correctly).
import { describe, expect, it } from "vitest";
import { COMMANDS, findCommand } from "../../src/catalog/catalog";
import type { Command } from "../../src/commands/registry";
import { expectationOf } from "./expectations";

const HOSTILE: unknown[] = [null, undefined, [], ["delta"], "delta", 0, true, {}];

describe("the fuzzer's oracle", () => {
  it("reads every command's expectation from hostile arguments without throwing", () => {
    for (const command of COMMANDS) {
      for (const args of HOSTILE) {
        const expectation = expectationOf(command, args);
        expect(expectation.tool).toBe(command.tool);
        expect(expectation.repeat).toBe(command.kind === "read" && command.scope !== "directory" ? "read" : undefined);
      }
    }
  });

  it("expects a delta snapshot to move its baseline, and an idempotent write to replay", () => {
    const snapshot = findCommand("tasks_snapshot") as Command;
    expect(expectationOf(snapshot, { delta: true })).toEqual({
      tool: "tasks_snapshot",
      readOnly: true,
      bookkeeping: ["snapshot_baselines"],
    });
    expect(expectationOf(snapshot, null)).toEqual({ tool: "tasks_snapshot", readOnly: true, repeat: "read" });
    // A Directory read's summaries may move between two sends (a workspace's alarm pushes them).
    expect(expectationOf(findCommand("list_projects") as Command, {}).repeat).toBeUndefined();
    const commit = findCommand("notes_commit") as Command;
    expect(expectationOf(commit, { idempotency_key: "k" }).repeat).toBe("replay");
    expect(expectationOf(commit, { idempotency_key: 3 }).repeat).toBeUndefined();
  });
});
