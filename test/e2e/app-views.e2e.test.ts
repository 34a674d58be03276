// End-to-end: the MCP App's graph and session views (docs/app.md) in the same host as the task board's
// test (test/e2e/helpers/app-host.ts: Chromium plays a host that bridges the app with the SDK's
// AppBridge, against a real `wrangler dev`). On a seeded reasoning graph it checks what a person sees
// (the open question and the untested hypothesis marked, the conflict's three versions, another agent's
// draft nowhere), that no two label boxes of the drawn graph intersect, and that deciding the conflict
// from the app writes as the connected agent, seen through MCP. A read grant sees no buttons, and a
// message the frame forges to resolve is refused by the server. On a seeded Record-Sync project it
// checks the session view. Stored text that tries to run script shows as text in both.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleHost, hostState, INJECTED, JSON_TEXTS, openHost } from "./helpers/app-host";
import { agentIn, DRAFT_TITLE, seedGraph, seedSession, VIEW_PAYLOADS } from "./helpers/app-seed";
import type { Browser } from "./helpers/browser";
import { tokenFor } from "./helpers/seed";
import type { E2eServer } from "./helpers/server";
import { startServerAndBrowser } from "./helpers/start";

const ROOT = join(import.meta.dirname, "..", "..");
/** One screenshot per view, for a person to look at (git ignores the folder). */
const ARTIFACTS = join(ROOT, "test-artifacts", "e2e");
const GRAPH = "e2e/app-graph";
const SESSION = "e2e/app-session";
/** How long the app may take to show on a busy 2-CPU machine. */
const VIEW_TIMEOUT_MS = 30_000;

let server: E2eServer | undefined;
let browser: Browser | undefined;
let page: Page;
let hostScript: string;
let conflict: string;
let session: string;
const pageErrors: string[] = [];

async function open(agent: string, role: "read" | "write", args: Record<string, unknown>): Promise<Frame> {
  const base = (server as E2eServer).base;
  const token = await tokenFor((server as E2eServer).secret, agent, role);
  return openHost(page, { base, hostScript, token, args, bridged: true });
}

/** The label boxes of the drawn graph's visible nodes that intersect another's (read from the canvas's cytoscape). */
const OVERLAPPING_LABELS = `(() => {
  const container = document.querySelector("[data-testid=graph-canvas]");
  const cy = container && container._cyreg && container._cyreg.cy;
  if (!cy) return { nodes: 0, overlaps: ["no canvas"] };
  const boxes = cy.nodes(":visible").map((node) => ({ id: node.id(), box: node.boundingBox({ includeNodes: false, includeLabels: true, includeEdges: false }) }));
  const overlaps = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i].box, b = boxes[j].box;
      if (a.w > 0 && b.w > 0 && a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2) overlaps.push(boxes[i].id + " / " + boxes[j].id);
    }
  return { nodes: boxes.length, ids: boxes.map((entry) => entry.id).sort(), overlaps };
})()`;

/**
 * From inside the frame, the write the buttons would make, posted to the host by hand as a forged
 * request: resolves with the host's answer to it.
 */
const FORGED_RESOLVE = (conflictId: string) => `new Promise((resolve) => {
  window.addEventListener("message", (event) => { if (event.data && event.data.id === 9001) resolve(JSON.stringify(event.data)); });
  window.parent.postMessage({ jsonrpc: "2.0", id: 9001, method: "tools/call", params: { name: "graph", arguments: {
    workspace: ${JSON.stringify(GRAPH)}, op: "call", cmd: "graph.conflict.resolve", args: { conflict_id: ${JSON.stringify(conflictId)}, resolution: "use_from" } } } }, "*");
})`;

async function graphShown(frame: Frame): Promise<void> {
  await frame.locator("[data-testid=graph-canvas]").waitFor({ timeout: VIEW_TIMEOUT_MS });
  await frame.locator("[data-testid=graph-open-questions]").waitFor({ timeout: VIEW_TIMEOUT_MS });
  await frame.waitForFunction(`document.querySelector("[data-testid=graph-view]")?.dataset.state === "ready"`, undefined, {
    timeout: VIEW_TIMEOUT_MS,
  });
}

async function openConflict(frame: Frame): Promise<void> {
  await frame.locator("[data-testid=conflict-item]").first().click();
  await frame.locator("[data-testid=conflict-detail]").waitFor({ timeout: VIEW_TIMEOUT_MS });
}

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser(ROOT, {}, (started) => {
    server = started.server;
    browser = started.browser;
  }));
  page = browser.page;
  page.on("pageerror", (error) => pageErrors.push(error.message));
  mkdirSync(ARTIFACTS, { recursive: true });
  hostScript = await bundleHost();
  ({ conflict } = await seedGraph(server.base, server.secret, GRAPH));
  ({ session } = await seedSession(server.base, server.secret, SESSION));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("the graph view", () => {
  it("shows the frontier as a person reads it, labels apart, another agent's draft nowhere, stored text as text", async () => {
    const frame = await open("alice", "write", { workspace: GRAPH, what: "graph" });
    await graphShown(frame);
    expect(await frame.locator("[data-testid=app-header]").textContent()).toBe(`${GRAPH} · alice (write)`);
    expect(await frame.locator("[data-testid=app-summary]").textContent()).toContain("1 open question");
    expect(await frame.locator("[data-testid=graph-open-questions]").textContent()).toContain(VIEW_PAYLOADS.question);
    const untested = (await frame.locator("[data-testid=graph-untested]").textContent()) ?? "";
    expect(untested).toContain(VIEW_PAYLOADS.hypothesis);
    expect(untested).not.toContain("Misses dominate");
    const drawn = (await frame.evaluate(OVERLAPPING_LABELS)) as { nodes: number; ids: string[]; overlaps: string[] };
    expect(drawn.ids).toEqual(["H", "H2", "H3", "Q1", "T1"]);
    expect(drawn.overlaps).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, "app-graph.png"), fullPage: true });
    const text = (await frame.locator("#app").textContent()) ?? "";
    expect(text).not.toContain(DRAFT_TITLE);
    expect(await frame.evaluate(INJECTED)).toEqual({ xss: null, images: 0, svgs: 0, scripts: 1, scriptLinks: 0 });
    expect(await frame.evaluate(JSON_TEXTS)).toEqual([]);
  });

  it("shows the conflict as base, theirs and ours; a read grant gets no buttons and a forged resolve is refused", async () => {
    const frame = await open("carol", "read", { workspace: GRAPH, what: "graph" });
    await graphShown(frame);
    await openConflict(frame);
    expect(await frame.locator("[data-testid=conflict-base]").textContent()).toContain("base title");
    expect(await frame.locator("[data-testid=conflict-theirs]").textContent()).toContain("theirs title");
    expect(await frame.locator("[data-testid=conflict-ours]").textContent()).toContain("ours title");
    expect(await frame.locator("[data-testid=conflict-keep-ours], [data-testid=conflict-take-theirs]").count()).toBe(0);
    // The frame forges the write the buttons would make: the host passes it on, the server refuses it.
    const forged = (await frame.evaluate(FORGED_RESOLVE(conflict))) as string;
    expect(forged).toContain("FORBIDDEN");
    const alice = await agentIn((server as E2eServer).base, (server as E2eServer).secret, GRAPH, "alice");
    const stillOpen = await alice("graph_conflicts", { into: "main", status: "open" });
    expect((stillOpen.conflicts as { conflict_id: string }[]).map((item) => item.conflict_id)).toEqual([conflict]);
  });

  it("lets a person with a write grant decide the conflict, written as the connected agent", async () => {
    const frame = await open("alice", "write", { workspace: GRAPH, what: "graph" });
    await graphShown(frame);
    await openConflict(frame);
    await frame.locator("[data-testid=conflict-take-theirs]").click();
    await frame.locator("[data-testid=conflict-decided]").waitFor({ timeout: VIEW_TIMEOUT_MS });
    expect(await frame.locator("[data-testid=conflict-decided]").textContent()).toContain("took theirs (idea)");
    expect(await frame.locator("[data-testid=app-scope]").textContent()).toContain("before your decision");
    await page.screenshot({ path: join(ARTIFACTS, "app-graph-decided.png"), fullPage: true });
    const alice = await agentIn((server as E2eServer).base, (server as E2eServer).secret, GRAPH, "alice");
    expect((await alice("graph_conflicts", { into: "main", status: "open" })).conflicts).toEqual([]);
    expect(((await alice("graph_node_show", { id: "H" })).node as { title: string }).title).toBe("theirs title");
    expect((await alice("status", {})).last_event).toMatchObject({ command: "graph_conflict_resolve", agent_id: "alice" });
    const state = await hostState(page);
    expect(state.refused).toEqual([]);
  });
});

describe("the session view", () => {
  it("shows the record tree, the session's active records, its staleness and what others changed, stored text as text", async () => {
    const frame = await open("alice", "write", { workspace: SESSION, what: "session" });
    await frame.locator("[data-testid=record-node]").first().waitFor({ timeout: VIEW_TIMEOUT_MS });
    await frame.locator("[data-testid=session-changes] li").first().waitFor({ timeout: VIEW_TIMEOUT_MS });
    expect(await frame.locator("[data-testid=app-summary]").textContent()).toContain(`Session ${session} of alice`);
    await page.screenshot({ path: join(ARTIFACTS, "app-session.png"), fullPage: true });
    expect(await frame.locator("[data-testid=app-scope]").textContent()).toMatch(/tick/);
    const active = (await frame.locator("[data-testid=session-active]").textContent()) ?? "";
    expect(active).toContain("R001");
    expect(active).toContain(VIEW_PAYLOADS.record);
    const nodes = frame.locator("[data-testid=record-node]");
    expect(await nodes.evaluateAll((items) => items.map((item) => item.getAttribute("data-id")))).toEqual(["R001", "R002"]);
    // What a person sees: innerText leaves out hidden lines, which textContent would include.
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what this checks.
    const changes = await frame.locator("[data-testid=session-changes]").innerText();
    expect(changes).toContain("bob (session S002) updated R002");
    expect(changes).not.toContain("Nothing changed");
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what this checks.
    expect(await frame.locator("[data-testid=record-tree]").innerText()).toContain(VIEW_PAYLOADS.summary);
    expect(await frame.evaluate(INJECTED)).toEqual({ xss: null, images: 0, svgs: 0, scripts: 1, scriptLinks: 0 });
    expect(await frame.evaluate(JSON_TEXTS)).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
