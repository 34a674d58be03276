// The MCP App's document (web/dist-app/app.html, docs/app.md) is bundled into the Worker as text, so the
// workers project builds it before any test file loads the Worker: a fresh clone has no build yet, and a
// change under web/src must reach the tests. The build takes about two seconds.
import { join } from "node:path";
import { build } from "vite";

export default async function buildApp(): Promise<void> {
  await build({ configFile: join(import.meta.dirname, "..", "..", "web", "app.vite.config.ts"), logLevel: "error" });
}
