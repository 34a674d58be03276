// What every connection is told, byte for byte, through the real endpoint: the tool listing of each
// toolset, the prompts, the resource templates, a resource list and a few answers that are built from
// the listings (help, schema.get, a flat read whose answer is checked against its listed output schema).
// Listings are built on first use, per toolset (a new isolate builds none: docs/benchmarks.md,
// "Startup"); these hashes were taken from the eagerly built listings, so building them lazily, in any
// order, must not change a byte. A listing changed on purpose (a description, a schema, a prompt)
// changes its hash: check the change is the one meant, then `npx vitest run test/listing-bytes.test.ts -u`.
import { describe, expect, it } from "vitest";
import { SURFACE_NAMES } from "../src/worker/surfaces/surfaces";
import { as, callTool, ok, rpc } from "./helpers/mcp";

const WORKSPACE = "listing/bytes";

/** Size and SHA-256 of a value's JSON: enough to tell any change, small enough to commit. */
async function fingerprint(value: unknown): Promise<string> {
  const text = JSON.stringify(value);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  const hex = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${text.length} chars, sha256 ${hex}`;
}

async function resultOf(method: string, params: Record<string, unknown>, path: string): Promise<unknown> {
  const response = await rpc(method, params, { path });
  expect(response.status).toBe(200);
  const message = (await response.json()) as { result?: unknown; error?: unknown };
  if (message.result === undefined) throw new Error(`${method} on ${path}: ${JSON.stringify(message.error)}`);
  return message.result;
}

/** One fingerprint per toolset, asked in the order given (the first ask of a toolset builds it). */
async function perToolset(method: string, order: readonly string[], params: Record<string, unknown> = {}) {
  const out: Record<string, string> = {};
  for (const toolset of order) out[toolset] = await fingerprint(await resultOf(method, params, `/mcp?toolset=${toolset}`));
  return Object.fromEntries(SURFACE_NAMES.map((toolset) => [toolset, out[toolset]]));
}

describe("listings and answers built from them, byte for byte", () => {
  it("answers a flat read before its toolset was listed, checked against the listed output schema", async () => {
    const answer = await callTool("branch_list", { workspace: WORKSPACE });
    expect(answer.isError).toBeUndefined();
    expect(await fingerprint(answer)).toMatchSnapshot();
  });

  it("lists each toolset's tools", async () => {
    // The largest first and the default last: no toolset's listing may depend on another built before it.
    expect(await perToolset("tools/list", ["full", "daily", "core", "portals"])).toMatchSnapshot();
  });

  it("lists the prompts and resource templates on every toolset", async () => {
    expect(await perToolset("prompts/list", SURFACE_NAMES)).toMatchSnapshot();
    expect(await perToolset("resources/templates/list", SURFACE_NAMES)).toMatchSnapshot();
  });

  it("lists a workspace's resources", async () => {
    const alice = await as("alice", { workspaces: [WORKSPACE] });
    await ok("think_card", { workspace: WORKSPACE, card: { id: "CARD-LIST", type: "decision", title: "Lazy listings" } }, alice);
    await ok("think_pin", { workspace: WORKSPACE, card_id: "CARD-LIST" }, alice);
    const path = `/w/${encodeURIComponent(WORKSPACE)}/mcp`;
    expect(await fingerprint(await resultOf("resources/list", {}, path))).toMatchSnapshot();
  });

  it("answers help and schema.get as before", async () => {
    expect(await fingerprint(await ok("help", {}))).toMatchSnapshot();
    const schema = await callTool("system", { op: "schema.get", args: { cmd: "vcs.notes.commit" } }, { path: "/mcp" });
    expect(await fingerprint(schema)).toMatchSnapshot();
  });
});
