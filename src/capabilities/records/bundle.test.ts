// The context bundle's budget: OPEN children degrade to refs oldest first, then refs are dropped; the
// target and parent stay whole; counts and the budget warning say what was left out.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type BundleInput, buildBundle, bundleOfOverflowingRefs, refOfRecord } from "./bundle";
import type { RecordRef, RecordView } from "./records.schema";

function record(id: string, body: string, parent: string | null = null): RecordView {
  return {
    id,
    type: "note",
    title: `Title ${id}`,
    summary: `Summary ${id}`,
    body,
    state: "OPEN",
    parent_id: parent,
    depth: parent === null ? 1 : 2,
    related: [],
    version: 1,
    children_count: 0,
    open_children_count: 0,
    created: "2025-01-01T00:00:00.000Z",
    modified: "2025-01-01T00:00:00.000Z",
    created_tick: 1,
    modified_tick: 1,
    modified_by_session: "S001",
  };
}

function ref(id: string): RecordRef {
  return {
    id,
    type: "note",
    title: `Title ${id}`,
    summary: "",
    state: "RESOLVED",
    parent_id: "R001",
    children_count: 0,
    open_children_count: 0,
  };
}

function input(maxChars: number): BundleInput {
  const children = ["R003", "R004", "R005"].map((id) => record(id, "x".repeat(2_000), "R001"));
  return {
    target: record("R001", "target body"),
    parent: null,
    openChildren: children,
    openChildrenTotal: 3,
    otherChildren: [ref("R006")],
    otherChildrenTotal: 1,
    grandchildren: [ref("R007"), ref("R008")],
    grandchildrenTotal: 2,
    warnings: [],
    maxChars,
  };
}

describe("context bundle", () => {
  it("holds everything in full when it fits", () => {
    const bundle = buildBundle(input(20_000));
    expect(bundle.children.open.map((child) => child.id)).toEqual(["R003", "R004", "R005"]);
    expect(bundle.children.open_refs).toEqual([]);
    expect(bundle.children.other.map((child) => child.id)).toEqual(["R006"]);
    expect(bundle.grandchildren.map((child) => child.id)).toEqual(["R007", "R008"]);
    expect(bundle.counts).toEqual({ open_children: 3, other_children: 1, grandchildren: 2, omitted: 0 });
    expect(bundle.warnings).toBeUndefined();
  });

  it("degrades OPEN children to refs oldest first past the budget, with a warning and counts", () => {
    const bundle = buildBundle(input(4_000));
    expect(JSON.stringify(bundle).length).toBeLessThanOrEqual(4_000);
    expect(bundle.children.open.map((child) => child.id)).toEqual(["R005"]);
    expect(bundle.children.open_refs.map((child) => child.id)).toEqual(["R003", "R004"]);
    expect(bundle.counts.omitted).toBe(0);
    expect(bundle.warnings?.[0]).toMatchObject({
      type: "budget",
      details: { open_children_full: 1, open_children_as_refs: 2, omitted: 0 },
    });
  });

  it("drops refs (grandchildren first) when even refs do not fit; the target stays whole", () => {
    const big = input(1_000);
    big.target = record("R001", "t".repeat(300));
    const bundle = buildBundle(big);
    expect(bundle.target.body).toHaveLength(300);
    expect(bundle.children.open).toEqual([]);
    expect(bundle.grandchildren).toEqual([]);
    expect(bundle.counts.omitted).toBeGreaterThan(0);
    expect(bundle.warnings?.[0]?.type).toBe("budget");
  });

  it("counts children past the loading bounds as omitted even when everything loaded fits", () => {
    const bounded = { ...input(20_000), grandchildrenTotal: 250 };
    const bundle = buildBundle(bounded);
    expect(bundle.counts.omitted).toBe(248);
    expect(bundle.warnings?.[0]).toMatchObject({ type: "budget", details: { omitted: 248 } });
  });

  it("from the OPEN children's refs alone, answers exactly as from the full lists whenever those refs overflow", () => {
    const child = (n: number, body: number, state: "OPEN" | "LATER") => ({
      ...record(`R${100 + n}`, "b".repeat(body), "R001"),
      state,
      children_count: n % 3,
    });
    const inputs = fc.record({
      bodies: fc.array(fc.integer({ min: 0, max: 600 }), { maxLength: 60 }),
      others: fc.integer({ min: 0, max: 40 }),
      grand: fc.integer({ min: 0, max: 60 }),
      extraOpen: fc.integer({ min: 0, max: 500 }),
      parent: fc.boolean(),
      maxChars: fc.integer({ min: 1_000, max: 20_000 }),
    });
    let decided = 0;
    fc.assert(
      fc.property(inputs, ({ bodies, others, grand, extraOpen, parent, maxChars }) => {
        const open = bodies.map((body, n) => child(n, body, "OPEN"));
        const full: BundleInput = {
          target: record("R001", "target"),
          parent: parent ? record("R000", "parent") : null,
          openChildren: open,
          openChildrenTotal: open.length + extraOpen,
          otherChildren: Array.from({ length: others }, (_, n) => refOfRecord(child(200 + n, 0, "LATER"))),
          otherChildrenTotal: others,
          grandchildren: Array.from({ length: grand }, (_, n) => ref(`R${400 + n}`)),
          grandchildrenTotal: grand + extraOpen,
          warnings: [],
          maxChars,
        };
        const fromRefs = bundleOfOverflowingRefs({ ...full, openChildRefs: open.map(refOfRecord) });
        if (fromRefs === undefined) return;
        decided++;
        expect(JSON.stringify(fromRefs)).toBe(JSON.stringify(buildBundle(full)));
      }),
      { numRuns: 400, seed: 4 },
    );
    // The refs decide a good share of these inputs (the rest fall back to the full lists).
    expect(decided).toBeGreaterThan(50);
  });
});
