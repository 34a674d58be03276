/**
 * What the records suite measures, in the seeded project `bench/r<n>`: `ping` (the floor, same
 * workspace), `search_records` for a common word and for a rare one (default limit), `activate` of the
 * big record (1,000 children) in a fresh session, and for reference `activate` of a leaf record (the
 * same path, a bundle of the record and its parent), `get_record_ref` of the big record, and
 * `list_projects` (the Directory, one page of up to 500 under the audit profile). Every answer is checked on the fly against
 * the model (`records-seed.ts`).
 *
 * Activation: each sample is a real activation, as a new chat makes it: `activate {id}` without
 * session_id starts a session, loads the record and builds its bundle. The session is closed right
 * after, outside the timing, so no later sample sees another session holding the record (which would
 * add a conflict warning) and the project never has more than one open session. Re-activating in one
 * session would answer `already_loaded` but build the same bundle; it skips only the session start.
 */
import type { Call, McpClient } from "../lib/mcp-http.ts";
import type { ExpectedBundle, ExpectedSearch, SmallProject } from "./records-layout.ts";
import {
  type BundleShape,
  checkActivation,
  checkLeafActivation,
  checkProjects,
  checkRef,
  checkSearch,
  LIST_PROJECTS_ARGS,
} from "./records-seed.ts";
import { type OpSet, sampleRounds } from "./sampling.ts";

export const RECORD_OPS = ["ping", "search_common", "search_rare", "activate", "activate_leaf", "get_record_ref", "list_projects"] as const;
export type RecordOpName = (typeof RECORD_OPS)[number];

export interface RecordsWorld {
  workspace: string;
  common: ExpectedSearch;
  rare: ExpectedSearch;
  bundle: ExpectedBundle;
  /** A record with a parent and no children: its activation is the same path with an almost empty bundle. */
  leaf: { target: string; parent: string };
  projects: SmallProject[];
}

export function recordsOpSet(): OpSet<RecordOpName> {
  return {
    ops: RECORD_OPS,
    floor: "ping",
    // Outside the ratio target: the activation path without a bundle to build, a point read, and the
    // Directory's page (its target is its size).
    reference: ["activate_leaf", "get_record_ref", "list_projects"],
    labels: {
      ping: "ping (floor)",
      search_common: "search_records common word",
      search_rare: "search_records rare word",
      activate: "activate 1k-children record",
      activate_leaf: "activate leaf record",
      get_record_ref: "get_record_ref 1k-children record",
      list_projects: "list_projects limit=500",
    },
  };
}

/** One checked call of `op`; for activate, the bundle's shape too. */
export async function callRecordOp(client: McpClient, world: RecordsWorld, op: RecordOpName): Promise<Call & { bundle?: BundleShape }> {
  const { workspace } = world;
  switch (op) {
    case "ping":
      return client.callTool("ping", { workspace });
    case "search_common":
    case "search_rare": {
      const want = op === "search_common" ? world.common : world.rare;
      const result = await client.callTool("search_records", { workspace, query: want.word });
      checkSearch(`search_records "${want.word}" on ${workspace}`, result.value, want);
      return result;
    }
    case "activate": {
      const result = await client.callTool("activate", { workspace, id: world.bundle.target });
      const bundle = checkActivation(`activate ${world.bundle.target} on ${workspace}`, result.value, world.bundle);
      // Outside the timing: close the session so the next activation is alone with the record.
      await client.callTool("close_session", { workspace, session_id: result.value.session_id as string });
      return { ...result, bundle };
    }
    case "activate_leaf": {
      const result = await client.callTool("activate", { workspace, id: world.leaf.target });
      checkLeafActivation(`activate ${world.leaf.target} on ${workspace}`, result.value, world.leaf);
      await client.callTool("close_session", { workspace, session_id: result.value.session_id as string });
      return result;
    }
    case "get_record_ref": {
      const result = await client.callTool("get_record_ref", { workspace, id: world.bundle.target });
      checkRef(`get_record_ref ${world.bundle.target} on ${workspace}`, result.value, world.bundle);
      return result;
    }
    case "list_projects": {
      const result = await client.callTool("list_projects", { ...LIST_PROJECTS_ARGS });
      checkProjects("list_projects", result.value, world.projects);
      return result;
    }
  }
}

export function measureRecords(
  client: McpClient,
  world: RecordsWorld,
  warmup: number,
  samples: number,
): Promise<Record<RecordOpName, number[]>> {
  return sampleRounds(RECORD_OPS, (op) => callRecordOp(client, world, op), warmup, samples);
}
