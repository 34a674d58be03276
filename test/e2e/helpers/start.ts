/**
 * The usual start of an end-to-end file: `wrangler dev` and headless Chromium at once. Whichever
 * starts is handed to `keep` before a failure of the other is thrown, so the file's afterAll stops it.
 */
import { type Browser, openBrowser } from "./browser";
import { findChromium } from "./chromium";
import { type E2eServer, type ServerOptions, startServer } from "./server";

export interface Started {
  server?: E2eServer;
  browser?: Browser;
}

export async function startServerAndBrowser(
  root: string,
  options: ServerOptions,
  keep: (started: Started) => void,
): Promise<{ server: E2eServer; browser: Browser }> {
  const chromium = await findChromium();
  const [server, browser] = await Promise.allSettled([startServer(root, options), openBrowser(chromium)]);
  keep({
    ...(server.status === "fulfilled" ? { server: server.value } : {}),
    ...(browser.status === "fulfilled" ? { browser: browser.value } : {}),
  });
  if (server.status === "rejected") throw server.reason;
  if (browser.status === "rejected") throw browser.reason;
  return { server: server.value, browser: browser.value };
}
