/**
 * What the local stack itself can carry, measured by the load test before its agents start: how many
 * `GET /health` requests (answered by the Worker alone: no MCP, no Durable Object) and how many `ping`
 * calls (the no-op command through the whole stack) per second the server answers at the agents'
 * concurrency. Writes per second can be read against these: no call through `wrangler dev` can go
 * faster than `ping`, whatever the command does.
 */
import { performance } from "node:perf_hooks";
import { type McpClient, requestSignal, timedFetch } from "../lib/mcp-http.ts";

/** Long enough for a stable rate (hundreds of calls), short next to the run itself. */
export const CEILING_SECONDS = 3;

export interface Ceiling {
  health_per_s: number;
  ping_per_s: number;
  concurrency: number;
}

async function rate(concurrency: number, call: () => Promise<unknown>): Promise<number> {
  let done = 0;
  const started = performance.now();
  const end = started + CEILING_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        await call();
        done++;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

export async function measureCeiling(
  base: string,
  client: McpClient,
  workspace: string,
  concurrency: number,
  signal: AbortSignal,
): Promise<Ceiling> {
  const health = async (): Promise<void> => {
    const { response, text } = await timedFetch(`${base}/health`, { signal: requestSignal(signal) });
    if (response.status !== 200) throw new Error(`GET /health: HTTP ${response.status}: ${text.slice(0, 200)}`);
  };
  return {
    health_per_s: await rate(concurrency, health),
    ping_per_s: await rate(concurrency, () => client.callTool("ping", { workspace })),
    concurrency,
  };
}
