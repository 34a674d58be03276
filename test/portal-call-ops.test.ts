// A portal's golden ops answer by their short names in `op: "call"` too (docs/portals.md "The
// envelope"): on every portal, `{op: "call", cmd: <golden op>}` runs the command `{op: <golden op>}`
// runs, so `system {op: "call", cmd: "cmd.list"}` is `system {op: "cmd.list"}`; another portal's op
// names are not its own (UNKNOWN_CMD), and other command names resolve as before.

import { describe, expect, it } from "vitest";
import { findCommand } from "../src/catalog/catalog";
import { portals } from "../src/catalog/portals";
import { callTool, failure, type RpcOptions } from "./helpers/mcp";

const PORTALS: RpcOptions = { path: "/mcp?toolset=portals" };

/** A tool result (answer or typed error) without its budget report, whose used characters count the envelope's echo. */
async function answer(tool: string, envelope: Record<string, unknown>) {
  const { budget: _budget, ...rest } = (await callTool(tool, envelope, PORTALS)).structuredContent;
  return rest;
}

describe("golden op names in op: call", () => {
  it("system's meta-commands answer by their short names in cmd", async () => {
    const workspace = "portal-call-ops/system";
    for (const [op, args] of [
      ["cmd.list", {}],
      ["ops.summary", {}],
      ["schema.get", { cmd: "notes_commit" }],
      ["help", {}],
      ["migration.lookup", { old_name: "notes_commit" }],
    ] as const) {
      const called = await answer("system", { workspace, op: "call", cmd: op, args });
      expect(called, op).not.toHaveProperty("error");
      expect(called, op).toEqual(await answer("system", { workspace, op, args }));
    }
  });

  it("every portal's golden op read runs the same command through call; writes resolve to their op's command", async () => {
    const workspace = "portal-call-ops/all";
    for (const portal of portals()) {
      for (const [op, name] of Object.entries(portal.ops)) {
        const command = findCommand(name);
        if (command?.kind !== "read") {
          // Resolved (not UNKNOWN_CMD): an argument no command takes is refused by the command itself, naming it.
          const refused = await failure(portal.name, { workspace, op: "call", cmd: op, args: { __not_an_argument: 1 } }, PORTALS);
          expect(refused.code, `${portal.name} ${op}`).not.toBe("UNKNOWN_CMD");
          expect(refused, `${portal.name} ${op}`).toEqual(
            await failure(portal.name, { workspace, op, args: { __not_an_argument: 1 } }, PORTALS),
          );
          continue;
        }
        const called = await answer(portal.name, { workspace, op: "call", cmd: op });
        expect(called, `${portal.name} ${op}`).toEqual(await answer(portal.name, { workspace, op }));
      }
    }
  });

  it("the portal's own op wins over another command of that name; another portal's op is UNKNOWN_CMD", async () => {
    const workspace = "portal-call-ops/collisions";
    // graph's op merge is graph.merge (the flat name `merge` is docs.merge elsewhere).
    const graphMerge = await failure("graph", { workspace, op: "call", cmd: "merge", args: { __not_an_argument: 1 } }, PORTALS);
    expect(graphMerge).toEqual(await failure("graph", { workspace, op: "merge", args: { __not_an_argument: 1 } }, PORTALS));
    expect(JSON.stringify(graphMerge)).toContain("graph.merge");
    // On another portal, `merge` is still the flat tool name of docs.merge.
    const docsMerge = await failure("vcs", { workspace, op: "call", cmd: "merge", args: { __not_an_argument: 1 } }, PORTALS);
    expect(JSON.stringify(docsMerge)).toContain("docs.merge");
    // `cmd.list` is system's op: the tasks portal does not know it.
    expect((await failure("tasks", { workspace, op: "call", cmd: "cmd.list" }, PORTALS)).code).toBe("UNKNOWN_CMD");
  });
});
