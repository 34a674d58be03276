// Lanes are private by default everywhere (seed 003: drafts are lane-scoped), through the real MCP
// endpoint: a draft card's text reaches no other agent through a read that lists graph nodes or trace
// entries — graph_query, show of the trace, context_pack, the think portal's pack, think_watch, export,
// diff — unless that agent asks for every lane (all_lanes); lanes isolate noise, not access, so the flag
// is open to any reader, and workspace_export (a backup) keeps every lane.

import { describe, expect, it } from "vitest";
import { as, callTool, ok, type RpcOptions } from "./helpers/mcp";

const SECRET = "draft-only words: the index is the wrong fix";

async function draftWorkspace(workspace: string) {
  const alice = await as("alice");
  const bob = await as("bob");
  await ok("think_card", { workspace, card: { id: "S1", type: "note", title: "Shared finding", text: "Everyone sees this." } }, alice);
  await ok("think_card", { workspace, lane: "agent", card: { id: "D1", type: "hypothesis", title: "Alice's draft", text: SECRET } }, alice);
  return { alice, bob };
}

const mentions = (value: unknown) => JSON.stringify(value).includes(SECRET) || JSON.stringify(value).includes("Alice's draft");

async function read(tool: string, args: Record<string, unknown>, who: RpcOptions) {
  return ok(tool, args, who);
}

describe("lanes are private by default", () => {
  it("graph_query leaves other agents' drafts out unless all_lanes asks for them", async () => {
    const workspace = "lanes/graph";
    const { alice, bob } = await draftWorkspace(workspace);
    const forBob = await read("graph_query", { workspace }, bob);
    expect(forBob.nodes.map((node: { id: string }) => node.id)).toContain("S1");
    expect(mentions(forBob)).toBe(false);
    const audit = await read("graph_query", { workspace, all_lanes: true }, bob);
    expect(audit.nodes.map((node: { id: string }) => node.id)).toContain("D1");
    const own = await read("graph_query", { workspace }, alice);
    expect(own.nodes.map((node: { id: string }) => node.id)).toContain("D1");
    // By id and by text too.
    expect((await read("graph_query", { workspace, ids: ["D1"] }, bob)).nodes).toEqual([]);
    expect((await read("graph_query", { workspace, text: "wrong fix" }, bob)).nodes).toEqual([]);
  });

  it("reads that list trace entries leave other agents' drafts out, unless all_lanes asks for them", async () => {
    const workspace = "lanes/trace";
    const { alice, bob } = await draftWorkspace(workspace);
    const hidden: [string, Record<string, unknown>][] = [
      ["show", { workspace, doc: "trace" }],
      ["context_pack", { workspace }],
      ["think_watch", { workspace }],
      ["export", { workspace }],
    ];
    for (const [tool, args] of hidden) {
      const forBob = await read(tool, args, bob);
      expect(mentions(forBob), `${tool} for bob`).toBe(false);
      expect(JSON.stringify(forBob), `${tool} for bob`).toContain("Everyone sees this.");
      expect(mentions(await read(tool, { ...args, all_lanes: true }, bob)), `${tool} all_lanes`).toBe(true);
      expect(mentions(await read(tool, args, alice)), `${tool} for alice`).toBe(true);
    }
    // The think portal's pack, and diff against a branch made before the cards.
    const portal = await read("think", { workspace, op: "pack" }, { ...bob, path: "/mcp?toolset=portals" });
    expect(mentions(portal)).toBe(false);
    // open of the draft's trace entry: only with include_drafts.
    const trace = await read("show", { workspace, doc: "trace", all_lanes: true }, bob);
    const draft = (trace.entries as { seq: number; meta?: { card_id?: string } }[]).find((entry) => entry.meta?.card_id === "D1");
    expect(draft).toBeDefined();
    const refused = await callTool("open", { workspace, id: `trace@${draft?.seq}` }, bob);
    expect(refused.isError).toBe(true);
    expect(mentions(refused.structuredContent)).toBe(false);
    expect(mentions(await read("open", { workspace, id: `trace@${draft?.seq}`, include_drafts: true }, bob))).toBe(true);
    // A backup keeps every lane.
    expect(mentions(await read("workspace_export", { workspace }, await as("bob", { role: "admin" })))).toBe(true);
  });

  it("diff leaves other agents' drafts out unless all_lanes asks for them", async () => {
    const workspace = "lanes/diff";
    const alice = await as("alice");
    const bob = await as("bob");
    await ok("branch_create", { workspace, name: "before" }, alice);
    await ok(
      "think_card",
      { workspace, lane: "agent", card: { id: "D1", type: "hypothesis", title: "Alice's draft", text: SECRET } },
      alice,
    );
    const forBob = await read("diff", { workspace, from: "before", to: "main", doc: "trace" }, bob);
    expect(forBob.entries).toEqual([]);
    expect(mentions(await read("diff", { workspace, from: "before", to: "main", doc: "trace", all_lanes: true }, bob))).toBe(true);
  });
});
