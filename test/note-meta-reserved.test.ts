// A note's meta cannot make it private or forge what the server records (docs/think.md "Lanes"): the
// meta fields the server reads from entries (lane, event_id, card_id, card_type) are refused on every
// write that takes a caller's meta for an entry, and `meta.type` counts as a task event only on an
// event entry. Notes stored with such meta before keep the reading rules they had.

import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { as, failure, ok } from "./helpers/mcp";

const RESERVED = ["lane", "event_id", "card_id", "card_type"];

describe("reserved fields of a note's meta", () => {
  it("notes_commit, macro_branch_note and trace_step refuse them, naming the field, and write nothing", async () => {
    const workspace = "note-meta/refused";
    const alice = await as("alice");
    const writes: [string, Record<string, unknown>][] = [
      ["notes_commit", { content: "private?" }],
      ["macro_branch_note", { content: "private?" }],
      ["trace_step", { step: "private?" }],
      ["trace_sequential_step", { step: "private?" }],
    ];
    for (const [tool, args] of writes) {
      for (const field of RESERVED) {
        const error = await failure(tool, { workspace, ...args, meta: { topic: "x", [field]: "agent/alice" } }, alice);
        expect(error.code, `${tool} meta.${field}`).toBe("INVALID_INPUT");
        expect(error.details?.field, `${tool} meta.${field}`).toBe(`meta.${field}`);
        expect(error.recovery_hint).toContain("meta");
      }
    }
    for (const doc of ["notes", "trace"]) {
      expect((await ok("show", { workspace, doc, all_lanes: true }, alice)).entries).toEqual([]);
    }
  });

  it("a note with other meta is written and every agent reads it", async () => {
    const workspace = "note-meta/plain";
    const alice = await as("alice");
    const bob = await as("bob");
    await ok("notes_commit", { workspace, content: "for bob", meta: { handoff_to: "bob", type: "handoff" } }, alice);
    const shown = await ok("show", { workspace, doc: "notes" }, bob);
    expect(shown.entries.map((entry: { content: string }) => entry.content)).toEqual(["for bob"]);
  });

  it("a note's meta.type does not pass for a task event in the engine's stuck check", async () => {
    const workspace = "note-meta/stuck";
    for (let i = 1; i <= 6; i++) await ok("think_card", { workspace, card: { id: `N${i}`, type: "note", title: `Idea ${i}` } });
    const stuck = (await ok("status", { workspace })).engine.signals.map((signal: { code: string }) => signal.code);
    expect(stuck).toContain("BM10_STUCK_NO_EVIDENCE");
    await ok("notes_commit", { workspace, doc: "trace", content: "progress?", meta: { type: "evidence_captured" } });
    const after = (await ok("status", { workspace })).engine.signals.map((signal: { code: string }) => signal.code);
    expect(after).toContain("BM10_STUCK_NO_EVIDENCE");
  });

  it("a note stored with meta.lane before keeps its readers: its lane's agent, and every agent with all_lanes", async () => {
    const workspace = "note-meta/stored";
    const alice = await as("alice");
    const bob = await as("bob");
    const { entry } = await ok("notes_commit", { workspace, content: "stored before the rule" }, alice);
    await runInDurableObject(env.WORKSPACES.getByName(workspace), (_instance, state) => {
      state.storage.sql.exec("UPDATE doc_entries SET meta_json = ? WHERE seq = ?", JSON.stringify({ lane: "agent/alice" }), entry.seq);
    });
    const contents = (answer: { entries: { content: string }[] }) => answer.entries.map((row) => row.content);
    expect(contents(await ok("show", { workspace, doc: "notes" }, alice))).toEqual(["stored before the rule"]);
    expect(contents(await ok("show", { workspace, doc: "notes", all_lanes: true }, bob))).toEqual(["stored before the rule"]);
    expect(contents(await ok("show", { workspace, doc: "notes" }, bob))).toEqual([]);
    expect((await ok("open", { workspace, id: `notes@${entry.seq}`, include_drafts: true }, bob)).entry.content).toBe(
      "stored before the rule",
    );
  });
});
