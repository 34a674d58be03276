/**
 * Headless Chromium for the end-to-end tests (the one `findChromium` picks: CHROMIUM_PATH, `chromium`
 * on PATH, or the npm-bundled one) driven by playwright-core, with a fresh profile dir per run and the
 * flags a closed network needs (no background traffic, no component updates, no QUIC). `close()`
 * removes the profile.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import type { ChromiumExecutable } from "./chromium";

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

export async function openBrowser(executable: ChromiumExecutable): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), "branchmind-e2e-chromium-"));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: executable.path,
      headless: true,
      args: FLAGS,
      viewport: VIEWPORT,
    });
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw new Error(`Chromium from ${executable.source} (${executable.path}) did not start: ${String(error)}`);
  }
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
