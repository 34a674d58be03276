// Resources (docs/resources.md) through the real MCP endpoint: every ref `open` accepts is the resource
// branchmind://<workspace>/<ref>; the list offers what an agent would attach (pinned cards, the caller's
// focus, recent notes), paged by workspace; a read is `open` as the caller (roles, lanes, lock, budget).
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { as, ok, rpc, token } from "./helpers/mcp";

interface RpcAnswer {
  result?: Record<string, any>;
  error?: { code: number; message: string; data?: { error?: { code: string } } };
}

async function call(
  method: string,
  params: Record<string, unknown>,
  options: { path?: string; bearer?: string | null } = {},
): Promise<RpcAnswer> {
  // Protocol 2026-07-28 names what a request is about in a header too (for resources/read, its URI).
  const named = method === "resources/read" ? { headers: { "mcp-name": String(params.uri) } } : {};
  const response = await rpc(method, params, {
    path: options.path ?? "/mcp",
    ...(options.bearer ? { bearer: options.bearer } : {}),
    ...named,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as RpcAnswer;
}

const uri = (workspace: string, ref: string) => `branchmind://${encodeURIComponent(workspace)}/${encodeURIComponent(ref)}`;

/** The workspace's summary reaches the Directory (its coalesced push), so workspace lists name it. */
async function pushSummary(workspace: string) {
  expect(await runDurableObjectAlarm(env.WORKSPACES.getByName(workspace))).toBe(true);
}

/** A workspace with a pinned card, alice's focus on a task, and notes. */
async function seeded(workspace: string) {
  const alice = await as("alice", { workspaces: [workspace] });
  await ok("notes_commit", { workspace, content: "first note", title: "First" }, alice);
  await ok("notes_commit", { workspace, content: "second note", title: "Second" }, alice);
  await ok(
    "think_card",
    { workspace, card: { id: "CARD-DB", type: "decision", title: "Use SQLite", text: "one DO per workspace" } },
    alice,
  );
  await ok("think_pin", { workspace, card_id: "CARD-DB" }, alice);
  const plan = await ok("tasks_create", { workspace, title: "Resources" }, alice);
  const task = await ok("tasks_create", { workspace, parent: plan.id, title: "Ship resources", steps: [{ title: "list" }] }, alice);
  await ok("tasks_focus_set", { workspace, target: task.id }, alice);
  await pushSummary(workspace);
  return { alice, task: task.id as string };
}

describe("resource templates", () => {
  it("name one template per ref kind, under the branchmind:// scheme, then the app's document", async () => {
    const answer = await call("resources/templates/list", {});
    const templates = answer.result?.resourceTemplates as { uriTemplate: string; name: string; mimeType: string }[];
    expect(templates.map((template) => template.name)).toEqual([
      "card",
      "entry",
      "task",
      "plan",
      "step",
      "job",
      "anchor",
      "code",
      "record",
      "record_version",
      "app",
    ]);
    expect(templates.at(-1)).toMatchObject({ uriTemplate: "ui://branchmind/app", mimeType: "text/html;profile=mcp-app" });
    for (const template of templates.slice(0, -1)) {
      expect(template.uriTemplate.startsWith("branchmind://{workspace}/")).toBe(true);
      expect(template.mimeType).toBe("application/json");
    }
  });

  it("filled in as a client fills them (percent-encoded values), read what open reads", async () => {
    const workspace = "res/template";
    const { alice, task } = await seeded(workspace);
    const answer = await call("resources/read", { uri: `branchmind://${encodeURIComponent(workspace)}/TASK-${task.slice(5)}` }, alice);
    const text = answer.result?.contents?.[0]?.text as string;
    expect(JSON.parse(text)).toMatchObject({ kind: "task", ref: task });
  });
});

describe("resources/list", () => {
  it("on a locked URL offers the pinned card, the caller's focus and recent notes of that workspace", async () => {
    const workspace = "res/locked";
    const { alice, task } = await seeded(workspace);
    const answer = await call("resources/list", {}, { ...alice, path: `/w/${workspace}/mcp` });
    const resources = answer.result?.resources as { uri: string; name: string; title?: string; description: string; mimeType: string }[];
    const byName = new Map(resources.map((resource) => [resource.name, resource]));
    expect(byName.get("CARD-DB")).toMatchObject({ uri: uri(workspace, "CARD-DB"), title: "Use SQLite", mimeType: "application/json" });
    expect(byName.get(task)?.description).toContain("your focus");
    const notes = resources.filter((resource) => resource.description.startsWith("recent note"));
    expect(notes.map((note) => note.title)).toEqual(["Second", "First"]);
    expect(answer.result?.nextCursor).toBeUndefined();
    // Every listed resource reads.
    for (const resource of resources) {
      const read = await call("resources/read", { uri: resource.uri }, { ...alice, path: `/w/${workspace}/mcp` });
      expect(read.error, resource.uri).toBeUndefined();
    }
  });

  it("on /mcp pages through the workspaces the token grants, one per page", async () => {
    const workspace = "paged/a";
    await seeded(workspace);
    const alice = await as("alice", { workspaces: ["paged/**"] });
    await ok("notes_commit", { workspace: "paged/b", content: "other workspace" }, alice);
    await pushSummary("paged/b");
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const answer = await call("resources/list", cursor === undefined ? {} : { cursor }, alice);
      for (const resource of answer.result?.resources ?? []) seen.push(resource.uri);
      cursor = answer.result?.nextCursor;
      if (cursor === undefined) break;
    }
    expect(cursor).toBeUndefined();
    expect(seen).toContain(uri(workspace, "CARD-DB"));
    expect(seen).toContain(uri("paged/b", "notes@1"));
  });

  it("offers another agent no focus of alice's, and a token without the workspace nothing of it", async () => {
    const workspace = "res/others";
    const { task } = await seeded(workspace);
    const bob = await as("bob", { workspaces: [workspace] });
    const bobs = await call("resources/list", {}, bob);
    const names = ((bobs.result?.resources ?? []) as { name: string }[]).map((resource) => resource.name);
    expect(names).toContain("CARD-DB");
    expect(names).not.toContain(task);
    const stranger = await as("carol", { workspaces: ["elsewhere/*"] });
    const none = await call("resources/list", {}, stranger);
    expect(JSON.stringify(none.result)).not.toContain(encodeURIComponent(workspace));
  });
});

describe("resources/read", () => {
  it("answers open's JSON under the portal budget, with the URI it was asked", async () => {
    const workspace = "res/read";
    const { alice } = await seeded(workspace);
    const asked = uri(workspace, "CARD-DB");
    const answer = await call("resources/read", { uri: asked }, alice);
    const content = answer.result?.contents?.[0];
    expect(content).toMatchObject({ uri: asked, mimeType: "application/json" });
    const opened = JSON.parse(content.text);
    expect(opened).toMatchObject({ kind: "card", card: { id: "CARD-DB", title: "Use SQLite" } });
    expect(opened.budget?.max_chars).toBe(6000);
  });

  it("keeps drafts in their lane, and the token's workspaces and the URL's lock decide", async () => {
    const workspace = "res/lanes";
    const alice = await as("alice", { workspaces: [workspace] });
    await ok("think_card", { workspace, lane: "agent", card: { id: "CARD-DRAFT", type: "hypothesis", title: "Draft" } }, alice);
    expect((await call("resources/read", { uri: uri(workspace, "CARD-DRAFT") }, alice)).error).toBeUndefined();
    const bob = await as("bob", { workspaces: [workspace] });
    const hidden = await call("resources/read", { uri: uri(workspace, "CARD-DRAFT") }, bob);
    expect(hidden.error).toMatchObject({ code: -32602, data: { error: { code: "UNKNOWN_ID" } } });
    const stranger = await as("carol", { workspaces: ["elsewhere/*"] });
    const forbidden = await call("resources/read", { uri: uri(workspace, "CARD-DRAFT") }, stranger);
    expect(forbidden.error?.data?.error?.code).toBe("FORBIDDEN");
    const locked = await call("resources/read", { uri: uri(workspace, "CARD-DRAFT") }, { ...alice, path: "/w/other/mcp" });
    expect(locked.error?.code).toBe(-32602);
  });

  it("answers a URI that is not ours, or names nothing, with -32602 and never empty contents", async () => {
    for (const bad of ["test://nonexistent", "branchmind://res%2Fnone/CARD-NOPE", "branchmind://%E0%A4%A/x", "branchmind:///CARD-1"]) {
      const answer = await call("resources/read", { uri: bad }, { bearer: await token() });
      expect(answer.result, bad).toBeUndefined();
      expect(answer.error?.code, bad).toBe(-32602);
    }
  });
});

describe("capabilities", () => {
  it("declare resources and prompts without subscriptions or change notifications", async () => {
    const answer = await call("server/discover", {});
    const capabilities = (answer.result?.capabilities ?? {}) as Record<string, unknown>;
    expect(capabilities.resources).toEqual({ subscribe: false, listChanged: false });
    expect(capabilities.prompts).toEqual({ listChanged: false });
  });
});
