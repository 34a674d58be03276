// The catalog seam: what the core learns from it instead of knowing commands. Every well-known name is
// in the catalog; the write guards run in the order the executor relies on (the restore's refusal
// before the idempotency replay, main's bootstrap only for a fresh write); the command metadata that
// replaced the core's name tables is where the core looks for it. Behaviour is covered through the
// endpoint by the writes, export/import, redaction and records tests.

import { describe, expect, it } from "vitest";
import { COMMANDS, findCommand, WORKSPACE_HOOKS } from "../src/catalog/catalog";
import { WELL_KNOWN, type WellKnownRole, wellKnown } from "../src/catalog/well-known";
import type { WorkspaceCommand } from "../src/commands/registry";

function workspaceCommand(name: string): WorkspaceCommand {
  const command = findCommand(name);
  if (command?.scope !== "workspace") throw new Error(`${name} is not a workspace command`);
  return command;
}

describe("catalog seam", () => {
  it("names only commands of the catalog as well-known ones", () => {
    for (const role of Object.keys(WELL_KNOWN) as WellKnownRole[]) {
      expect(wellKnown(role).name, role).toBe(WELL_KNOWN[role]);
    }
  });

  it("registers the restore guard, which refuses before the replay, ahead of main's bootstrap, which prepares a fresh write", () => {
    const [restore, main, ...rest] = WORKSPACE_HOOKS.writeGuards;
    expect(rest).toEqual([]);
    expect(restore?.beforeReplay).toBeTypeOf("function");
    expect(restore?.beforeHandler).toBeUndefined();
    expect(main?.beforeHandler).toBeTypeOf("function");
    expect(main?.beforeReplay).toBeUndefined();
  });

  it("marks exactly the restore's own calls of workspace_import as restore calls", () => {
    const restoring = COMMANDS.filter((command) => command.scope === "workspace" && command.isRestore !== undefined);
    expect(restoring.map((command) => command.name)).toEqual(["workspace.import"]);
    const isRestore = workspaceCommand("workspace.import").isRestore;
    expect(isRestore?.({ jsonl: "{}" })).toBe(true);
    expect(isRestore?.({ abort_restore: true })).toBe(true);
    expect(isRestore?.({ ops: [] })).toBe(false);
  });

  it("gives every Record-Sync command its project argument and the summary counts its writes move, and no other command", () => {
    for (const command of COMMANDS) {
      const recordSync = command.name.startsWith("records.") && command.scope === "workspace";
      const declared = command.scope === "workspace" ? [command.projectField, command.movesSummaryCounts] : [undefined, undefined];
      expect(declared, command.name).toEqual(recordSync ? ["project_id", true] : [undefined, undefined]);
    }
  });

  it("keeps the redaction exceptions with their commands", () => {
    const withRules = COMMANDS.filter((command) => command.redaction !== undefined).map((command) => [command.name, command.redaction]);
    expect(Object.fromEntries(withRules)).toEqual({
      "workspace.import": { keep: ["jsonl"] },
      "think.code.check": { compare: ["text"] },
      open: { compare: ["current_text"] },
      "think.code.attach": { note: expect.stringContaining("sha256 is of the redacted text") },
    });
  });
});
