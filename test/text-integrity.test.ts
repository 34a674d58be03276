import { describe, expect, it } from "vitest";
import { as, callTool, ok } from "./helpers/mcp";

const CTRL = `${Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join("")}\x7f`;
const T = `a${CTRL}z`;

describe("explore", () => {
  it("dumps", async () => {
    const workspace = "explore/ctrl";
    const admin = await as("alice", { role: "admin" });
    const out: Record<string, unknown> = {};
    const c = await ok("notes_commit", { workspace, content: T, title: T }, admin);
    out.commit = c.entry;
    out.show = (await ok("show", { workspace, doc_kind: "notes" }, admin)).entries;
    out.open = (await ok("open", { workspace, id: `notes@${c.entry.seq}` }, admin));
    out.log = (await ok("log", { workspace }, admin)).commits;
    out.export = (await ok("export", { workspace }, admin)).notes;
    out.card = await ok("think_card", { workspace, card: { id: "CARD-1", type: "note", title: T, text: T } }, admin);
    out.openCard = (await ok("open", { workspace, id: "CARD-1" }, admin)).card;
    out.task = await ok("tasks_create", { workspace, title: T, description: T }, admin);
    out.openTask = await ok("open", { workspace, id: out.task.id }, admin);
    out.rec = await ok("create_record", { workspace, type: "note", title: T, summary: T, body: T }, admin);
    out.ref = await ok("get_record_ref", { workspace, id: "R001" }, admin);
    out.list = await ok("list_records", { workspace }, admin);
    out.wx = await ok("workspace_export", { workspace }, admin);
    const lone = await callTool("notes_commit", { workspace, content: "x\ud800y", title: "\udc00" }, admin);
    out.lone = lone;
    out.loneShow = (await ok("show", { workspace, doc_kind: "notes" }, admin)).entries;
    console.log("EXPLORE", JSON.stringify(out, null, 1));
  });
});
