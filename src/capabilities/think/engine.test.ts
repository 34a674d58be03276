// Unit: each analyzer of the signal engine on a crafted slice (code, severity, proposed action), the
// ranking and the 1 + 1 policy, step-aware mode, and determinism.
import { describe, expect, it } from "vitest";
import { runEngine } from "./engine";
import { type EngineCard, type EngineEdge, type EngineTraceEntry, evidenceScore } from "./engine.model";

const DAY = 24 * 60 * 60 * 1000;
let seq = 0;
function card(id: string, type: string, extra: Partial<EngineCard> = {}): EngineCard {
  seq++;
  return { id, type, status: "open", tags: [], lane: "shared", last_seq: seq, last_ts_ms: 100 * DAY + seq, ...extra };
}
const supports = (from: string, to: string): EngineEdge => ({ from, rel: "supports", to });
const blocks = (from: string, to: string): EngineEdge => ({ from, rel: "blocks", to });
const codes = (cards: EngineCard[], edges: EngineEdge[] = [], trace: EngineTraceEntry[] = []) =>
  runEngine({ cards, edges, trace, limits: { signals: 50, actions: 50 } });

describe("signal engine analyzers", () => {
  it("BM4: a hypothesis without a test, then with a test but no evidence", () => {
    const bare = codes([card("H", "hypothesis")]);
    expect(bare.signals).toEqual([
      expect.objectContaining({ code: "BM4_HYPOTHESIS_NO_TEST", severity: "high", refs: [{ kind: "card", id: "H" }] }),
    ]);
    expect(bare.actions[0]).toMatchObject({
      kind: "add_test_stub",
      priority: "high",
      calls: [{ tool: "think_add_test", args: { supports: ["H"], tags: ["bm4"] } }],
    });
    const tested = codes([card("H", "hypothesis"), card("T", "test")], [supports("T", "H")]);
    expect(tested.signals.map((s) => s.code)).toContain("BM4_HYPOTHESIS_NO_EVIDENCE");
    const proven = codes([card("H", "hypothesis"), card("T", "test"), card("E", "evidence")], [supports("T", "H"), supports("E", "T")]);
    expect(proven.signals.map((s) => s.code)).not.toContain("BM4_HYPOTHESIS_NO_EVIDENCE");
  });

  it("BM1: supported and blocked at once", () => {
    const result = codes(
      [card("H", "hypothesis"), card("T", "test"), card("E1", "evidence"), card("E2", "evidence")],
      [supports("T", "H"), supports("E1", "H"), blocks("E2", "H")],
    );
    const signal = result.signals.find((s) => s.code === "BM1_CONTRADICTION_SUPPORTS_BLOCKS");
    expect(signal).toMatchObject({ severity: "high", refs: [{ id: "H" }, { id: "E2" }] });
    expect(result.actions.map((a) => a.kind)).toContain("resolve_contradiction");
  });

  it("lane hygiene: a recent draft decision without a published copy", () => {
    const draft = card("D", "decision", { lane: "agent/alice" });
    expect(codes([draft]).signals[0]).toMatchObject({ code: "BM_LANE_DECISION_NOT_PUBLISHED", severity: "warning" });
    expect(codes([draft]).actions[0]).toMatchObject({
      kind: "publish_decision",
      calls: [{ tool: "think_publish", args: { card_id: "D" } }],
    });
    expect(codes([draft, card("CARD-PUB-D", "decision")]).signals.map((s) => s.code)).not.toContain("BM_LANE_DECISION_NOT_PUBLISHED");
  });

  it("BM2: evidence scores, and weak evidence under a pinned decision", () => {
    const strong = card("E", "evidence", { text: "CMD: npm test\nLINK: https://ci/run/1", tags: ["ci"] });
    const graph = { edges: [supports("E", "T")], cards: [strong, card("T", "test")] };
    expect(
      evidenceScore(strong, {
        byId: new Map(),
        supportersOf: new Map(),
        blockersOf: new Map(),
        supportedBy: new Map([["E", [graph.cards[1] as EngineCard]]]),
      }),
    ).toBe(90);
    const weak = codes([card("D", "decision", { tags: ["pinned"] }), card("E", "evidence", { text: "looked fine" })], [supports("E", "D")]);
    expect(weak.signals.find((s) => s.code === "BM2_EVIDENCE_WEAK")).toMatchObject({ severity: "warning", refs: [{ id: "E" }] });
  });

  it("BM5/BM8: runnable tests never run, stale, or fresh", () => {
    const test = card("T", "test", { meta: { cmd: "npm test" }, last_ts_ms: 100 * DAY });
    expect(codes([test]).actions[0]).toMatchObject({ kind: "run_test", priority: "high" });
    const old = card("E", "evidence", { last_ts_ms: 10 * DAY });
    const stale = codes([test, old, card("X", "note", { last_ts_ms: 100 * DAY })], [supports("E", "T")]);
    expect(stale.signals.map((s) => s.code)).toContain("BM8_EVIDENCE_STALE");
    const recent = card("E", "evidence", { last_ts_ms: 99 * DAY });
    expect(codes([test, recent], [supports("E", "T")]).signals.map((s) => s.code)).toContain("BM5_RUNNABLE_TESTS_FRESH");
  });

  it("BM3: confidence propagation flags a pinned decision resting on blockers", () => {
    const result = codes(
      [card("D", "decision", { tags: ["pinned"] }), card("E", "evidence", { text: "CMD: x\nLINK: https://y" })],
      [blocks("E", "D")],
    );
    expect(result.signals.find((s) => s.code === "BM3_DECISION_LOW_CONFIDENCE")).toMatchObject({ severity: "warning" });
    const hypothesis = codes([card("H", "hypothesis"), card("E", "evidence", { text: "CMD: x" })], [blocks("E", "H")]);
    expect(hypothesis.signals.find((s) => s.code === "BM3_HYPOTHESIS_LOW_CONFIDENCE")).toMatchObject({ severity: "info" });
  });

  it("BM6: a closed assumption still supporting an active decision", () => {
    const result = codes([card("A", "note", { tags: ["assumption"], status: "rejected" }), card("D", "decision")], [supports("A", "D")]);
    expect(result.signals.find((s) => s.code === "BM6_ASSUMPTION_NOT_OPEN_BUT_USED")).toMatchObject({ refs: [{ id: "A" }, { id: "D" }] });
    expect(result.actions.map((a) => a.kind)).toContain("recheck_assumption");
  });

  it("BM9: a trade-off question proposes a criteria matrix; BM7/BM10: support with no counter-argument", () => {
    expect(codes([card("Q", "question", { title: "Redis vs Memcached?" })]).actions.map((a) => a.kind)).toContain("criteria_matrix");
    const unchallenged = codes([card("D", "decision"), card("E", "evidence")], [supports("E", "D")]);
    expect(unchallenged.signals.find((s) => s.code === "BM10_NO_COUNTER_EDGES")).toMatchObject({ severity: "info" });
    expect(unchallenged.actions.find((a) => a.kind === "add_counter_hypothesis")?.calls[0]).toMatchObject({
      args: { blocks: ["D"], tags: ["bm7", "counter"] },
    });
  });

  it("BM10: stuck when the latest trace is cards without evidence or decisions", () => {
    const trace: EngineTraceEntry[] = Array.from({ length: 8 }, (_, i) => ({
      seq: i + 1,
      ts_ms: i,
      kind: "note",
      content: "c",
      meta: { card_id: `C${i}`, card_type: "note" },
    }));
    expect(codes([], [], trace).signals).toEqual([expect.objectContaining({ code: "BM10_STUCK_NO_EVIDENCE" })]);
    trace.push({ seq: 9, ts_ms: 9, kind: "note", content: "e", meta: { card_id: "E", card_type: "evidence" } });
    expect(codes([], [], trace).signals).toEqual([]);
  });
});

describe("signal engine policy", () => {
  it("ranks by severity, keeps 1 best + 1 backup action by default, and is deterministic", () => {
    const cards = [card("H1", "hypothesis"), card("D", "decision", { lane: "agent/bob" }), card("Q", "question", { title: "A vs B" })];
    const result = runEngine({ cards, edges: [], trace: [] });
    expect(result.actions).toHaveLength(2);
    expect(result.actions.map((a) => a.priority)).toEqual(["high", "medium"]);
    expect(result.signals[0]?.severity).toBe("high");
    const shuffled = runEngine({ cards: [...cards].reverse(), edges: [], trace: [] });
    expect(JSON.stringify(shuffled)).toBe(JSON.stringify(result));
    expect(runEngine({ cards, edges: [], trace: [], limits: { actions: 0 } }).actions).toEqual([]);
  });

  it("analyses the step slice first in step-aware mode", () => {
    const onStep = card("HS", "hypothesis", { tags: ["step:s1"] });
    const elsewhere = card("HG", "hypothesis", { last_seq: 1000, last_ts_ms: 200 * DAY });
    const result = runEngine({ cards: [elsewhere, onStep], edges: [], trace: [], stepTag: "step:s1" });
    expect(result).toMatchObject({ mode: "step_aware", step_tag: "step:s1" });
    expect(result.signals[0]?.refs[0]?.id).toBe("HS");
    expect(result.actions[0]?.refs[0]?.id).toBe("HS");
  });
});
