// End-to-end: the browser viewer in headless Chromium against a real `wrangler dev` (token mode). A
// workspace is seeded through MCP as agents would write it; each view is opened as a person would and
// checked for what it shows — the workspace list with its ticks, the branch tree with cutoffs and a
// checkout, the timeline's merge marker, the focused graph's node count, marks in words and labels
// apart, a conflict's three versions (and no way to decide it), a node's card, the diff overlay, a
// lease holder, what a task waits for and who has taken one, a record's state — plus the refused-token
// message, the not-found view and a 5,000-node graph that opens focused and loads whole on request.
// One screenshot per view goes to test-artifacts/e2e/.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Browser, openBrowser } from "./helpers/browser";
import { findChromium } from "./helpers/chromium";
import { LARGE_EDGES, LARGE_NODES, LARGE_WORKSPACE, type Seeded, seedLargeGraph, seedWorkspace, tokenFor, WORKSPACE } from "./helpers/seed";
import { type E2eServer, startServer } from "./helpers/server";

const ROOT = join(import.meta.dirname, "..", "..");
const ARTIFACTS = join(ROOT, "test-artifacts", "e2e");
/** How long a view may take to show on a busy 2-CPU machine (the large graph has its own bound). */
const VIEW_TIMEOUT_MS = 20_000;
const LARGE_GRAPH_TIMEOUT_MS = 60_000;
/** The Directory hears from a workspace about 2 s after its writes (the summary alarm). */
const DIRECTORY_TIMEOUT_MS = 20_000;
/** The focused graph's most nodes (think.frontier.graph's limit). */
const FOCUSED_NODES = 200;
/**
 * Read in the page (the test's types know no DOM): the pairs of visible nodes whose label boxes meet,
 * as cytoscape measures them on the canvas (the container keeps its instance in `_cyreg`).
 */
const LABEL_OVERLAPS = `(() => {
  const cy = document.querySelector("[data-testid=graph-canvas]")._cyreg.cy;
  const nodes = cy.nodes(":visible");
  const boxes = nodes.map((node) => [node.id(), node.boundingBox({ includeNodes: false, includeLabels: true, includeEdges: false })]);
  const meeting = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, p] = boxes[i];
      const [b, q] = boxes[j];
      if (p.x1 < q.x2 && q.x1 < p.x2 && p.y1 < q.y2 && q.y1 < p.y2) meeting.push(a + " and " + b);
    }
  }
  return meeting;
})()`;

let server: E2eServer;
let browser: Browser;
let page: Page;
let seeded: Seeded;
let largeSeeded: Promise<number>;
let readToken: string;
const timings: Record<string, number> = {};
const pageErrors: string[] = [];

function encoded(workspace: string): string {
  return encodeURIComponent(workspace);
}

/** Opens a route in a fresh load of the app (the session is checked again) and waits for `ready`. */
async function open(hash: string, ready: string, timeout = VIEW_TIMEOUT_MS): Promise<void> {
  await page.goto("about:blank");
  await page.goto(`${server.base}/${hash}`);
  try {
    await page.locator(ready).first().waitFor({ timeout });
  } catch (error) {
    // What the page showed instead is the first thing to look at.
    await page.screenshot({ path: join(ARTIFACTS, "failed-view.png"), fullPage: true });
    throw error;
  }
}

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

async function useToken(token: string): Promise<void> {
  await page.getByTestId("token-input").fill(token);
  await page.getByTestId("token-submit").click();
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const started = Date.now();
  const chromium = await findChromium();
  console.info(`viewer e2e: Chromium from ${chromium.source} (${chromium.path})`);
  timings.chromium_found_ms = Date.now() - started;
  // Both start at once; whichever starts is kept for afterAll even when the other fails.
  const [serverStart, browserStart] = await Promise.allSettled([startServer(ROOT), openBrowser(chromium)]);
  if (serverStart.status === "fulfilled") server = serverStart.value;
  if (browserStart.status === "fulfilled") browser = browserStart.value;
  if (serverStart.status === "rejected") throw serverStart.reason;
  if (browserStart.status === "rejected") throw browserStart.reason;
  timings.server_start_ms = server.startMs;
  page = browser.page;
  page.on("pageerror", (error) => pageErrors.push(error.message));
  const seedStarted = Date.now();
  seeded = await seedWorkspace(server.base, server.secret);
  timings.seed_ms = Date.now() - seedStarted;
  // The large graph is written while the other views are checked; its test waits for it.
  const largeStarted = Date.now();
  largeSeeded = seedLargeGraph(server.base, server.secret).then(() => Date.now() - largeStarted);
  largeSeeded.catch(() => {});
  readToken = await tokenFor(server.secret, "viewer", "read");
  timings.setup_ms = Date.now() - started;
});

afterAll(async () => {
  await largeSeeded?.catch(() => {});
  await browser?.close();
  await server?.stop();
  if (Object.keys(timings).length > 0) writeFileSync(join(ARTIFACTS, "timings.json"), `${JSON.stringify(timings, null, 2)}\n`);
  console.info(`viewer e2e timings: ${JSON.stringify(timings)}`);
});

describe("the viewer in a browser", () => {
  it("shows a clear message and no data without a token, with a malformed one and with an expired one", async () => {
    await open("#/", "[data-testid=auth-error]");
    await expect(page.getByTestId("auth-error").textContent()).resolves.toContain("A token is needed");
    await useToken("bm1.not-a.token");
    await page.getByTestId("auth-error").filter({ hasText: "Your token was refused" }).waitFor({ timeout: VIEW_TIMEOUT_MS });
    await expect(page.getByTestId("auth-error-reason").textContent()).resolves.toContain("malformed token");
    await useToken(await tokenFor(server.secret, "viewer", "read", -60));
    await page.getByTestId("auth-error-reason").filter({ hasText: "token expired" }).waitFor({ timeout: VIEW_TIMEOUT_MS });
    expect(await page.getByTestId("workspaces-view").count()).toBe(0);
    expect(await page.getByTestId("workspace-row").count()).toBe(0);
    await shot("auth-refused");
  });

  it("lists the workspaces with their ticks and counts once a valid token is pasted (kept out of the URL)", async () => {
    await vi.waitFor(
      async () => {
        const response = await fetch(`${server.base}/api/call`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${readToken}` },
          body: JSON.stringify({ command: "workspace.list", args: {} }),
        });
        const listed = ((await response.json()) as { result: { workspaces: { name: string; tick: number }[] } }).result;
        expect(listed.workspaces.find((item) => item.name === WORKSPACE)?.tick).toBe(seeded.tick);
      },
      { timeout: DIRECTORY_TIMEOUT_MS, interval: 250 },
    );
    await useToken(readToken);
    const row = page.locator(`[data-testid=workspace-row][data-name="${WORKSPACE}"]`);
    await row.waitFor({ timeout: VIEW_TIMEOUT_MS });
    expect(page.url()).not.toContain(readToken.slice(4, 30));
    expect(await page.evaluate(() => sessionStorage.getItem("branchmind.viewer.token"))).toBe(readToken);
    await expect(row.getByTestId("workspace-tick").textContent()).resolves.toBe(String(seeded.tick));
    await expect(row.getByTestId("workspace-branches").textContent()).resolves.toBe(String(seeded.branches));
    await expect(row.getByTestId("workspace-open-records").textContent()).resolves.toBe("1");
    await expect(page.getByTestId("session").textContent()).resolves.toContain("viewer · role read");
    await shot("workspaces");
  });

  it("draws the branch tree with bases, cutoffs and who has a branch checked out", async () => {
    await open(`#/w/${encoded(WORKSPACE)}/branches`, "[data-testid=branch-node]");
    const branch = page.locator('[data-testid=branch-node][data-branch="main"] [data-testid=branch-node][data-branch="try/cache"]');
    await branch.waitFor({ timeout: VIEW_TIMEOUT_MS });
    expect(Number(await branch.getAttribute("data-cutoff"))).toBeGreaterThan(0);
    await expect(branch.textContent()).resolves.toContain("checked out by bob");
    expect(await page.getByTestId("branch-node").count()).toBe(seeded.branches);
    await shot("branches");
  });

  it("shows the notes timeline with the merge marker of the merged branch", async () => {
    await open(`#/w/${encoded(WORKSPACE)}/timeline?branch=main&doc=notes`, "[data-testid=timeline-entry]");
    expect(await page.getByTestId("timeline-entry").count()).toBe(2);
    await expect(page.getByTestId("merge-marker").textContent()).resolves.toContain("merged from try/cache");
    await shot("timeline");
  });

  it("opens the graph on what matters, with its node count, its marks in words, a node's card, and filters by type", async () => {
    await open(`#/w/${encoded(WORKSPACE)}/graph?branch=main&node=H1`, "[data-testid=graph-view][data-state=ready]");
    const stats = page.getByTestId("graph-stats");
    expect(await stats.getAttribute("data-mode")).toBe("focus");
    expect(await stats.getAttribute("data-nodes")).toBe(String(seeded.nodesOnMain));
    expect(await stats.getAttribute("data-edges")).toBe(String(seeded.edgesOnMain));
    await expect(page.getByTestId("graph-open-questions").textContent()).resolves.toContain(
      "Open questions (1): Q1 Does the cache survive eviction?",
    );
    await expect(page.getByTestId("graph-untested").textContent()).resolves.toContain(
      "Untested hypotheses (1): H1 A read cache halves p99 too",
    );
    expect(await page.evaluate(LABEL_OVERLAPS)).toEqual([]);
    const card = page.getByTestId("node-card");
    await card.waitFor({ timeout: VIEW_TIMEOUT_MS });
    await expect(page.getByTestId("node-card-title").textContent()).resolves.toBe("A read cache halves p99 too");
    expect(await page.getByTestId("node-version").count()).toBe(2);
    await expect(page.getByTestId("linked-evidence").textContent()).resolves.toContain("Benchmark: p50 down 52%");
    await page.getByTestId("linked-evidence").getByRole("button").click();
    await page.locator('[data-testid=node-card][data-id="E1"]').waitFor({ timeout: VIEW_TIMEOUT_MS });
    await expect(card.textContent()).resolves.toContain("pinned");
    await page.getByTestId("filter-type-question").uncheck();
    expect(await stats.getAttribute("data-visible")).toBe(String(seeded.nodesOnMain - 1));
    await page.getByTestId("filter-type-question").check();
    await shot("graph");
  });

  it("shows an open conflict's base, theirs and ours side by side", async () => {
    await open(`#/w/${encoded(WORKSPACE)}/graph?branch=main`, "[data-testid=graph-view][data-state=ready]");
    await page.locator(`[data-testid=conflict-item][data-key="${seeded.conflictKey}"]`).click();
    await page.getByTestId("conflict-detail").waitFor({ timeout: VIEW_TIMEOUT_MS });
    const title = (side: string) => page.locator(`[data-testid=${side}] td[data-field=title]`).textContent();
    await expect(title("conflict-base")).resolves.toBe("A read cache halves latency");
    await expect(title("conflict-theirs")).resolves.toBe("A read cache halves p50 only");
    await expect(title("conflict-ours")).resolves.toBe("A read cache halves p99 too");
    // The viewer is read-only: no way to decide the conflict from it.
    expect(await page.getByTestId("conflict-keep-ours").count()).toBe(0);
    expect(await page.getByTestId("conflict-take-theirs").count()).toBe(0);
    await shot("graph-conflict");
  });

  it("overlays what a branch changed relative to another", async () => {
    await open(`#/w/${encoded(WORKSPACE)}/graph?branch=try%2Fcache&compare=main`, "[data-testid=graph-view][data-state=ready]");
    const summary = page.getByTestId("diff-summary");
    expect(await summary.getAttribute("data-added")).toBe("1");
    expect(await summary.getAttribute("data-modified")).toBe("1");
    expect(await page.getByTestId("graph-stats").getAttribute("data-nodes")).toBe(String(seeded.nodesOnMain + 1));
    await shot("graph-diff");
  });

  it("shows a task's steps with checkpoints, the lease holder and expiry, the radar and the capsule", async () => {
    await open(`#/w/${encoded(WORKSPACE)}/tasks?target=${seeded.taskId}`, "[data-testid=task-detail]");
    const step = page.locator(`[data-testid=step-row][data-step="${seeded.leasedStep}"]`);
    await expect(step.getByTestId("lease-holder").textContent()).resolves.toBe(seeded.leaseHolder);
    await expect(step.getByTestId("lease-expiry").textContent()).resolves.toContain(`tick ${seeded.leaseExpiresTick}`);
    expect(await page.getByTestId("step-row").count()).toBe(2);
    await expect(page.getByTestId("radar").textContent()).resolves.toContain("Cache layer");
    await expect(page.getByTestId("capsule").textContent()).resolves.toContain("held by bob");
    // The agents' moves, as a writing agent is told them: no read role's status stand-in.
    const moves = (await page.getByTestId("agents-move").textContent()) ?? "";
    expect(moves).toContain("Agents' best move: ");
    expect(moves).not.toContain("not callable on this connection");
    expect(await page.getByTestId("waits-for").count()).toBe(0);
    await shot("tasks");
  });

  it("says what a task waits for and who has taken one, in its detail and in the lists", async () => {
    await open(`#/w/${encoded(WORKSPACE)}/tasks?target=${seeded.waitingTaskId}`, "[data-testid=task-detail]");
    await expect(page.getByTestId("waits-for").textContent()).resolves.toBe(`Waits for: ${seeded.taskId} Cache layer (TODO)`);
    expect(await page.getByTestId("taken-by").count()).toBe(0);
    const waitingItem = page.locator(`[data-testid=tasks] [data-testid=task-item][data-id="${seeded.waitingTaskId}"]`);
    await expect(waitingItem.getByTestId("item-waits").textContent()).resolves.toContain(seeded.taskId);
    await open(`#/w/${encoded(WORKSPACE)}/tasks?target=${seeded.takenTaskId}`, "[data-testid=task-detail]");
    await expect(page.getByTestId("taken-by").textContent()).resolves.toBe(`Taken by carol until tick ${seeded.claimExpiresTick}`);
    expect(await page.getByTestId("waits-for").count()).toBe(0);
    await shot("tasks-waiting");
  });

  it("shows the record tree with states, the open sessions and the activity", async () => {
    await open(`#/w/${encoded(WORKSPACE)}/records`, "[data-testid=record-node]");
    const child = page.locator('[data-testid=record-node][data-id="R001"][data-state="OPEN"] [data-testid=record-node][data-id="R002"]');
    expect(await child.getAttribute("data-state")).toBe("LATER");
    await expect(page.getByTestId("session-row").first().textContent()).resolves.toContain("carol");
    expect(await page.getByTestId("activity-row").count()).toBeGreaterThanOrEqual(3);
    await shot("records");
  });

  it("shows a not-found view for an unknown workspace and an unknown branch", async () => {
    await open(`#/w/${encoded("e2e/nowhere")}/branches`, "[data-testid=not-found]");
    await expect(page.getByTestId("not-found").textContent()).resolves.toContain('workspace "e2e/nowhere"');
    await shot("not-found");
    await open(`#/w/${encoded(WORKSPACE)}/graph?branch=no-such-branch`, "[data-testid=not-found]");
    await expect(page.getByTestId("not-found").textContent()).resolves.toContain("no-such-branch");
  });

  it(`opens a ${LARGE_NODES}-node graph on at most ${FOCUSED_NODES} labelled nodes, and loads the whole of it page by page on request`, {
    timeout: 150_000,
  }, async () => {
    timings.large_seed_ms = await largeSeeded;
    const started = Date.now();
    await open(`#/w/${encoded(LARGE_WORKSPACE)}/graph`, "[data-testid=graph-view][data-state=ready]", LARGE_GRAPH_TIMEOUT_MS);
    timings.large_graph_focused_ready_ms = Date.now() - started;
    const stats = page.getByTestId("graph-stats");
    expect(await stats.getAttribute("data-mode")).toBe("focus");
    const focused = Number(await stats.getAttribute("data-nodes"));
    expect(focused).toBeGreaterThan(0);
    expect(focused).toBeLessThanOrEqual(FOCUSED_NODES);
    expect(Number(await page.getByTestId("graph-capped").getAttribute("data-left-out"))).toBeGreaterThan(0);
    expect(await page.evaluate(LABEL_OVERLAPS)).toEqual([]);
    await shot("graph-large-focused");

    const whole = Date.now();
    await page.getByTestId("graph-show-all").click();
    await page.locator("[data-testid=graph-view][data-state=ready][data-mode=all]").waitFor({ timeout: LARGE_GRAPH_TIMEOUT_MS });
    timings.large_graph_ready_ms = Date.now() - whole;
    expect(await stats.getAttribute("data-nodes")).toBe(String(LARGE_NODES));
    expect(await stats.getAttribute("data-edges")).toBe(String(LARGE_EDGES));
    timings.large_graph_load_ms = Number(await stats.getAttribute("data-load-ms"));
    timings.large_graph_layout_ms = Number(await stats.getAttribute("data-layout-ms"));
    const filtered = Date.now();
    await page.getByTestId("filter-type-note").uncheck();
    expect(Number(await stats.getAttribute("data-visible"))).toBe(LARGE_NODES - Math.ceil((LARGE_NODES - 5) / 6));
    timings.large_graph_filter_ms = Date.now() - filtered;
    await shot("graph-large");
  });

  it("raised no script errors in the page", () => {
    expect(pageErrors).toEqual([]);
  });
});
