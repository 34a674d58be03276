// End-to-end: BranchMind as an MCP App (docs/app.md) in a host played by headless Chromium. A page on the
// server's origin connects an MCP client to a real `wrangler dev` with its own token, calls `visualize`,
// reads the `ui://` resource, mounts it in a sandboxed frame and bridges it with the SDK's host side
// (test/e2e/fixtures/app-host.js). On a seeded workspace (a plan, a task whose first step another agent
// leases, steps missing proof, stored text that tries to run script) it checks what a person sees, that
// no text reads as JSON, that the theme follows the host, that nothing ran, that the frame loaded
// nothing and never saw the token, and that without the bridge the board never shows.
import { join } from "node:path";
import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpClient, type Json } from "../../scripts/lib/mcp-http";
import { bundleHost, hostState, INJECTED, JSON_TEXTS, openHost as openIn, THEME } from "./helpers/app-host";
import type { Browser } from "./helpers/browser";
import { tokenFor } from "./helpers/seed";
import type { E2eServer } from "./helpers/server";
import { startServerAndBrowser } from "./helpers/start";

const ROOT = join(import.meta.dirname, "..", "..");
const WORKSPACE = "e2e/app-host";
/** How long the app may take to show on a busy 2-CPU machine. */
const VIEW_TIMEOUT_MS = 20_000;
/** How long the unbridged frame is given to show a board it must never show. */
const UNBRIDGED_WAIT_MS = 3_000;
/** Stored text that would run script if it were ever parsed as HTML or followed as a link. */
const PAYLOADS = {
  task: 'Cache layer <img src=x onerror="window.__xss=1">',
  step: "Write the cache <script>window.__xss=2</script>",
  link: "javascript:window.__xss=3",
  note: '<svg onload="window.__xss=4"></svg> measured p50',
};

let server: E2eServer | undefined;
let browser: Browser | undefined;
let page: Page;
let hostScript: string;
let token: string;
let seeded: { plan: string; task: string; leasedStep: string; expires: number };
const pageErrors: string[] = [];
const frameRequests: string[] = [];

/** The app for alice on the seeded workspace's task board, in a fresh host page. */
function openHost(options: { bridged: boolean; theme?: "light" | "dark" }): Promise<Frame> {
  const base = (server as E2eServer).base;
  return openIn(page, { base, hostScript, token, args: { workspace: WORKSPACE }, ...options });
}

async function seed(base: string, secret: string) {
  const agent = async (name: string) => {
    const client = createMcpClient({
      endpoint: `${base}/mcp?toolset=full`,
      agentId: name,
      token: await tokenFor(secret, name, "write"),
      clientName: "branchmind-e2e",
    });
    return async (tool: string, args: Json) => (await client.callTool(tool, { workspace: WORKSPACE, ...args })).value;
  };
  const alice = await agent("alice");
  const bob = await agent("bob");
  const plan = await alice("tasks_create", { title: "Ship the cache" });
  const task = await alice("tasks_create", {
    parent: plan.id,
    title: PAYLOADS.task,
    description: PAYLOADS.link,
    steps: [{ title: PAYLOADS.step, tests: ["unit"] }, { title: "Load test it" }],
  });
  await alice("tasks_focus_set", { target: task.id });
  await alice("tasks_note", { task: task.id, step: "focus", note: PAYLOADS.note });
  const claim = await bob("tasks_step_lease_claim", { task: task.id, step: "focus" });
  const lease = claim.lease as { step_id: string; expires_tick: number };
  return { plan: plan.id as string, task: task.id as string, leasedStep: lease.step_id, expires: lease.expires_tick };
}

/** What a person must see on the board of the seeded task. */
async function expectBoard(frame: Frame, timeout: number): Promise<void> {
  const detail = frame.locator("[data-testid=task-detail]");
  await detail.waitFor({ timeout });
  await frame.locator("[data-testid=lease-holder]").first().waitFor({ timeout });
}

beforeAll(async () => {
  ({ server, browser } = await startServerAndBrowser(ROOT, {}, (started) => {
    server = started.server;
    browser = started.browser;
  }));
  page = browser.page;
  page.on("pageerror", (error) => pageErrors.push(error.message));
  page.on("request", (request) => {
    if (request.frame() !== page.mainFrame()) frameRequests.push(request.url());
  });
  hostScript = await bundleHost();
  token = await tokenFor(server.secret, "alice", "write");
  seeded = await seed(server.base, server.secret);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("the app in a host", () => {
  it("shows the task board as a person reads it: names, the holder and expiry, the missing proof, the next move in words", async () => {
    const frame = await openHost({ bridged: true });
    await expectBoard(frame, VIEW_TIMEOUT_MS);
    const header = await frame.locator("[data-testid=app-header]").textContent();
    expect(header).toContain(WORKSPACE);
    expect(header).toContain("alice");
    const detail = await frame.locator("[data-testid=task-detail]").textContent();
    expect(detail).toContain(seeded.task);
    expect(detail).toContain(PAYLOADS.task);
    const rows = frame.locator("[data-testid=step-row]");
    expect(await rows.count()).toBe(2);
    const leased = frame.locator(`[data-testid=step-row][data-step="${seeded.leasedStep}"]`);
    expect(await leased.locator("[data-testid=lease-holder]").textContent()).toBe("bob");
    expect(await leased.locator("[data-testid=lease-expiry]").textContent()).toContain(`tick ${seeded.expires}`);
    expect(await leased.locator("[data-testid=missing-proof]").textContent()).toContain("criteria, tests");
    expect(await leased.textContent()).toContain(PAYLOADS.step);
    const capsule = await frame.locator("[data-testid=capsule]").textContent();
    expect(capsule).toMatch(/Agents. best move: /);

    // Prose and tables, never JSON: no text node parses as a JSON object or array.
    expect(await frame.evaluate(JSON_TEXTS)).toEqual([]);
  });

  it("renders stored text as text: nothing runs, no element or link comes from it", async () => {
    const frame = await openHost({ bridged: true });
    await expectBoard(frame, VIEW_TIMEOUT_MS);
    const text = (await frame.locator("#app").textContent()) ?? "";
    expect(text).toContain(PAYLOADS.task);
    expect(text).toContain(PAYLOADS.step);
    expect(text).toContain(PAYLOADS.note);
    // The app's own script is the document's only one.
    expect(await frame.evaluate(INJECTED)).toEqual({ xss: null, images: 0, svgs: 0, scripts: 1, scriptLinks: 0 });
    expect(await page.evaluate(() => (globalThis as unknown as { __xss?: number }).__xss ?? null)).toBeNull();
  });

  it("calls only listed tools through the host, never sees the token and loads nothing itself", async () => {
    const frame = await openHost({ bridged: true });
    await expectBoard(frame, VIEW_TIMEOUT_MS);
    const state = await hostState(page);
    expect(state.calls.length).toBeGreaterThan(0);
    expect(state.refused).toEqual([]);
    expect(state.sent.some((message) => message.includes(token))).toBe(false);
    expect(await frame.evaluate(`document.documentElement.outerHTML.includes(${JSON.stringify(token)})`)).toBe(false);
    expect(frameRequests).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it("follows the host's theme, and switches when the host does", async () => {
    const frame = await openHost({ bridged: true, theme: "light" });
    await expectBoard(frame, VIEW_TIMEOUT_MS);
    const colours = () => frame.evaluate(THEME) as Promise<{ theme: string; background: string }>;
    const light = await colours();
    expect(light.theme).toBe("light");
    await page.evaluate(() => (globalThis as unknown as { setTheme(theme: string): void }).setTheme("dark"));
    await frame.waitForFunction(`document.documentElement.dataset.theme === "dark"`, undefined, { timeout: VIEW_TIMEOUT_MS });
    const dark = await colours();
    expect(dark.background).not.toBe(light.background);
  });

  it("shows no board without the bridge: the checks above fail when the host does not answer", async () => {
    const frame = await openHost({ bridged: false });
    await frame.locator("[data-testid=app-waiting]").waitFor({ timeout: VIEW_TIMEOUT_MS });
    await expect(expectBoard(frame, UNBRIDGED_WAIT_MS)).rejects.toThrow();
  });
});
