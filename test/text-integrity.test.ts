// End-to-end: every stored string reads back identical through the real MCP endpoint. Every control
// character (U+0000–U+001F, U+007F) goes through the text fields of notes, cards, plans and tasks,
// records and jobs, and comes back whole from every read: show, open, log, export, diff,
// workspace_export and the capability's own reads; cut reads (SQLite's text `substr`/`length` stop
// at a NUL) stay bounded and say when they cut. Then the pure helpers of src/shared/stored-text.ts:
// decoding a byte-cut prefix, and finding lone UTF-16 surrogates (which SQLite would store as U+FFFD).
import { describe, expect, it } from "vitest";
import { MIN_BUDGET_CHARS } from "../src/shared/limits";
import { decodePrefix, illFormedError, illFormedFields, prefixSql } from "../src/shared/stored-text";
import { as, callTool, ok, type RpcOptions } from "./helpers/mcp";

/** U+0000 to U+001F and U+007F, in order. */
const CONTROLS = `${Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)).join("")}\u007f`;
/** Starts with a NUL (a text `substr` would read nothing) and ends with DEL; no edge a `trim()` removes. */
const TEXT = `${CONTROLS}mid ünï 🙂${CONTROLS}`;

type Row = unknown[];

async function admin(): Promise<RpcOptions> {
  return as("alice", { role: "admin" });
}

/** The rows of `table` in a workspace_export that fits one page. */
async function exportedRows(workspace: string, options: RpcOptions, table: string): Promise<Row[]> {
  const page = await ok("workspace_export", { workspace, max_chars: 200_000 }, options);
  expect(page.done).toBe(true);
  const lines = (page.jsonl as string)
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as { t?: string; r?: Row });
  return lines.filter((line) => line.t === table).map((line) => line.r as Row);
}

/** How many values of the exported rows of `table` are exactly TEXT. */
async function exportedCount(workspace: string, options: RpcOptions, table: string): Promise<number> {
  return (await exportedRows(workspace, options, table)).flat().filter((value) => value === TEXT).length;
}

describe("control characters read back whole", () => {
  it("notes: notes_commit, show, open, log, export, diff and workspace_export", async () => {
    const workspace = "text/notes";
    const alice = await admin();
    const entry = (await ok("notes_commit", { workspace, content: TEXT, title: TEXT }, alice)).entry;
    expect(entry).toMatchObject({ content: TEXT, title: TEXT });

    const shown = await ok("show", { workspace, doc_kind: "notes" }, alice);
    expect(shown.entries).toHaveLength(1);
    expect(shown.entries[0]).toMatchObject({ seq: entry.seq, content: TEXT, title: TEXT });

    const opened = await ok("open", { workspace, id: `notes@${entry.seq}` }, alice);
    expect(opened.entry).toMatchObject({ content: TEXT, title: TEXT });
    expect(opened).not.toHaveProperty("content_truncated");

    const log = await ok("log", { workspace }, alice);
    expect(log.commits[0]).toMatchObject({ seq: entry.seq, message: TEXT, preview: TEXT });

    const exported = await ok("export", { workspace }, alice);
    expect(exported.notes.entries[0]).toMatchObject({ content: TEXT, title: TEXT });

    await ok("branch_create", { workspace, name: "side" }, alice);
    const side = (await ok("notes_commit", { workspace, branch: "side", content: TEXT }, alice)).entry;
    const diff = await ok("diff", { workspace, from: "main", to: "side" }, alice);
    expect(diff.entries.map((e: { seq: number; content: string }) => [e.seq, e.content])).toEqual([[side.seq, TEXT]]);

    // content and title of both notes: the export was whole before, and stays so.
    expect(await exportedCount(workspace, alice, "doc_entries")).toBe(3);
  });

  it("cards, plans and tasks: think_card, tasks_create, open and workspace_export", async () => {
    const workspace = "text/cards-tasks";
    const alice = await admin();
    await ok("think_card", { workspace, card: { id: "CARD-1", type: "note", title: TEXT, text: TEXT } }, alice);
    expect((await ok("open", { workspace, id: "CARD-1" }, alice)).card).toMatchObject({ title: TEXT, text: TEXT });
    const trace = await ok("show", { workspace, doc_kind: "trace" }, alice);
    expect(trace.entries.at(-1)).toMatchObject({ title: TEXT, content: TEXT });

    const plan = await ok("tasks_create", { workspace, title: TEXT, description: TEXT }, alice);
    const task = await ok("tasks_create", { workspace, parent: plan.id, title: TEXT, description: TEXT }, alice);
    for (const id of [plan.id, task.id]) {
      expect((await ok("open", { workspace, id }, alice)).target).toMatchObject({ id, title: TEXT, description: TEXT });
    }
    expect(await exportedCount(workspace, alice, "tasks")).toBe(4);
    expect(await exportedCount(workspace, alice, "graph_versions")).toBeGreaterThanOrEqual(2);
  });

  it("records: create_record, get_record_ref, activate and workspace_export", async () => {
    const workspace = "text/records";
    const alice = await admin();
    const created = await ok("create_record", { workspace, type: "note", title: TEXT, summary: TEXT, body: TEXT }, alice);
    expect(created.record).toMatchObject({ title: TEXT, summary: TEXT, body: TEXT });
    expect(await ok("get_record_ref", { workspace, id: created.record.id }, alice)).toMatchObject({ title: TEXT, summary: TEXT });
    const listed = await ok("list_records", { workspace }, alice);
    expect(listed.records[0]).toMatchObject({ title: TEXT, summary: TEXT });
    const activated = await ok("activate", { workspace, id: created.record.id, session_id: created.session_id }, alice);
    expect(activated.context.target).toMatchObject({ title: TEXT, summary: TEXT, body: TEXT });
    expect(await exportedCount(workspace, alice, "records")).toBe(3);
  });

  it("jobs: the prompt, its length and event messages, whole and cut", async () => {
    const workspace = "text/jobs";
    const alice = await admin();
    const created = await ok("jobs_create", { workspace, title: "Controls", prompt: TEXT }, alice);
    const id = created.job.id as string;
    const claimed = await ok("jobs_claim", { workspace, job: id }, alice);
    expect(claimed.job).toMatchObject({ prompt: TEXT, prompt_chars: [...TEXT].length });
    await ok("jobs_report", { workspace, job: id, claim_revision: claimed.claim_revision, message: TEXT }, alice);

    const opened = await ok("open", { workspace, id }, alice);
    expect(opened.job).toMatchObject({ prompt: TEXT, prompt_chars: [...TEXT].length });
    expect(opened.job).not.toHaveProperty("prompt_truncated");
    const progress = opened.events.find((event: { type: string }) => event.type === "job_progress");
    expect(progress).toMatchObject({ message: TEXT });
    expect(progress).not.toHaveProperty("message_truncated");
    const listed = await ok("jobs_list", { workspace }, alice);
    expect(listed.jobs[0]).toMatchObject({ id });

    // Over the budget, a prompt that starts with a NUL is cut (to whole code points) and counted whole.
    const long = `\u0000${"x".repeat(5_000)}`;
    const big = await ok("jobs_create", { workspace, title: "Long", prompt: long }, alice);
    const cut = await ok("jobs_open", { workspace, job: big.job.id, max_chars: 3_000 }, alice);
    expect(cut.job).toMatchObject({ prompt_chars: long.length, prompt_truncated: true });
    expect(cut.job.prompt.length).toBeGreaterThan(1);
    expect(long.startsWith(cut.job.prompt)).toBe(true);
  });
});

describe("cut reads stay bounded and say so", () => {
  it("a long note with NULs opens cut, its prefix intact, and whole without a budget", async () => {
    const workspace = "text/cut";
    const alice = await admin();
    const long = `${CONTROLS}${"\u0000ab".repeat(2_000)}`;
    const entry = (await ok("notes_commit", { workspace, content: long }, alice)).entry;
    const cut = await ok("open", { workspace, id: `notes@${entry.seq}`, max_chars: MIN_BUDGET_CHARS }, alice);
    expect(cut.content_truncated).toBe(true);
    expect(cut.budget.used_chars).toBeLessThanOrEqual(MIN_BUDGET_CHARS);
    expect(long.startsWith(cut.entry.content)).toBe(true);
    const whole = await ok("open", { workspace, id: `notes@${entry.seq}`, max_chars: 100_000 }, alice);
    expect(whole.entry.content).toBe(long);
    expect(whole).not.toHaveProperty("content_truncated");
    const shown = await ok("show", { workspace, doc_kind: "notes", max_chars: 100_000 }, alice);
    expect(shown.entries[0].content).toBe(long);
  });

  it("cuts an astral text between code points, and says it was cut", async () => {
    const workspace = "text/astral";
    const alice = await admin();
    // 1,000 code points, 2,000 UTF-16 units: more than the 801 code points read under max_chars 800.
    const emoji = "🙂".repeat(1_000);
    const entry = (await ok("notes_commit", { workspace, content: emoji }, alice)).entry;
    const cut = await ok("open", { workspace, id: `notes@${entry.seq}`, max_chars: MIN_BUDGET_CHARS }, alice);
    expect(cut.content_truncated).toBe(true);
    expect(emoji.startsWith(cut.entry.content)).toBe(true);
    expect(cut.entry.content.isWellFormed()).toBe(true);
  });

  it("keeps a leading U+FEFF: content, not a byte-order mark", async () => {
    const workspace = "text/bom";
    const alice = await admin();
    for (const content of ["\ufeff\u0000starts with a BOM", "\ufeffa BOM and no NUL"]) {
      const entry = (await ok("notes_commit", { workspace, content }, alice)).entry;
      expect((await ok("show", { workspace, doc_kind: "notes", limit: 1 }, alice)).entries[0].content).toBe(content);
      expect((await ok("open", { workspace, id: `notes@${entry.seq}` }, alice)).entry.content).toBe(content);
      expect((await ok("log", { workspace, limit: 1 }, alice)).commits[0].preview).toBe(content);
    }
  });
});

describe("stored-text helpers", () => {
  const bytes = (text: string, count: number) => new TextEncoder().encode(text).slice(0, count).buffer;

  it("decodes a byte-cut prefix to whole code points and says whether it was cut", () => {
    expect(prefixSql("content", 3)).toBe("substr(CAST(content AS BLOB), 1, 13)");
    // 13 bytes of 2-byte characters end inside the 7th: the first 3 are shown, and the value goes on.
    expect(decodePrefix(bytes("é".repeat(10), 13), 3)).toEqual({ text: "ééé", cut: true });
    expect(decodePrefix(bytes("🙂🙂🙂🙂", 13), 3)).toEqual({ text: "🙂🙂🙂", cut: true });
    expect(decodePrefix(bytes("\u0000a\u0000", 13), 3)).toEqual({ text: "\u0000a\u0000", cut: false });
    expect(decodePrefix(bytes("\u0000a\u0000b", 13), 3)).toEqual({ text: "\u0000a\u0000", cut: true });
    expect(decodePrefix(bytes("\ufeffx", 13), 3)).toEqual({ text: "\ufeffx", cut: false });
    expect(decodePrefix(new ArrayBuffer(0), 0)).toEqual({ text: "", cut: false });
    expect(decodePrefix(bytes("abc", 1), 0)).toEqual({ text: "", cut: true });
    expect(decodePrefix(null, 3)).toBeNull();
    // The first `chars + 1` bytes are decoded first: enough for ASCII, the rest decoded only when short.
    expect(decodePrefix(bytes("abcdé", 13), 2)).toEqual({ text: "ab", cut: true });
    expect(decodePrefix(bytes("abcé", 13), 3)).toEqual({ text: "abc", cut: true });
    expect(decodePrefix(bytes("aébcd", 13), 1)).toEqual({ text: "a", cut: true });
    expect(decodePrefix(bytes("éa", 13), 3)).toEqual({ text: "éa", cut: false });
  });

  it("finds lone surrogates in values and keys, and names them in INVALID_INPUT", () => {
    const args = {
      content: "fine 🙂",
      title: "x\ud800y",
      steps: [{ title: "ok" }, { title: "\udc00" }],
      meta: { "k\udbff": "v", deep: ["🙂", "end\ud83d"] },
    };
    const fields = illFormedFields(args);
    expect(fields).toEqual(["title", "steps.1.title", "meta.k\ufffd", "meta.deep.1"]);
    expect(illFormedFields({ content: TEXT, title: "🙂 paired \ud83d\ude42" })).toEqual([]);
    const error = illFormedError("notes_commit", fields);
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.details).toEqual({ fields, ill_formed: 4 });
    expect(error.message).toContain("title, steps.1.title");
    expect(JSON.stringify(error).isWellFormed()).toBe(true);
  });
});

describe("lone surrogates are refused before anything runs", () => {
  it("answers INVALID_INPUT naming the field, writes nothing, and walks arguments nested however deep", async () => {
    const workspace = "text/surrogate";
    const refused = await callTool("notes_commit", { workspace, content: "x\ud800y", title: "t" });
    expect(refused.isError).toBe(true);
    const error = (refused.structuredContent as { error: { code: string; details: { fields: string[] } } }).error;
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.details.fields).toEqual(["content"]);
    await ok("notes_commit", { workspace, content: "kept" });
    expect((await ok("show", { workspace, doc: "notes" })).entries.map((entry: { content: string }) => entry.content)).toEqual(["kept"]);
    // A key deep inside meta: found without recursion (3,000 levels would overflow a recursive walk's paths).
    let meta: Record<string, unknown> = { "k\udbff": 1 };
    for (let level = 0; level < 3_000; level++) meta = { n: meta };
    expect(illFormedFields({ meta }).map((path) => path.split(".").length)).toEqual([3_002]);
  });
});
