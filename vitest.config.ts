// Tests run inside workerd with real Durable Object SQLite (storage isolated per test file).
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: { bindings: { AUTH_MODE: "token", AUTH_SECRET: "test-secret-for-vitest-only" } },
    }),
  ],
  // The first request of a test file pays for transforming the module graph (seconds); later ones take ms.
  // The Worker logs one JSON line per call (see docs/deploy.md): kept out of the test output, where they
  // would bury the results (tests that check them spy on console.log, which still sees every line).
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000,
    onConsoleLog: (log) => !log.startsWith('{"ts":'),
  },
});
