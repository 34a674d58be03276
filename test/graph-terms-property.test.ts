// A property test of the term index (migration 0017, src/capabilities/graph/graph-terms.store.ts) over
// the real MCP endpoint. Each run writes a random history of 3,000+ node versions into one graph doc:
// old bulk nodes of one type, then a small hot pool of ids updated, deleted and re-created in every lane
// by three writers, through workspace_import (one op per insert) and graph_apply (a key written several
// times in one insert). It forks `alt` from main, keeps writing on both, forks `sub` from `alt` partway,
// merges `alt` back into main, and then checks that every read selecting by type, status, tags, open,
// blockers or lane returns exactly the oracle's nodes, newest first, with no duplicates, on each of the
// three branches, in alice's lanes and in every lane. The oracle is the ids path (`graph_query {ids}`:
// the key index, not the term index), itself checked against a model of the writes
// (helpers/graph-oracle.ts). Why: the index keeps rows per branch, per lane and per fork (what a fork
// saw that its base superseded since); a missed case drops or repeats cards silently, at any age.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ALICE_LANES,
  CARD_TYPES,
  type Chunk,
  coldGeneArb,
  difference,
  type Gene,
  geneArb,
  inLanes,
  isBlocker,
  isCard,
  isOpen,
  Model,
  NODE_TYPES,
  type Node,
  newestFirst,
  nodeOf,
  SIDES,
  type Side,
  STATUSES,
  stateOf,
  TAGS,
  type WireOp,
  WRITERS,
  type Writer,
} from "./helpers/graph-oracle";
import { as, ok } from "./helpers/mcp";

/** Every read is given room: an answer cut by its budget would hide the cards under test. */
const MAX_CHARS = 1_000_000;
/** Pages one read may take before the test calls it a loop. */
const MAX_PAGES = 400;
/** Pages cut short by graph_query's examination bound (has_more, fewer than limit nodes), over all runs. */
let cutPages = 0;
const CHUNKS = 8;

const runArb = fc
  .record({
    hot: fc.integer({ min: 40, max: 240 }),
    coldType: fc.nat(NODE_TYPES.length - 1),
    // size "max": lengths spread over the whole range (fast-check keeps arrays short by default).
    colds: fc.array(coldGeneArb, { maxLength: 2_500, size: "max" }),
    before: fc.array(geneArb, { minLength: 1_400, maxLength: 2_200, size: "max" }),
    after: fc.array(geneArb, { minLength: 1_700, maxLength: 2_400, size: "max" }),
    sizes: fc.array(fc.integer({ min: 1, max: 700 }), { minLength: CHUNKS, maxLength: CHUNKS }),
    writers: fc.array(fc.constantFrom(...WRITERS), { minLength: CHUNKS, maxLength: CHUNKS }),
    sides: fc.array(fc.nat(SIDES.length - 1), { minLength: CHUNKS, maxLength: CHUNKS }),
    viaApply: fc.array(fc.boolean(), { minLength: CHUNKS, maxLength: CHUNKS }),
    /** Where in `after` (percent) the branch of the branch is made. */
    subAt: fc.integer({ min: 0, max: 100 }),
    /** Page size of the filtered reads (the unfiltered ones page by 200). */
    limit: fc.constantFrom(57, 200),
    combo: fc.record({ type: fc.nat(NODE_TYPES.length - 1), status: fc.integer({ min: 1, max: STATUSES.length - 1 }) }),
  })
  .map((run) =>
    // The counterexample is summarized (the seed and path replay it whole).
    Object.assign(run, {
      [fc.toStringMethod]: () =>
        `{hot: ${run.hot}, colds: ${run.colds.length} × ${NODE_TYPES[run.coldType]}, before: ${run.before.length}, after: ${run.after.length}, ` +
        `sizes: [${run.sizes}], writers: [${run.writers}], sides: [${run.sides}], viaApply: [${run.viaApply}], subAt: ${run.subAt}%, limit: ${run.limit}, ` +
        `combo: ${NODE_TYPES[run.combo.type]}/${STATUSES[run.combo.status]}}`,
    }),
  );
type Run = typeof runArb extends fc.Arbitrary<infer T> ? T : never;

/** Genes cut into chunks of the run's sizes, each with its writer, path and side (one of `sides`, the branches made so far). */
function chunksOf(run: Run, genes: Gene[], sides: Side[], cold = false): Chunk[] {
  const chunks: Chunk[] = [];
  for (let at = 0, k = 0; at < genes.length; k++) {
    const size = run.sizes[k % CHUNKS] as number;
    const side = sides[Math.min(run.sides[k % CHUNKS] as number, sides.length - 1)] as Side;
    const writer = cold ? "root" : (run.writers[k % CHUNKS] as Writer);
    chunks.push({ side, writer, apply: !cold && (run.viaApply[k % CHUNKS] as boolean), genes: genes.slice(at, at + size) });
    at += size;
  }
  return chunks;
}

/** One chunk's ops as its writer: graph_apply batches, or workspace_import (an admin token of that agent), 500 ops each. */
async function writeOps(workspace: string, chunk: Chunk, ops: WireOp[]): Promise<void> {
  const batches = [];
  for (let at = 0; at < ops.length; at += 500) batches.push(ops.slice(at, at + 500));
  if (chunk.apply)
    for (const batch of batches) await ok("graph_apply", { workspace, branch: chunk.side, ops: batch }, await as(chunk.writer));
  else {
    const items = batches.map((batch) => ({ op: "graph", branch: chunk.side, ops: batch }));
    await ok("workspace_import", { workspace, ops: items }, await as(chunk.writer, { role: "admin" }));
  }
}

/** A side's effective live nodes through the ids path (200 ids a call, every lane): the reference. */
async function viewOf(workspace: string, branch: Side, ids: string[]): Promise<Map<string, Node>> {
  const view = new Map<string, Node>();
  for (let at = 0; at < ids.length; at += 200) {
    const args = {
      workspace,
      branch,
      ids: ids.slice(at, at + 200),
      all_lanes: true,
      limit: 200,
      include_edges: false,
      max_chars: MAX_CHARS,
    };
    const answer = await ok("graph_query", args);
    expect(answer.pagination.has_more).toBe(false);
    expect(answer.truncated).toBe(false);
    for (const node of answer.nodes) view.set(node.id, nodeOf(node));
  }
  return view;
}

/** Every page of a read, followed with cursor = next_cursor while has_more: the ids in the order given. */
async function pages(tool: string, args: Record<string, unknown>, list: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: number | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await ok(tool, { ...args, limit, max_chars: MAX_CHARS, ...(cursor === undefined ? {} : { cursor }) });
    if (answer.truncated) throw new Error(`${tool} ${JSON.stringify(args)}: the answer was cut by its budget`);
    ids.push(...(answer[list] as { id: string }[]).map((node) => node.id));
    const { has_more, next_cursor } = answer.pagination as { has_more: boolean; next_cursor?: number };
    if (!has_more) return ids;
    if (answer[list].length < limit) cutPages++;
    if (next_cursor === undefined || (cursor !== undefined && next_cursor >= cursor))
      throw new Error(`${tool} ${JSON.stringify(args)}: has_more with next_cursor ${next_cursor} after cursor ${cursor}`);
    cursor = next_cursor;
  }
  throw new Error(`${tool} ${JSON.stringify(args)}: more than ${MAX_PAGES} pages`);
}

/** Each read of one side against the reference view, in alice's lanes and in every lane; returns what differs. */
async function checkReads(workspace: string, branch: Side, view: Map<string, Node>, run: Run, model: Model): Promise<string[]> {
  const failures: string[] = [];
  const explain = (id: string) => {
    const node = view.get(id);
    const writes = model.history.get(id) ?? [];
    return `${id} is ${stateOf(node)}${node ? ` at seq ${node.last_seq}` : ""} after ${writes.length} writes (last: ${writes.slice(-3).join(" | ")})`;
  };
  for (const lanes of [ALICE_LANES, null]) {
    const all = lanes === null;
    const shown = [...view.values()].filter(inLanes(lanes));
    const cards = shown.filter(isCard);
    const where = `${branch}${all ? " all_lanes" : ""}`;
    const check = (label: string, actual: string[], expected: string[]) => {
      const found = difference(actual, expected, explain);
      if (found !== undefined) failures.push(`${where} ${label}: ${found}`);
    };
    const graphQuery = (args: Record<string, unknown>, limit = run.limit) =>
      pages("graph_query", { workspace, branch, all_lanes: all, include_edges: false, ...args }, "nodes", limit);
    const thinkQuery = (args: Record<string, unknown>, limit = run.limit) =>
      pages("think_query", { workspace, branch, all_lanes: all, ...args }, "cards", limit);
    /** graph_query (every node type) and think_query (cards only) with one filter; `cardNodes` when think_query reads it otherwise. */
    const both = async (args: Record<string, unknown>, nodes: (node: Node) => boolean, cardNodes = nodes) => {
      check(`graph_query ${JSON.stringify(args)}`, await graphQuery(args), newestFirst(shown.filter(nodes)));
      check(`think_query ${JSON.stringify(args)}`, await thinkQuery(args), newestFirst(cards.filter(cardNodes)));
    };

    check("graph_query {}", await graphQuery({}, 200), newestFirst(shown));
    check("think_query {}", await thinkQuery({}, 200), newestFirst(cards));
    for (const type of NODE_TYPES) {
      const args = { types: [type] };
      if (CARD_TYPES.includes(type)) await both(args, (node) => node.type === type);
      else check(`graph_query ${JSON.stringify(args)}`, await graphQuery(args), newestFirst(shown.filter((node) => node.type === type)));
    }
    // think_query lowercases the statuses it is given; graph_query does not.
    for (const status of STATUSES.filter((value) => value !== undefined))
      await both(
        { status: [status] },
        (node) => node.status === status,
        (node) => node.status === status.toLowerCase(),
      );
    for (const tag of TAGS) await both({ tags_any: [tag] }, (node) => node.tags.includes(tag));
    // Combined filters: a type drives, the status is checked on each entry, at most 1,000 entries a range per page.
    const combos: [string, string][] = [
      [NODE_TYPES[run.coldType] as string, "open"],
      [NODE_TYPES[run.coldType] as string, "done"],
      [NODE_TYPES[run.combo.type] as string, STATUSES[run.combo.status] as string],
    ];
    for (const [type, status] of combos) {
      const args = { types: [type], status: [status] };
      const expected = newestFirst(shown.filter((node) => node.type === type && node.status === status));
      check(`graph_query ${JSON.stringify(args)}`, await graphQuery(args), expected);
    }

    const frontier = await ok("think_frontier", { workspace, branch, all_lanes: all, limit_per_type: 50, max_chars: MAX_CHARS });
    expect(frontier.truncated).toBe(false);
    for (const [list, type] of [
      ["questions", "question"],
      ["hypotheses", "hypothesis"],
      ["tests", "test"],
      ["decisions", "decision"],
    ] as const) {
      const open = newestFirst(cards.filter((node) => node.type === type && isOpen(node))).slice(0, 50);
      check(
        `think_frontier ${list}`,
        (frontier.frontier[list] as { id: string }[]).map((card) => card.id),
        open,
      );
    }
    const pack = await ok("context_pack", {
      workspace,
      ref: branch,
      all_lanes: all,
      notes_limit: 0,
      trace_limit: 0,
      limit_cards: 200,
      decisions_limit: 200,
      evidence_limit: 200,
      blockers_limit: 200,
      max_chars: MAX_CHARS,
    });
    expect(pack.truncated).toBe(false);
    const ids = (list: { id: string }[]) => list.map((card) => card.id);
    check("context_pack cards", ids(pack.cards), newestFirst(cards).slice(0, 200));
    check(
      "context_pack decisions",
      ids(pack.signals.decisions),
      newestFirst(cards.filter((node) => node.type === "decision")).slice(0, 200),
    );
    check("context_pack evidence", ids(pack.signals.evidence), newestFirst(cards.filter((node) => node.type === "evidence")).slice(0, 200));
    check("context_pack blockers", ids(pack.signals.blockers), newestFirst(cards.filter(isBlocker)).slice(0, 200));
  }
  return failures;
}

/** The ids path's view against the model's (type, status, tags, lane of each live id). */
function sameState(label: string, view: Map<string, Node>, expected: Node[]): string[] {
  const want = new Map(expected.map((node) => [node.id, node]));
  const ids = [...new Set([...view.keys(), ...want.keys()])];
  const wrong = ids.filter((id) => stateOf(view.get(id)) !== stateOf(want.get(id)));
  return wrong
    .slice(0, 5)
    .map((id) => `${label}: ${id} is ${stateOf(view.get(id))}, expected ${stateOf(want.get(id))}`)
    .concat(wrong.length > 5 ? [`${label}: and ${wrong.length - 5} more`] : []);
}

let runs = 0;

describe("the term index, property", () => {
  it("every filtered read returns exactly the effective view's matches, on main and on two branches, after a merge", async () => {
    const property = fc.asyncProperty(runArb, async (run) => {
      const workspace = `terms-prop/run-${++runs}`;
      const model = new Model(run.hot);
      const colds = run.colds.map((gene) => ({ ...gene, type: run.coldType }));
      const cut = Math.floor((run.after.length * run.subAt) / 100);
      const phases: [Gene[], Side[], boolean][] = [
        [colds, ["main"], true],
        [run.before, ["main"], false],
        [run.after.slice(0, cut), ["main", "alt"], false],
        [run.after.slice(cut), ["main", "alt", "sub"], false],
      ];
      for (const [index, [genes, sides, cold]] of phases.entries()) {
        // alt is made from main after the old writes, sub from alt partway through the later ones.
        if (index === 2) await ok("branch_create", { workspace, name: "alt", from: "main" });
        if (index === 3) await ok("branch_create", { workspace, name: "sub", from: "alt" });
        if (index >= 2) model.fork(sides[index - 1] as Side, sides[index - 2] as Side);
        for (const chunk of chunksOf(run, genes, sides, cold)) await writeOps(workspace, chunk, model.write(chunk));
      }
      expect(model.written).toBeGreaterThan(3_000);

      const ids = [...model.ids];
      const before = new Map<Side, Map<string, Node>>();
      const failures: string[] = [];
      for (const side of SIDES) {
        before.set(side, await viewOf(workspace, side, ids));
        failures.push(...sameState(`${side} before the merge`, before.get(side) as Map<string, Node>, model.view(side)));
      }

      let cursor: number | undefined;
      for (let call = 0; ; call++) {
        expect(call).toBeLessThan(50);
        const page = await ok("graph_merge", {
          workspace,
          from: "alt",
          into: "main",
          limit: 200,
          ...(cursor === undefined ? {} : { cursor }),
        });
        if (!page.pagination.has_more) break;
        cursor = page.pagination.next_cursor;
      }

      const after = new Map<Side, Map<string, Node>>();
      for (const side of SIDES) after.set(side, await viewOf(workspace, side, ids));
      // The merge writes main only: the branches are as they were, and each id of main is as before or as alt has it.
      for (const side of ["alt", "sub"] as const)
        failures.push(...sameState(`${side} after the merge`, after.get(side) as Map<string, Node>, model.view(side)));
      for (const id of ids) {
        const now = stateOf(after.get("main")?.get(id));
        if (now !== stateOf(before.get("main")?.get(id)) && now !== stateOf(after.get("alt")?.get(id)))
          failures.push(`main after the merge: ${id} is ${now}`);
      }
      for (const side of SIDES) failures.push(...(await checkReads(workspace, side, after.get(side) as Map<string, Node>, run, model)));
      if (failures.length > 0) throw new Error(`${workspace}, ${failures.length} differences:\n  ${failures.slice(0, 12).join("\n  ")}`);
    });
    // numRuns 10: each run writes 3,100 to 7,100 versions and makes 350 to 900 calls (5 to 15 s each).
    // endOnFailure: shrinking would replay whole runs for many minutes; the seed and path replay the
    // failing run, and the message names the read, the ids, their state and their last writes.
    await fc.assert(property, { seed: 20261128, numRuns: 10, endOnFailure: true });
    // The seed makes some runs large enough that a combined filter's pages are cut by the bound.
    expect(cutPages).toBeGreaterThan(0);
  }, 600_000);
});
