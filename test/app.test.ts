// The MCP App through the real endpoint (docs/app.md): the tool that opens it is listed on `portals` and
// `full` with the app's resource in `_meta.ui.resourceUri` (and not on `core` or `daily`), the default
// listing stays within its ceiling, the `ui://` resource is listed, named among the templates
// and read as one self-contained HTML document under its size cap, and `visualize` answers what the app
// needs to start. Every read it hands the app works as given, with the app's own arguments added beside
// `budget_profile`, on every toolset that lists it and on a locked URL.
import { describe, expect, it } from "vitest";
import { APP_MIME_TYPE, APP_RESOURCE_URI, MAX_APP_BYTES } from "../src/worker/app-resource";
import { MAX_PORTAL_LISTING_CHARS } from "../src/worker/surfaces/portal-definitions";
import { as, callTool, ok, type RpcOptions, rpc } from "./helpers/mcp";
import { planWithTask } from "./helpers/tasks-fixtures";

interface ListedTool {
  name: string;
  description: string;
  inputSchema: { properties: Record<string, unknown> };
  annotations: Record<string, unknown>;
  _meta?: { ui?: { resourceUri?: string } };
}

interface Read {
  tool: string;
  args: Record<string, unknown>;
  purpose: string;
}

async function resultOf<T>(
  method: string,
  params: Record<string, unknown>,
  options: RpcOptions = {},
): Promise<{ result: T; text: string }> {
  const response = await rpc(method, params, options);
  const text = await response.text();
  expect(response.status).toBe(200);
  const message = JSON.parse(text) as { result?: T; error?: unknown };
  if (message.result === undefined) throw new Error(`${method}: ${text}`);
  return { result: message.result, text };
}

async function listing(toolset: string) {
  return resultOf<{ tools: ListedTool[] }>("tools/list", {}, { path: `/mcp?toolset=${toolset}` });
}

/** The app's rule (web/src/app): the command's own arguments go into the object that holds `budget_profile`. */
function withArgs(read: Read, extra: Record<string, unknown>): { name: string; arguments: Record<string, unknown> } {
  const args = structuredClone(read.args);
  const inner = args.args as Record<string, unknown> | undefined;
  const holder = "budget_profile" in args ? args : inner !== undefined && "budget_profile" in inner ? inner : undefined;
  if (holder === undefined) throw new Error(`no budget_profile in ${JSON.stringify(read)}`);
  Object.assign(holder, extra);
  return { name: read.tool, arguments: args };
}

describe("the tool that opens the app", () => {
  it("is listed on portals and full with the app's resource, not on core or daily, and the default listing stays within its ceiling", async () => {
    const portals = await listing("portals");
    const opener = portals.result.tools.at(-1);
    expect(opener?.name).toBe("visualize");
    expect(opener?._meta?.ui?.resourceUri).toBe(APP_RESOURCE_URI);
    expect(opener?.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(Object.keys(opener?.inputSchema.properties ?? {})).toEqual(["what", "workspace", "target"]);
    expect(portals.text.length).toBeLessThanOrEqual(MAX_PORTAL_LISTING_CHARS);
    const full = await listing("full");
    expect(full.result.tools.find((tool) => tool.name === "visualize")?._meta?.ui?.resourceUri).toBe(APP_RESOURCE_URI);
    expect(full.result.tools.filter((tool) => tool._meta !== undefined).map((tool) => tool.name)).toEqual(["visualize"]);
    for (const toolset of ["core", "daily"]) {
      expect((await listing(toolset)).result.tools.map((tool) => tool.name)).not.toContain("visualize");
    }
  });
});

describe("the app's resource", () => {
  it("is listed first, named among the templates, and read as one HTML document that loads nothing from elsewhere", async () => {
    const listed = await resultOf<{ resources: { uri: string; mimeType: string; _meta?: { ui?: { csp?: Record<string, unknown[]> } } }[] }>(
      "resources/list",
      {},
      { path: "/mcp" },
    );
    const app = listed.result.resources[0];
    expect(app?.uri).toBe(APP_RESOURCE_URI);
    expect(app?.mimeType).toBe(APP_MIME_TYPE);
    expect(app?._meta?.ui?.csp).toEqual({ connectDomains: [], resourceDomains: [], frameDomains: [] });
    const templates = await resultOf<{ resourceTemplates: { uriTemplate: string; mimeType: string }[] }>("resources/templates/list", {});
    expect(templates.result.resourceTemplates).toContainEqual(
      expect.objectContaining({ uriTemplate: APP_RESOURCE_URI, mimeType: APP_MIME_TYPE }),
    );

    const read = await resultOf<{ contents: { uri: string; mimeType: string; text: string; _meta?: unknown }[] }>(
      "resources/read",
      { uri: APP_RESOURCE_URI },
      { headers: { "mcp-name": APP_RESOURCE_URI } },
    );
    const [document] = read.result.contents;
    expect(document?.mimeType).toBe(APP_MIME_TYPE);
    expect(document?._meta).toEqual(app?._meta);
    const html = document?.text ?? "";
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(new TextEncoder().encode(html).length).toBeLessThanOrEqual(MAX_APP_BYTES);
    // Inline only: no element that loads a file, no stylesheet import.
    expect(html).not.toMatch(/<(script|img|iframe|link)\b[^>]*\b(src|href)\s*=/i);
    expect(html).not.toMatch(/@import|url\(\s*["']?https?:/i);
    expect(html.match(/<script>/g)?.length).toBe(1);
  });
});

describe("visualize", () => {
  it("answers the caller's scope and role, and reads that work as given on portals, full and a locked URL", async () => {
    const workspace = "app/visualize";
    const { plan, task } = await planWithTask(workspace, [{ title: "Write the cache" }, { title: "Measure it" }]);
    await ok("tasks_focus_set", { workspace, target: task });
    const resumed = await ok("tasks_resume_super", { workspace, target: task });
    const firstStep = (resumed.steps as { id: string }[])[0]?.id;
    expect(firstStep).toMatch(/^STEP-/);

    for (const path of ["/mcp", "/mcp?toolset=full", `/w/${encodeURIComponent(workspace)}/mcp`]) {
      const answer = await callTool("visualize", path.startsWith("/w/") ? {} : { workspace }, { path });
      expect(answer.isError).toBeUndefined();
      const start = answer.structuredContent as Record<string, any>;
      expect(start).toMatchObject({ what: "tasks", workspace, agent_id: "alice", role: "write", scope: "focus" });
      expect(start.target).toMatchObject({ id: task, kind: "task", plan_id: plan });
      expect(start.summary).toContain(`Task ${task}`);
      expect(start.summary).toContain("0 of 2 steps done");
      expect(start.summary).toContain("missing proof: criteria, tests");
      const reads = start.reads as Record<string, Read>;
      expect(Object.keys(reads).sort()).toEqual(["open", "system.status", "tasks.context", "tasks.resume_super"]);
      const asks: Record<string, Record<string, unknown>> = {
        "tasks.context": { tasks_limit: 5 },
        "tasks.resume_super": { target: task, view: "full" },
        open: { id: firstStep },
        "system.status": {},
      };
      const answers: Record<string, Record<string, any>> = {};
      for (const [command, extra] of Object.entries(asks)) {
        const call = withArgs(reads[command] as Read, extra);
        const result = await callTool(call.name, call.arguments, { path });
        expect(result.isError, `${command} on ${path}: ${JSON.stringify(result.structuredContent)}`).toBeUndefined();
        answers[command] = result.structuredContent;
      }
      const listed = (answers["tasks.context"]?.tasks ?? []) as { id: string }[];
      expect(listed.map((entity) => entity.id)).toContain(task);
      expect(answers["tasks.resume_super"]?.target.id).toBe(task);
      expect(answers.open?.kind).toBe("step");
      expect(answers.open?.missing_proof).toEqual(["criteria", "tests"]);
      expect(typeof answers["system.status"]?.tick).toBe("number");
    }
  });

  it("names a read role, no scope when nothing is in focus, and the target asked for", async () => {
    const workspace = "app/reader";
    const { plan } = await planWithTask(workspace, [{ title: "Only step" }]);
    const reader = await as("carol", { role: "read" });
    const none = await ok("visualize", { workspace }, reader);
    expect(none).toMatchObject({ role: "read", agent_id: "carol", scope: "none", target: null });
    expect(none.summary).toContain("No plan or task is in focus for carol");
    const asked = await ok("visualize", { workspace, target: plan }, reader);
    expect(asked).toMatchObject({ scope: "argument", target: { id: plan, kind: "plan" } });
    expect(asked.summary).toContain(`Plan ${plan}`);
  });

  it("refuses a target that does not exist with a typed error and a way on", async () => {
    const result = await callTool("visualize", { workspace: "app/missing", target: "TASK-999" }, { path: "/mcp" });
    expect(result.isError).toBe(true);
    const error = (result.structuredContent as { error: { code: string; recovery_hint: string } }).error;
    expect(error.code).toBe("UNKNOWN_ID");
    expect(error.recovery_hint).toContain("tasks");
  });
});
