// End-to-end: an upgrade keeps everything. A workspace is written through MCP by the previous schema's
// code (commit PREVIOUS, schema version 16: no term index) under `wrangler dev`, exported, and read;
// then this tree's `wrangler dev` starts on the same persisted state, migrates it to 18 (migration 17,
// the term index `graph_terms`, and 18, leases by holder) and must answer the same: the same export
// lines, the same notes, task, lease and records, and now the cards the old bounded scans could not see
// (an open hypothesis and question behind 1,200 newer closed notes), on main and, as of the fork, on a
// branch forked before main rewrote some cards. The new code may index the old versions in batches after
// the start (docs/storage.md, Migrations); the reads must be exact either way, so they are made right
// after the start and again after more calls, without waiting for it. The workspace's summary push to
// the Directory, still due when the previous server stopped, arrives without a new write. Then a write
// lands and shows.
//
// The previous code comes from this repository's history (`git archive`, no network) into a temp dir
// that borrows this checkout's node_modules; both servers run in token mode as the other e2e files do,
// with admin tokens where export and import need them.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../../scripts/lib/mcp-http";
import { type E2eServer, startServer } from "./helpers/server";
import {
  type Agents,
  agentsOn,
  type Card,
  checkOutPrevious,
  comparable,
  exportLines,
  FORK,
  type FrontierAnswer,
  frontier,
  ids,
  PREVIOUS,
  reads,
  type Seeded,
  seed,
  type Tool,
  WORKSPACE,
} from "./helpers/upgrade-fixtures";

const ROOT = join(import.meta.dirname, "..", "..");
const PREVIOUS_SCHEMA = 16;
const CURRENT_SCHEMA = 22;
/** Exported tables the migrations since the previous code's schema created (0021), empty after the upgrade. */
const TABLES_SINCE_PREVIOUS = ["task_dependencies", "task_claims"];
/** A server start (with the viewer's build) plus the seed or the checks, on a busy 2-CPU machine. */
const PHASE_TIMEOUT_MS = 150_000;
/** A workspace pushes its summary to the Directory 2 s after a write (its alarm); this bounds the wait for it. */
const DIRECTORY_TIMEOUT_MS = 15_000;
const DIRECTORY_POLL_MS = 250;

const work = mkdtempSync(join(tmpdir(), "branchmind-upgrade-"));
const previousTree = join(work, "previous");
const state = join(work, "state");
mkdirSync(state);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** What wrangler printed (level `warn`), per server, for the report when something fails. */
const printed: Record<"previous" | "current", string[]> = { previous: [], current: [] };

/** State handed from the previous server's phase to the current one's. */
let seeded: Seeded | undefined;
let previousReads: Record<string, Json> = {};
let previousExport: string[] = [];
let previousFrontier: FrontierAnswer["frontier"] | undefined;
/** The Directory's entry for the workspace when the previous server stopped (none: its first summary push was still due). */
let listedBeforeStop: Json | undefined;

async function directoryEntry(tool: Tool): Promise<Json | undefined> {
  return ((await tool("workspace_list")).workspaces as Json[]).find((entry) => entry.name === WORKSPACE);
}

describe(`the previous code (${PREVIOUS}, schema ${PREVIOUS_SCHEMA}) writes the workspace`, () => {
  let server: E2eServer | undefined;

  beforeAll(async () => {
    checkOutPrevious(previousTree, work);
    server = await startServer(previousTree, { state, onLine: (line) => printed.previous.push(line) });
    const agents = await agentsOn(server);
    seeded = await seed(agents);
    previousReads = await reads(agents, seeded);
    previousFrontier = await frontier(agents.alice, "main");
    previousExport = await exportLines(agents.admin);
    listedBeforeStop = await directoryEntry(agents.alice);
  }, PHASE_TIMEOUT_MS);

  afterAll(async () => {
    await server?.stop();
  });

  it("exports at schema version 16", () => {
    const header = JSON.parse(previousExport[0] ?? "{}") as Json;
    expect(header.schema_version).toBe(PREVIOUS_SCHEMA);
    expect(JSON.parse(previousExport.at(-1) ?? "{}")).toMatchObject({ end: true, lines: previousExport.length });
  });

  it("cannot see the open hypothesis behind 1,200 newer closed notes (the bug the term index fixes)", () => {
    expect(previousFrontier?.hypotheses).toEqual([]);
    expect(ids(previousFrontier?.decisions ?? [])).toEqual(["D-FORK"]);
  });
});

describe(`this tree (schema ${CURRENT_SCHEMA}) on the same state`, () => {
  let server: E2eServer | undefined;
  let agents: Agents;

  beforeAll(async () => {
    if (seeded === undefined || previousExport.length === 0)
      throw new Error("the previous code's phase did not finish: nothing to upgrade");
    server = await startServer(ROOT, { state, onLine: (line) => printed.current.push(line) });
    agents = await agentsOn(server);
  }, PHASE_TIMEOUT_MS);

  afterAll(async () => {
    await server?.stop();
  });

  /** Everything the upgrade must keep, read as one pass. */
  async function checkEverything(): Promise<void> {
    const { alice, admin } = agents;
    // The graph reads go first and together: the first wakes the object, which migrates, and the
    // backfill's first batch waits for its alarm, so these are the reads most likely to find it pending.
    const [onMain, hypotheses, onFork, forkHypotheses, forkCards, mainCards] = await Promise.all([
      frontier(alice, "main"),
      alice("graph_query", { branch: "main", types: ["hypothesis"] }),
      frontier(alice, FORK),
      alice("graph_query", { branch: FORK, types: ["hypothesis"] }),
      alice("graph_query", { branch: FORK, types: ["test", "decision"], include_edges: false }),
      alice("graph_query", { branch: "main", types: ["test", "decision"], include_edges: false }),
    ]);
    expect(ids(onMain.hypotheses)).toEqual(["H-OPEN"]);
    expect(ids(onMain.questions)).toEqual(["Q-OPEN"]);
    expect(onMain.tests).toEqual([]);
    expect(onMain.decisions.map(({ id, title }) => ({ id, title }))).toEqual([
      { id: "D-FORK", title: "Index the old rows after the start" },
    ]);

    expect(ids(hypotheses.nodes as Card[])).toEqual(["H-OPEN"]);
    expect(hypotheses.pagination).toMatchObject({ has_more: false });

    // The fork sees main as it was at the fork: the test open, the decision before its rewrite.
    expect(ids(onFork.hypotheses)).toEqual(["H-OPEN"]);
    expect(ids(onFork.questions)).toEqual(["Q-FORK", "Q-OPEN"]);
    expect(ids(onFork.tests)).toEqual(["T-FORK"]);
    expect(onFork.decisions.map(({ id, title }) => ({ id, title }))).toEqual([{ id: "D-FORK", title: "Keep the old rows as they are" }]);
    expect(ids(forkHypotheses.nodes as Card[])).toEqual(["H-OPEN"]);
    expect((forkCards.nodes as Card[]).map(({ id, title, status }) => ({ id, title, status: status ?? null }))).toEqual([
      { id: "D-FORK", title: "Keep the old rows as they are", status: "open" },
      { id: "T-FORK", title: "Restart on the same state", status: null },
    ]);
    expect((mainCards.nodes as Card[]).map(({ id, title, status }) => ({ id, title, status: status ?? null }))).toEqual([
      { id: "D-FORK", title: "Index the old rows after the start", status: "open" },
      { id: "T-FORK", title: "Restart on the same state", status: "done" },
    ]);

    // Notes, checkouts, the task and its lease, the records: as the previous code answered.
    const now = await reads(agents, seeded as Seeded);
    expect(Object.keys(now)).toEqual(Object.keys(previousReads));
    for (const [name, answer] of Object.entries(now)) {
      expect(comparable(answer), name).toEqual(comparable(previousReads[name] as Json));
    }
    const status = now["status (alice, on main)"] as Json;
    const previousStatus = previousReads["status (alice, on main)"] as Json;
    expect(status.schema_version).toBe(CURRENT_SCHEMA);
    expect(previousStatus.schema_version).toBe(PREVIOUS_SCHEMA);
    // The engine's slice had no card to judge before; now it finds the old hypothesis.
    expect(previousStatus.engine).toBeUndefined();
    expect(JSON.stringify(status.engine)).toContain('"H-OPEN"');

    // The same rows: every line but the header's schema version and the tables the newer schema added
    // (empty after the upgrade: their table lines only), numbered apart from those (`n`, and so the
    // trailer's line count and digest, move by their lines).
    const lines = await exportLines(admin);
    const header = JSON.parse(lines[0] ?? "{}") as Json;
    const previousHeader = JSON.parse(previousExport[0] ?? "{}") as Json;
    expect(header.schema_version).toBe(CURRENT_SCHEMA);
    expect({ ...header, schema_version: PREVIOUS_SCHEMA }).toEqual(previousHeader);
    const rowsOf = (all: string[]) =>
      all.slice(1, -1).flatMap((line) => {
        const { n: _n, ...rest } = JSON.parse(line) as Json;
        return TABLES_SINCE_PREVIOUS.includes(String(rest.table ?? rest.t)) ? [] : [JSON.stringify(rest)];
      });
    const added = lines.filter((line) => TABLES_SINCE_PREVIOUS.some((table) => line.includes(`"table":"${table}"`)));
    expect(added).toHaveLength(TABLES_SINCE_PREVIOUS.length);
    expect(lines.length).toBe(previousExport.length + added.length);
    expect(rowsOf(lines)).toEqual(rowsOf(previousExport));
  }

  it(
    "answers exactly right after the start",
    async () => {
      await checkEverything();
    },
    PHASE_TIMEOUT_MS,
  );

  it(
    "answers the same after more calls",
    async () => {
      await checkEverything();
    },
    PHASE_TIMEOUT_MS,
  );

  // The workspace's summary push is its alarm's, 2 s after a write: a server stopped sooner leaves the
  // push due in the object's storage, and the next start must still deliver it (with no new write).
  it(
    "lists the workspace in the Directory as of its last write, without a new write",
    async () => {
      const status = previousReads["status (alice, on main)"] as Json;
      const caughtUp = (entry: Json | undefined) => entry?.as_of_tick === status.tick;
      const deadline = Date.now() + DIRECTORY_TIMEOUT_MS;
      let entry = await directoryEntry(agents.alice);
      while (!caughtUp(entry) && Date.now() < deadline) {
        await new Promise((done) => setTimeout(done, DIRECTORY_POLL_MS));
        entry = await directoryEntry(agents.alice);
      }
      const due = caughtUp(listedBeforeStop)
        ? "none was due"
        : `one was due (listed before the stop: ${JSON.stringify(listedBeforeStop ?? null)})`;
      expect(entry, `the summary push owed from before the upgrade (${due})`).toMatchObject({
        name: WORKSPACE,
        tick: status.tick,
        seq: status.seq,
        as_of_tick: status.tick,
      });
    },
    PHASE_TIMEOUT_MS,
  );

  it("takes a write, which the frontier shows", async () => {
    const { alice } = agents;
    const written = await alice("think_card", {
      branch: "main",
      card: { id: "H-NEW", type: "hypothesis", title: "Written after the upgrade" },
      supports: ["D-FORK"],
    });
    expect(written).toMatchObject({ card_id: "H-NEW", inserted: true });
    const onMain = await frontier(alice, "main");
    expect(ids(onMain.hypotheses)).toEqual(["H-NEW", "H-OPEN"]);
    const hypotheses = await alice("graph_query", { branch: "main", types: ["hypothesis"] });
    expect(ids(hypotheses.nodes as Card[])).toEqual(["H-NEW", "H-OPEN"]);
    // Written on main after the fork: not the fork's.
    expect(ids((await frontier(alice, FORK)).hypotheses)).toEqual(["H-OPEN"]);
  });
});

afterAll(() => {
  const notable = (lines: string[]) => lines.filter((line) => /warn|error|✘|▲/i.test(line));
  const report = Object.entries(printed)
    .map(([server, lines]) => [server, notable(lines)] as const)
    .filter(([, lines]) => lines.length > 0);
  if (report.length > 0) {
    console.log(report.map(([server, lines]) => `wrangler (${server}) printed:\n${lines.join("\n")}`).join("\n\n"));
  }
});
