/**
 * What the local stack itself can carry, measured by the load test before its agents start, at the
 * agents' concurrency: how many `GET /health` requests (answered by the Worker alone: no MCP, no
 * Durable Object) the server answers per second, and then, side by side on the hot workspace, how many
 * `ping` calls (the no-op command through the whole stack: the write ceiling) and how many acknowledged
 * writes (`notes_commit`, each with an idempotency key, as the agents write notes). Ping and write
 * phases alternate for CEILING_ROUNDS rounds so the machine's drift falls on both; each rate is the
 * median of its rounds. The writes go to a document of their own (CEILING_DOC), and are read back: every
 * acknowledged one exactly once.
 */
import { performance } from "node:perf_hooks";
import { statsOf } from "../bench/stats.ts";
import { type Json, type McpClient, requestSignal, timedFetch } from "../lib/mcp-http.ts";
import { pageShow } from "./verify.ts";

/** Length of one phase: long enough for a stable rate (hundreds of calls), short next to the run itself. */
export const CEILING_SECONDS = 3;
/**
 * Alternating ping and write phases: an odd count, so each median is one phase's rate. Three rounds of
 * 2 s gave single-round ratios from 0.65 to 0.88 in one run; five of 3 s steady the medians.
 */
export const CEILING_ROUNDS = 5;
/** The hot workspace's document the ceiling's writes go to, apart from the agents' `notes`. */
export const CEILING_DOC = "ceiling";

export interface Ceiling {
  health_per_s: number;
  /** Median of the ping phases. */
  ping_per_s: number;
  /** Median of the write phases: acknowledged `notes_commit` per second. */
  write_per_s: number;
  /** write_per_s / ping_per_s. */
  write_ratio: number;
  concurrency: number;
  rounds: { ping_per_s: number; write_per_s: number }[];
  /** Writes acknowledged in the write phases, and how many of them were read back (each once). */
  writes_acked: number;
  writes_found: number;
  writes_duplicated: number;
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
  let written = 0;
  const markers = new Set<string>();
  const write = async (): Promise<void> => {
    const marker = `ceiling-${++written}`;
    const args: Json = { workspace, branch: "main", doc: CEILING_DOC, content: `${marker} note body`, idempotency_key: marker };
    await client.callTool("notes_commit", args);
    markers.add(marker);
  };
  const healthPerS = await rate(concurrency, health);
  const rounds: Ceiling["rounds"] = [];
  for (let round = 0; round < CEILING_ROUNDS; round++) {
    const pingPerS = await rate(concurrency, () => client.callTool("ping", { workspace }));
    rounds.push({ ping_per_s: pingPerS, write_per_s: await rate(concurrency, write) });
  }
  const found = new Map<string, number>();
  for (const entry of await pageShow(client, workspace, CEILING_DOC)) {
    const marker = String(entry.content ?? "").split(" ")[0] ?? "";
    found.set(marker, (found.get(marker) ?? 0) + 1);
  }
  const pingPerS = statsOf(rounds.map((r) => r.ping_per_s)).median_ms;
  const writePerS = statsOf(rounds.map((r) => r.write_per_s)).median_ms;
  return {
    health_per_s: healthPerS,
    ping_per_s: pingPerS,
    write_per_s: writePerS,
    write_ratio: writePerS / pingPerS,
    concurrency,
    rounds,
    writes_acked: markers.size,
    writes_found: [...markers].filter((marker) => (found.get(marker) ?? 0) >= 1).length,
    writes_duplicated: [...found.values()].filter((count) => count > 1).length,
  };
}
