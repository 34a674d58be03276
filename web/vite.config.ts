// The browser viewer's build: a small static app (plain TypeScript + DOM) built into web/dist, which
// the Worker serves as static assets at `/` (wrangler.toml [assets]). See docs/viewer.md.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  root,
  base: "/",
  logLevel: "warn",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // cytoscape alone is ~450 kB minified; one chunk keeps the viewer a two-request page.
    chunkSizeWarningLimit: 1_000,
    sourcemap: false,
  },
});
