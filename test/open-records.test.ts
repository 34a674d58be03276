// End-to-end: `open` reaches Record-Sync records (seed 004's artifacts) through the real MCP endpoint:
// `R001` answers the record as it is, `R001@v1` (the version names get_record_history and
// get_record_diff print) the record as it was; both fit any budget, as resources too; unknown ones are
// UNKNOWN_ID with a way on.

import { describe, expect, it } from "vitest";
import { openRef } from "../src/capabilities/open/open.commands";
import { MIN_BUDGET_CHARS } from "../src/shared/limits";
import { as, failure, ok, type RpcOptions, rpc } from "./helpers/mcp";

const FULL: RpcOptions = { path: "/mcp?toolset=full" };
const PORTALS: RpcOptions = { path: "/mcp?toolset=portals" };

function expectShape(payload: Record<string, unknown>): void {
  const parsed = openRef.output.safeParse(payload);
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
}

/** R001 (a question, updated once: v2) and its child R002. */
async function seeded(workspace: string): Promise<RpcOptions> {
  const alice = { ...FULL, ...(await as("alice")) };
  const created = await ok(
    "create_record",
    { workspace, type: "question", title: "Cache?", summary: "Do we cache?", body: "Open." },
    alice,
  );
  await ok("update_record", { workspace, session_id: created.session_id, id: "R001", body: "We cache reads." }, alice);
  await ok(
    "create_record",
    { workspace, session_id: created.session_id, parent_id: "R001", type: "note", title: "LRU", summary: "An LRU", body: "x" },
    alice,
  );
  return alice;
}

describe("open of a record", () => {
  it("R001 answers the record as it is, the id get_record_ref gives", async () => {
    const workspace = "open-records/current";
    const alice = await seeded(workspace);
    const ref = await ok("get_record_ref", { workspace, id: "R001" }, alice);
    const opened = await ok("open", { workspace, id: ref.id }, alice);
    expectShape(opened);
    expect(opened).toMatchObject({ kind: "record", ref: "R001", truncated: false });
    expect(opened.record).toMatchObject({
      id: "R001",
      type: "question",
      title: "Cache?",
      body: "We cache reads.",
      state: "OPEN",
      version: 2,
      children_count: 1,
    });
    // Another agent, with no session, reads it too: open activates nothing.
    const bob = await ok("open", { workspace, id: " R002 " }, { ...FULL, ...(await as("bob")) });
    expect(bob).toMatchObject({ kind: "record", ref: "R002", record: { parent_id: "R001", title: "LRU" } });
    expect((await ok("get_active_sessions", { workspace }, alice)).sessions).toHaveLength(1);
  });

  it("R001@v1 answers the version as it was, with the record's current version", async () => {
    const workspace = "open-records/version";
    const alice = await seeded(workspace);
    const history = await ok("get_record_history", { workspace, id: "R001" }, alice);
    expect(JSON.stringify(history)).toContain("R001@v1");
    const opened = await ok("open", { workspace, id: "R001@v1" }, alice);
    expectShape(opened);
    expect(opened).toMatchObject({
      kind: "record_version",
      ref: "R001@v1",
      current_version: 2,
      record: { id: "R001", version: 1, body: "Open." },
    });
    const latest = await ok("open", { workspace, id: "R001@V2" }, alice);
    expect(latest).toMatchObject({ ref: "R001@v2", current_version: 2, record: { body: "We cache reads." } });
  });

  it("an unknown record or version is UNKNOWN_ID with a way on", async () => {
    const workspace = "open-records/unknown";
    const alice = await seeded(workspace);
    const missing = await failure("open", { workspace, id: "R404" }, alice);
    expect(missing).toMatchObject({ code: "UNKNOWN_ID", details: { id: "R404", kind: "record" } });
    expect(missing.recovery_hint).toContain("list_records");
    expect(missing.actions?.[0]).toMatchObject({ tool: "list_records" });
    const version = await failure("open", { workspace, id: "R001@v9" }, alice);
    expect(version).toMatchObject({ code: "UNKNOWN_ID", details: { id: "R001@v9", kind: "record_version", current_version: 2 } });
    expect(version.actions?.map((action) => action.args?.id)).toContain("R001@v2");
    expect((await failure("open", { workspace, id: "R404@v1" }, alice)).code).toBe("UNKNOWN_ID");
    expect((await failure("open", { workspace, id: "R001@v0" }, alice)).code).toBe("UNKNOWN_ID");
  });

  it("a record with the longest body fits every budget, down to the smallest", async () => {
    const workspace = "open-records/budget";
    const alice = { ...FULL, ...(await as("alice")) };
    const body = "All reads go through the cache first. ".repeat(800).slice(0, 30_000);
    const metadata = { notes: "m".repeat(10_000) };
    await ok("create_record", { workspace, type: "finding", title: "Cache first", summary: "s".repeat(1_500), body, metadata }, alice);
    const whole = await ok("open", { workspace, id: "R001", max_chars: 100_000 }, alice);
    expect(whole.record.body).toBe(body);
    for (const max_chars of [MIN_BUDGET_CHARS, 1_000, 3_000, 6_000, 20_000]) {
      const opened = await ok("open", { workspace, id: "R001", max_chars }, alice);
      expectShape(opened);
      expect(opened.budget.used_chars).toBeLessThanOrEqual(max_chars);
      expect(opened).toMatchObject({ kind: "record", ref: "R001", truncated: true });
      expect(opened.record).toMatchObject({ id: "R001", type: "finding" });
    }
    // Where the body is cut it says so, and what is kept is its start.
    const cut = await ok("open", { workspace, id: "R001", max_chars: 20_000 }, alice);
    expect(cut.content_truncated).toBe(true);
    expect(body.startsWith(cut.record.body)).toBe(true);
    expect(cut.record.body.length).toBeGreaterThan(0);
  });

  it("through the portal and as a resource", async () => {
    const workspace = "open-records/portal";
    await seeded(workspace);
    const portal = { ...PORTALS, ...(await as("alice")) };
    const opened = await ok("open", { workspace, id: "R001@v1" }, portal);
    expect(opened).toMatchObject({ kind: "record_version", record: { version: 1 } });
    const read = async (ref: string) => {
      const uri = `branchmind://${encodeURIComponent(workspace)}/${encodeURIComponent(ref)}`;
      // Protocol 2026-07-28 names what a request is about in a header too (for resources/read, its URI).
      const response = await rpc("resources/read", { uri }, { ...FULL, ...(await as("alice")), headers: { "mcp-name": uri } });
      return (await response.json()) as { result?: { contents: { text: string }[] } };
    };
    expect(JSON.parse((await read("R001")).result?.contents[0]?.text ?? "{}")).toMatchObject({ kind: "record", ref: "R001" });
    expect(JSON.parse((await read("R001@v1")).result?.contents[0]?.text ?? "{}")).toMatchObject({ kind: "record_version" });
    // The templates, filled as a client fills them.
    const templates = (
      (await (await rpc("resources/templates/list", {}, FULL)).json()) as {
        result: { resourceTemplates: { name: string; uriTemplate: string }[] };
      }
    ).result.resourceTemplates;
    const uri = templates.find((template) => template.name === "record_version")?.uriTemplate ?? "";
    const filled = uri.replace("{workspace}", encodeURIComponent(workspace)).replace("{record}", "001").replace("{version}", "1");
    const response = await rpc("resources/read", { uri: filled }, { ...FULL, ...(await as("alice")), headers: { "mcp-name": filled } });
    const answer = (await response.json()) as { result: { contents: { text: string }[] } };
    expect(JSON.parse(answer.result.contents[0]?.text ?? "{}")).toMatchObject({ kind: "record_version", ref: "R001@v1" });
  });
});
