// Hardening, attacked through the real endpoint: arguments nested past MAX_JSON_DEPTH are refused as
// INVALID_INPUT naming the field before validation or the call (they used to exhaust the stack crossing
// the RPC boundary: INTERNAL_ERROR), and an error never echoes its input without bound.

import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "../src/shared/limits";
import { MAX_BATCH_ANSWER_BYTES, MAX_BATCH_ITEMS } from "../src/worker/batch";
import { as, failure, ok, PROTOCOL, token } from "./helpers/mcp";

/** POSTs `body` as it is to /mcp on the full toolset, with a token and any extra headers. */
async function post(body: string, headers: Record<string, string> = {}): Promise<Response> {
  return exports.default.fetch(
    new Request("http://localhost/mcp?toolset=full", {
      method: "POST",
      headers: {
        host: "localhost",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${await token()}`,
        ...headers,
      },
      body,
    }),
  );
}

/** A tools/call whose `arguments` are given as JSON text (a value too deep for JSON.stringify to build). */
async function rawCall(name: string, argumentsJson: string): Promise<{ status: number; text: string }> {
  const meta = `{"io.modelcontextprotocol/protocolVersion":"${PROTOCOL}","io.modelcontextprotocol/clientInfo":{"name":"tests","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`;
  const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${name}","arguments":${argumentsJson},"_meta":${meta}}}`;
  const response = await post(body, { "mcp-protocol-version": PROTOCOL, "mcp-method": "tools/call", "mcp-name": name });
  return { status: response.status, text: await response.text() };
}

const nested = (levels: number) => `${"[".repeat(levels)}1${"]".repeat(levels)}`;

describe("hardening", () => {
  it("refuses arguments nested deeper than MAX_JSON_DEPTH, naming the field, and stores nothing", async () => {
    const workspace = "hard/depth";
    for (const levels of [MAX_JSON_DEPTH + 1, 2_600, 50_000]) {
      const answer = await rawCall("notes_commit", `{"workspace":"${workspace}","content":"deep","meta":{"x":${nested(levels)}}}`);
      expect(answer.status).toBe(200);
      const error = JSON.parse(answer.text).result.structuredContent.error;
      expect(error, `${levels} levels`).toMatchObject({ code: "INVALID_INPUT", details: { fields: ["meta"], max_depth: MAX_JSON_DEPTH } });
      expect(error.recovery_hint).toContain(`${MAX_JSON_DEPTH} levels`);
    }
    // At the limit the call goes through (meta itself is level 1).
    const atLimit = await rawCall("notes_commit", `{"workspace":"${workspace}","content":"ok","meta":{"x":${nested(MAX_JSON_DEPTH - 2)}}}`);
    expect(JSON.parse(atLimit.text).result.isError).toBeFalsy();
    const shown = await ok("show", { workspace, doc: "notes" });
    expect(shown.entries.map((entry: { content: string }) => entry.content)).toEqual(["ok"]);
  });

  it("caps what an error echoes: a 100,000-character agent_id does not come back whole", async () => {
    const huge = "m".repeat(100_000);
    const error = await failure("notes_commit", { workspace: "hard/echo", content: "x", agent_id: huge });
    expect(error.code).toBe("FORBIDDEN");
    expect(error.message.length).toBeLessThanOrEqual(2_000);
    expect(JSON.stringify(error).length).toBeLessThan(4_000);
    expect(String(error.details?.given).length).toBeLessThanOrEqual(500);
    expect(String(error.details?.given).startsWith("mmm")).toBe(true);
  });
});

/** A JSON-RPC batch as a pre-2026 client sends it (batches were removed in 2026-07-28): the messages of its answer. */
async function batch(messages: Record<string, unknown>[]): Promise<{ status: number; bytes: number; answers: Record<string, any>[] }> {
  const response = await post(JSON.stringify(messages.map((message, index) => ({ jsonrpc: "2.0", id: index + 1, ...message }))));
  const text = await response.text();
  const bytes = new TextEncoder().encode(text).byteLength;
  if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
    const parsed = JSON.parse(text);
    return { status: response.status, bytes, answers: Array.isArray(parsed) ? parsed : [parsed] };
  }
  const answers = text
    .split("\n\n")
    .flatMap((event) => event.split("\n").filter((line) => line.startsWith("data: ")))
    .map((line) => JSON.parse(line.slice(6)));
  return { status: response.status, bytes, answers };
}

const list = { method: "tools/list", params: {} };
const note = (workspace: string, content: string) => ({
  method: "tools/call",
  params: { name: "notes_commit", arguments: { workspace, content } },
});

describe("JSON-RPC batches", () => {
  it("refuses a batch of more than MAX_BATCH_ITEMS messages whole, before anything runs", async () => {
    const workspace = "hard/batch-count";
    const refused = await batch(Array.from({ length: MAX_BATCH_ITEMS + 1 }, (_, i) => note(workspace, `n${i}`)));
    expect(refused.status).toBe(400);
    expect(refused.answers[0]?.error).toMatchObject({ code: -32600, data: { max_items: MAX_BATCH_ITEMS, items: MAX_BATCH_ITEMS + 1 } });
    expect((await ok("show", { workspace, doc: "notes" })).entries).toEqual([]);
  });

  it("bounds a batch's answer: a message past MAX_BATCH_ANSWER_BYTES becomes its own error, earlier writes' results kept", async () => {
    const workspace = "hard/batch-bytes";
    // How many full listings fit follows from one listing's size, measured here, so the test holds as the listing changes.
    const single = (await batch([list])).bytes;
    const fitting = Math.floor(MAX_BATCH_ANSWER_BYTES / single);
    expect(fitting).toBeGreaterThanOrEqual(2);
    expect(fitting).toBeLessThan(MAX_BATCH_ITEMS - 2);
    const messages = [list, list, note(workspace, "kept"), ...Array.from({ length: MAX_BATCH_ITEMS - 3 }, () => list)];
    const answered = await batch(messages);
    expect(answered.status).toBe(200);
    expect(answered.bytes).toBeLessThan(MAX_BATCH_ANSWER_BYTES + 10_000);
    // Messages are answered as they complete: what is bounded is the order they are sent in.
    const byId = new Map(answered.answers.map((answer) => [answer.id as number, answer]));
    expect([...byId.keys()].sort((a, b) => a - b)).toEqual(messages.map((_, index) => index + 1));
    expect(byId.get(3)?.result.structuredContent.entry.content).toBe("kept");
    const lists = [...byId.entries()].filter(([id]) => id !== 3).map(([, answer]) => answer);
    const whole = lists.filter((answer) => answer?.result?.tools?.length > 100);
    const cut = lists.filter((answer) => answer?.error !== undefined);
    // The note's few hundred bytes may cost one listing its place.
    expect(whole.length === fitting || whole.length === fitting - 1).toBe(true);
    expect(cut).toHaveLength(lists.length - whole.length);
    for (const answer of cut) expect(answer?.error).toMatchObject({ code: -32000, data: { max_bytes: MAX_BATCH_ANSWER_BYTES } });
    expect((await ok("show", { workspace, doc: "notes" })).entries.map((entry: { content: string }) => entry.content)).toEqual(["kept"]);
  });
});

describe("opaque cursors are signed", () => {
  it("refuses an edited, unsigned or foreign workspace_export cursor as INVALID_CURSOR; an unchanged one continues", async () => {
    const admin = await as("root", { role: "admin" });
    for (const workspace of ["hard/cursor", "hard/cursor-other"]) {
      for (let i = 0; i < 6; i++) await ok("notes_commit", { workspace, content: `note ${i} ${"z".repeat(900)}` });
    }
    const first = await ok("workspace_export", { workspace: "hard/cursor", max_chars: 6_000 }, admin);
    const cursor = first.cursor as string;
    const [payload, mac] = cursor.split(".") as [string, string];
    const decoded = JSON.parse(atob(payload.replaceAll("-", "+").replaceAll("_", "/")));
    const forge = (fields: Record<string, unknown>) =>
      `${btoa(JSON.stringify({ ...decoded, ...fields }))
        .replaceAll("+", "-")
        .replaceAll("/", "_")
        .replace(/=+$/, "")}.${mac}`;
    const other = await ok("workspace_export", { workspace: "hard/cursor-other", max_chars: 6_000 }, admin);
    for (const [what, bad] of [
      ["t: 99", forge({ at: "table", t: 99 })],
      ["k: [1, 2, 3]", forge({ at: "rows", t: 1, k: [1, 2, 3] })],
      ["at: trailer", forge({ at: "trailer" })],
      ["no mac", payload],
      ["another workspace's cursor", (other.cursor as string).replace(/^[^.]*/, payload.slice(0, 10))],
      ["garbage", "!!!.???"],
    ] as const) {
      const error = await failure("workspace_export", { workspace: "hard/cursor", max_chars: 6_000, cursor: bad }, admin);
      expect(error.code, what).toBe("INVALID_CURSOR");
      expect(error.recovery_hint, what).toContain("unchanged");
    }
    // The same payload under the other workspace's key does not verify either.
    const theirs = await failure("workspace_export", { workspace: "hard/cursor-other", max_chars: 6_000, cursor }, admin);
    expect(theirs.code).toBe("INVALID_CURSOR");
    const next = await ok("workspace_export", { workspace: "hard/cursor", max_chars: 6_000, cursor }, admin);
    expect(next.first_line).toBe(first.last_line + 1);
  });
});
