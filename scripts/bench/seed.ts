/**
 * Puts a layout into a fresh workspace through the bulk path (`workspace_import`, in batches under the
 * server's limits), times it, and checks that `show` returns exactly the page the layout implies, so a
 * benchmark never measures a store that is not what it claims.
 */
import { performance } from "node:perf_hooks";
import { log } from "../lib/dev-server.ts";
import type { Json, McpClient } from "../lib/mcp-http.ts";
import { expectedTail, type ImportOp, type Layout, PAGE_LIMIT } from "./layout.ts";

/** Bulk import limits of the server: ops per call, and a body size safely under its 1 MiB cap. */
const MAX_OPS_PER_IMPORT = 2_000;
const MAX_IMPORT_BODY_BYTES = 900_000;

export interface Seeding {
  ms: number;
  calls: number;
  notes: number;
  branches: number;
  notes_per_s: number;
  max_call_ms: number;
}

function importBatches(ops: ImportOp[]): ImportOp[][] {
  const batches: ImportOp[][] = [];
  let batch: ImportOp[] = [];
  let bytes = 0;
  for (const op of ops) {
    const opBytes = Buffer.byteLength(JSON.stringify(op)) + 1;
    if (batch.length > 0 && (batch.length >= MAX_OPS_PER_IMPORT || bytes + opBytes > MAX_IMPORT_BODY_BYTES)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(op);
    bytes += opBytes;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

export async function seed(client: McpClient, workspace: string, layout: Layout): Promise<Seeding> {
  const batches = importBatches(layout.ops);
  let notes = 0;
  let branches = 0;
  let maxCall = 0;
  const started = performance.now();
  for (const [index, ops] of batches.entries()) {
    const { ms, value } = await client.callTool("workspace_import", { workspace, ops });
    const imported = value as { branches_created: number; notes_imported: number; first_seq: number | null };
    if (index === 0 && imported.first_seq !== 1) {
      throw new Error(`workspace ${workspace} is not fresh: its first imported seq is ${imported.first_seq}`);
    }
    notes += imported.notes_imported;
    branches += imported.branches_created;
    maxCall = Math.max(maxCall, ms);
    if ((index + 1) % 10 === 0 || index === batches.length - 1) {
      log(`  seeded ${notes.toLocaleString("en-US")} / ${layout.notes.toLocaleString("en-US")} notes`);
    }
  }
  const ms = performance.now() - started;
  if (notes !== layout.notes || branches !== layout.branches) {
    throw new Error(
      `seeding ${workspace}: imported ${notes} notes and ${branches} branches, expected ${layout.notes} and ${layout.branches}`,
    );
  }
  return { ms, calls: batches.length, notes, branches, notes_per_s: notes / (ms / 1000), max_call_ms: maxCall };
}

/** `show` must return exactly the page the layout implies: proves the cutoffs are honoured. */
export async function verifyPage(client: McpClient, workspace: string, layout: Layout, branch: string): Promise<void> {
  let value: Json;
  try {
    value = (await client.callTool("show", { workspace, branch, doc: "notes", limit: PAGE_LIMIT })).value;
  } catch (error) {
    throw new Error(`show on branch ${branch} of ${workspace}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const entries = (value.entries ?? []) as { seq: number }[];
  const got = entries.map((entry) => entry.seq);
  const want = expectedTail(layout, branch, PAGE_LIMIT);
  if (got.length !== want.length || got.some((seq, i) => seq !== want[i])) {
    throw new Error(`show ${workspace} ${branch}: expected seqs [${want.join(", ")}], got [${got.join(", ")}]`);
  }
}
