/**
 * The MCP App host harness the app's end-to-end tests share: the host page's script (the fixture
 * test/e2e/fixtures/app-host.js bundled for the browser), opening the app in that host for a token and
 * `visualize` arguments, and the checks made inside the app's frame (texts that parse as JSON, what
 * stored text could have injected, the theme).
 */
import { join } from "node:path";
import { build } from "esbuild";
import type { Frame, Page } from "playwright-core";

const ROOT = join(import.meta.dirname, "..", "..", "..");

/** What the host page keeps: each message it sent into the frame, the tools the app called and those refused. */
export interface HostState {
  sent: string[];
  refused: string[];
  calls: string[];
}

/** The host page's script: the fixture bundled for the browser with the MCP client and the bridge. */
export async function bundleHost(): Promise<string> {
  const out = await build({
    entryPoints: [join(ROOT, "test", "e2e", "fixtures", "app-host.js")],
    bundle: true,
    platform: "browser",
    format: "iife",
    write: false,
    logLevel: "warning",
  });
  return out.outputFiles[0]?.text ?? "";
}

export interface OpenOptions {
  base: string;
  hostScript: string;
  token: string;
  args: Record<string, unknown>;
  bridged: boolean;
  theme?: "light" | "dark";
}

/** A fresh host page on the server's origin (so its MCP client is same-origin) with the app mounted. */
export async function openHost(page: Page, options: OpenOptions): Promise<Frame> {
  const hostUrl = `${options.base}/__e2e_host`;
  await page.route(hostUrl, (route) =>
    route.fulfill({ contentType: "text/html", body: `<!doctype html><html><body><script>${options.hostScript}</script></body></html>` }),
  );
  await page.goto(hostUrl);
  await page.evaluate(([open]) => (globalThis as unknown as { openApp(options: unknown): Promise<void> }).openApp(open), [
    { token: options.token, tool: "visualize", args: options.args, theme: options.theme ?? "light", bridged: options.bridged },
  ] as const);
  const handle = await page.waitForSelector("[data-testid=app-frame]");
  const frame = await handle.contentFrame();
  if (frame === null) throw new Error("the app's frame has no document");
  return frame;
}

export async function hostState(page: Page): Promise<HostState> {
  return page.evaluate(() => (globalThis as unknown as { hostState: HostState }).hostState);
}

/**
 * Read inside the frame (the test's types know no DOM): the texts that parse as a JSON object or array,
 * what stored text could have injected, and the theme with the colour it gives the page.
 */
export const JSON_TEXTS = `(() => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const text = (node.textContent || "").trim();
    try {
      const value = JSON.parse(text);
      if (value !== null && typeof value === "object") found.push(text);
    } catch {}
  }
  return found;
})()`;
export const INJECTED = `({
  xss: window.__xss ?? null,
  images: document.querySelectorAll("img").length,
  svgs: document.querySelectorAll("svg").length,
  scripts: document.scripts.length,
  scriptLinks: [...document.querySelectorAll("a")].filter((link) => link.protocol === "javascript:").length,
})`;
export const THEME = `({ theme: document.documentElement.dataset.theme, background: getComputedStyle(document.body).backgroundColor })`;
