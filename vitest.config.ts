// Two test projects, both run by `npm test`:
// - `workers`: inside workerd with real Durable Object SQLite (storage isolated per test file);
// - `e2e`: in Node, the browser viewer in headless Chromium against a real `wrangler dev`
//   (test/e2e/; see docs/viewer.md). It starts its own server and browser, so it runs after the
//   workers project, one file at a time, with bounded timeouts.
import { availableParallelism } from "node:os";
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

const E2E_TESTS = "test/e2e/**/*.e2e.test.ts";
/** A client that names itself by a metadata document (CIMD) at an HTTPS URL, as test/oauth.test.ts uses it. */
const CIMD_CLIENT_ID = "https://client.example/oauth/client.json";
const CIMD_DOCUMENT = {
  client_id: CIMD_CLIENT_ID,
  client_name: "Metadata Client",
  redirect_uris: ["http://localhost:33418/callback"],
  grant_types: ["authorization_code", "refresh_token"],
  response_types: ["code"],
  token_endpoint_auth_method: "none",
};

export default defineConfig({
  test: {
    // Vitest's default (one fewer than the CPUs) runs one file at a time on a 2-CPU machine, though a
    // workers file mostly waits on workerd: two at a time took the suite from about 750 s to 500 s there.
    maxWorkers: Math.max(2, availableParallelism()),
    // The Worker logs one JSON line per call (see docs/deploy.md): kept out of the test output, where they
    // would bury the results (tests that check them spy on console.log, which still sees every line).
    onConsoleLog: (log) => !log.startsWith('{"ts":'),
    projects: [
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            // OAUTH_KV switches OAuth on (docs/oauth.md): tests run the server as a deployment that offers it.
            // outboundService stands in for the internet: it serves the one client metadata document the OAuth tests use.
            miniflare: {
              bindings: { AUTH_MODE: "token", AUTH_SECRET: "test-secret-for-vitest-only" },
              kvNamespaces: ["OAUTH_KV"],
              outboundService: (request: Request) =>
                request.url === CIMD_CLIENT_ID
                  ? Response.json(CIMD_DOCUMENT, { headers: { "cache-control": "no-store" } })
                  : new Response("not found", { status: 404 }),
            },
          }),
        ],
        // The first request of a test file pays for transforming the module graph (seconds); later ones take ms.
        test: {
          name: "workers",
          include: ["src/**/*.test.ts", "test/**/*.test.ts"],
          exclude: [E2E_TESTS, "**/node_modules/**"],
          testTimeout: 30_000,
          // Pending workspace alarms run before each file ends, not during its teardown (see the file).
          setupFiles: ["test/helpers/settle-alarms.ts"],
          // The Worker bundles the MCP App's document (web/dist-app/app.html): built once, before any file.
          globalSetup: ["test/helpers/build-app.ts"],
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: "e2e",
          include: [E2E_TESTS],
          environment: "node",
          // A view waits at most 20 s and the 5,000-node graph 60 s (see the test); setup starts wrangler
          // (with the viewer's build) and Chromium and seeds through MCP.
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          // After the workers project: on a 2-CPU machine a browser and a second workerd next to the
          // workers suite would slow both and make the browser's timeouts depend on the suite.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
