/**
 * Headless Chromium for the end-to-end tests: Debian's `chromium` (or CHROMIUM_PATH) driven by
 * playwright-core, with a fresh profile dir per run and the flags a closed network needs (no
 * background traffic, no component updates, no QUIC). `close()` removes the profile.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
/** A desktop-sized window, so the graph and its side panel fit side by side. */
const VIEWPORT = { width: 1400, height: 1000 };

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export async function openBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`No Chromium at ${CHROMIUM}: install it (apt-get install chromium) or set CHROMIUM_PATH.`);
  }
  const profile = mkdtempSync(join(tmpdir(), "branchmind-e2e-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: VIEWPORT,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
