/**
 * The portals suite: what the portal toolset costs over the flat one, call for call. It seeds one small
 * workspace `bench/portals` (see `portals-seed.ts`), checks one answer of every op, then samples the
 * pairs of `portals-measure.ts` in rotated rounds with every answer checked.
 *
 * The measured writes (`notes_commit` and `vcs notes.commit`) name `doc` (WRITE_DOC on `main`). Without
 * it they would go to the focused task's notes, which the snapshot reads, and the flat snapshot (no
 * budget: every section at its full size) and the portal one (the portal profile's smaller sections)
 * would then read different amounts as the run goes on. With it, no measured read sees a measured write,
 * and both sides of every read pair return the same items, untrimmed.
 */
import { log } from "../lib/dev-server.ts";
import { createMcpClient, type McpClient } from "../lib/mcp-http.ts";
import { measurePortals, PORTAL_OPS, type PortalsTarget, portalsOpSet } from "./portals-measure.ts";
import type { PortalsResult } from "./portals-report.ts";
import { checkPortals, seedPortals } from "./portals-seed.ts";
import { summarize } from "./sampling.ts";

export const PORTALS_WORKSPACE = "bench/portals";

export interface PortalsSuiteOptions {
  warmup: number;
  samples: number;
}

/** `flat` is the run's client on `?toolset=full`; the suite makes its own on `?toolset=portals`, for the same agent. */
export async function runPortalsSuite(
  flat: McpClient,
  server: { base: string; agent: string; signal: AbortSignal },
  options: PortalsSuiteOptions,
): Promise<PortalsResult> {
  const portal = createMcpClient({
    endpoint: `${server.base}/mcp?toolset=portals`,
    agentId: server.agent,
    clientName: "bench",
    signal: server.signal,
  });
  const target: PortalsTarget = { flat, portal, mcpUrl: `${server.base}/mcp`, agent: server.agent };
  const workspace = PORTALS_WORKSPACE;
  log(`seeding ${workspace}: a plan, a focused task with steps, notes`);
  const { world, seeding } = await seedPortals(flat, workspace, server.agent);
  log(`  ${(seeding.ms / 1000).toFixed(1)} s in ${seeding.calls} calls`);
  const answers = await checkPortals(target, world);
  log(
    `  checked: every op answers as expected; tools/list ${answers.list_portals.tools} portals in ${answers.list_portals.body_chars} chars, ` +
      `${answers.list_full.tools} flat tools in ${answers.list_full.body_chars} chars`,
  );
  log(`measuring ${workspace}: ${options.warmup} warmup + ${options.samples} sample rounds of ${PORTAL_OPS.length} ops`);
  const times = await measurePortals(target, world, options.warmup, options.samples);
  return { workspace, world, seeding, answers, ops: summarize(portalsOpSet(), times) };
}
