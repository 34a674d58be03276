// End-to-end: secret redaction (issue 11) through the real MCP endpoint (toolset=full): notes, cards,
// records, task evidence and code slices are stored redacted with the SECRET_REDACTED warning, the
// secret lands in no table, replays return the first answer, ordinary text is untouched; and the
// REDACTION=off switch at the executor. Fake secrets are assembled from pieces (no credential-shaped
// literal in the source).
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { findCommand, WORKSPACE_HOOKS } from "../src/catalog/catalog";
import type { WorkspaceCommand } from "../src/commands/registry";
import { execute } from "../src/hosts/workspace/execute";
import { Db } from "../src/storage/db";
import { ok } from "./helpers/mcp";

const AWS_ID = ["AKIA", "Z7QW3ERT", "YU2IOPAS"].join("");
const GITHUB = ["ghp", "_", "aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0zC1234"].join("");
const PASSWORD = ["Tr0ub4", "dor-and-3"].join("");
const SHA256 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...digest].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Every row of every table of the workspace (the platform's own _cf_ tables aside), as one string. */
function storedText(workspace: string): Promise<string> {
  return runInDurableObject(env.WORKSPACES.getByName(workspace), (_instance, state) => {
    const db = new Db(state.storage.sql, state.storage);
    const tables = db.all<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'",
    );
    return tables.map(({ name }) => JSON.stringify(db.all(`SELECT * FROM "${name}"`))).join("\n");
  });
}

const warningOf = (answer: Record<string, any>) =>
  (answer.warnings as { code: string; message: string }[] | undefined)?.find((warning) => warning.code === "SECRET_REDACTED");

describe("redaction: writes are stored redacted, with a warning", () => {
  it("redacts a note, and show returns the marker; the secret is in no table", async () => {
    const workspace = "redaction/note";
    const written = await ok("notes_commit", { workspace, content: `deploy with key ${AWS_ID} today`, title: "deploy" });
    const warning = warningOf(written);
    expect(warning?.message).toContain("aws_access_key_id x1");
    expect(warning?.message).not.toContain(AWS_ID);
    const shown = await ok("show", { workspace, doc_kind: "notes" });
    expect(shown.entries.map((entry: { content: string }) => entry.content)).toEqual([
      "deploy with key [REDACTED:aws_access_key_id] today",
    ]);
    expect(await storedText(workspace)).not.toContain(AWS_ID);
  });

  it("redacts a card's fields and meta", async () => {
    const workspace = "redaction/card";
    const written = await ok("think_card", {
      workspace,
      card: { id: "H-auth", type: "hypothesis", title: "CI token works", text: `token ${GITHUB} passes`, meta: { api_key: PASSWORD } },
    });
    expect(warningOf(written)?.message).toContain("generic_secret x1, github_token x1");
    const query = await ok("think_query", { workspace, ids: ["H-auth"] });
    expect(query.cards[0]).toMatchObject({
      id: "H-auth",
      title: "CI token works",
      text: "token [REDACTED:github_token] passes",
      meta: { api_key: "[REDACTED:generic_secret]" },
    });
    const stored = await storedText(workspace);
    expect(stored).not.toContain(GITHUB);
    expect(stored).not.toContain(PASSWORD);
  });

  it("redacts a record's body, and a replay with the same idempotency_key returns the first answer", async () => {
    const workspace = "redaction/record";
    const args = {
      workspace,
      type: "note",
      title: "Database access",
      summary: "How the app reaches the database.",
      body: `DATABASE_URL=postgres://app:${PASSWORD}@db.internal/app\npassword=${PASSWORD}`,
      idempotency_key: "rec-1",
    };
    const first = await ok("create_record", args);
    expect(first.record.body).toBe(
      "DATABASE_URL=postgres://app:[REDACTED:url_password]@db.internal/app\npassword=[REDACTED:generic_secret]",
    );
    expect(warningOf(first)?.message).toContain("2 secrets were redacted");
    const replay = await ok("create_record", args);
    expect(replay).toEqual(first);
    const listed = await ok("list_records", { workspace });
    expect(listed.records.map((record: { id: string }) => record.id)).toEqual(["R001"]);
    expect(await storedText(workspace)).not.toContain(PASSWORD);
  });

  it("redacts task evidence (check lines and artifacts)", async () => {
    const workspace = "redaction/evidence";
    const plan = await ok("tasks_create", { workspace, title: "Ship" });
    const task = await ok("tasks_create", { workspace, parent: plan.id, title: "Deploy", steps: [{ title: "push" }] });
    const captured = await ok("tasks_evidence_capture", {
      workspace,
      task: task.id,
      path: "s:0",
      checks: [`CMD: AWS_ACCESS_KEY_ID=${AWS_ID} npm run deploy`],
      artifacts: [{ kind: "cmd_output", command: "npm run deploy", stdout: `using ${GITHUB}\ndone`, exit_code: 0 }],
    });
    expect(captured.captured).toMatchObject({ checks: 1, artifacts: 1, receipts: { CMD: 2, LINK: 0 } });
    expect(warningOf(captured)?.message).toContain("aws_access_key_id x1, github_token x1");
    const proofs = await runInDurableObject(env.WORKSPACES.getByName(workspace), (_instance, state) =>
      new Db(state.storage.sql, state.storage).all<{ body_json: string }>("SELECT body_json FROM task_proofs ORDER BY id"),
    );
    expect(proofs.map((row) => JSON.parse(row.body_json))).toEqual([
      { line: "CMD: AWS_ACCESS_KEY_ID=[REDACTED:aws_access_key_id] npm run deploy" },
      { kind: "cmd_output", command: "npm run deploy", stdout: "using [REDACTED:github_token]\ndone", exit_code: 0 },
    ]);
    const stored = await storedText(workspace);
    expect(stored).not.toContain(AWS_ID);
    expect(stored).not.toContain(GITHUB);
  });

  it("leaves ordinary text with hashes and ids untouched, with no warning", async () => {
    const workspace = "redaction/ordinary";
    const content = `CARD-12 supports STEP-0000000A (R001); sha256 ${SHA256}; commit 3b18e512dba79e4c8300dd08aeb37f8e728b8dad; token expired, rotate the secret.`;
    const written = await ok("notes_commit", { workspace, content });
    expect(written.warnings).toBeUndefined();
    const shown = await ok("show", { workspace, doc_kind: "notes" });
    expect(shown.entries[0].content).toBe(content);
  });
});

describe("redaction: code slices", () => {
  it("stores a slice redacted, hashes the redacted text, and checks an unchanged slice as fresh from its text", async () => {
    const workspace = "redaction/code";
    const text = `const region = "eu-west-1";\nconst keyId = "${AWS_ID}";\nexport { region, keyId };\n`;
    const redacted = 'const region = "eu-west-1";\nconst keyId = "[REDACTED:aws_access_key_id]";\nexport { region, keyId };';
    const attached = await ok("code_ref_attach", { workspace, path: "src/aws.ts", start_line: 1, end_line: 3, text });
    expect(attached).toMatchObject({ sha256: await sha256(redacted), lines: 3, created: true });
    expect(warningOf(attached)?.message).toContain("code_ref_check {text}");
    expect(await storedText(workspace)).not.toContain(AWS_ID);

    const fresh = await ok("code_ref_check", { workspace, ref: attached.ref, text });
    expect(fresh).toMatchObject({ stale: false, current_sha256: attached.sha256 });
    const opened = await ok("open", { workspace, id: attached.ref, current_text: text });
    expect(opened.warnings).toBeUndefined();
    const changed = await ok("code_ref_check", { workspace, ref: attached.ref, text: text.replace("eu-west-1", "us-east-1") });
    expect(changed.stale).toBe(true);
    // A sha256 the agent computed over the original text differs from the stored (redacted) one.
    const bySha = await ok("code_ref_check", { workspace, ref: attached.ref, sha256: await sha256(text.slice(0, -1)) });
    expect(bySha.stale).toBe(true);
  });
});

describe("redaction: the REDACTION switch at the executor", () => {
  const principal = { agent_id: "tester", workspaces: ["**"], role: "admin" as const, key_id: "test" };
  const notesCommit = findCommand("vcs.notes.commit");

  function commit(workspace: string, content: string, redaction: boolean | undefined) {
    return runInDurableObject(env.WORKSPACES.getByName(workspace), (_instance, state) => {
      const db = new Db(state.storage.sql, state.storage);
      const args = notesCommit?.input.parse({ content }) as Record<string, unknown>;
      const result = execute(
        db,
        WORKSPACE_HOOKS,
        { command: notesCommit as WorkspaceCommand, name: "vcs.notes.commit", args, principal, workspace, redaction },
        1_000,
      );
      const stored = db.all<{ content: string }>("SELECT content FROM doc_entries ORDER BY seq").map((row) => row.content);
      return { result, stored };
    });
  }

  it("redacts by default and stores text as sent when redaction is off", async () => {
    const on = await commit("redaction/switch-on", `key ${AWS_ID}`, undefined);
    expect(on.result).toMatchObject({ ok: true, value: { warnings: [expect.objectContaining({ code: "SECRET_REDACTED" })] } });
    expect(on.stored).toEqual(["key [REDACTED:aws_access_key_id]"]);

    const off = await commit("redaction/switch-off", `key ${AWS_ID}`, false);
    expect(off.result.ok).toBe(true);
    expect(off.result.ok && off.result.value.warnings).toBeUndefined();
    expect(off.stored).toEqual([`key ${AWS_ID}`]);
  });
});
