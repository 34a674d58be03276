// The portal surface (seed 002) end to end: the listing and its size, the envelope and golden ops,
// `op: "call"` reaching every command, typed errors for unknown ops and commands, budget profiles,
// the envelope's view, and the capsule (seed 003) on every portal's answers at 6k and at 300 characters.

import { describe, expect, it } from "vitest";
import { COMMANDS } from "../src/catalog/catalog";
import { domainOf, portals } from "../src/catalog/portals";
import { MIN_BUDGET_CHARS } from "../src/shared/limits";
import { MAX_PORTAL_LISTING_CHARS } from "../src/worker/surfaces/portal-definitions";
import { as, callTool, failure, ok, type RpcOptions, rpc } from "./helpers/mcp";
import { paste } from "./helpers/suggestions";

const PORTALS: RpcOptions = { path: "/mcp?toolset=portals" };

function portal(name: string, envelope: Record<string, unknown>, options: RpcOptions = {}) {
  return ok(name, envelope, { ...PORTALS, ...options });
}

function portalFailure(name: string, envelope: Record<string, unknown>, options: RpcOptions = {}) {
  return failure(name, envelope, { ...PORTALS, ...options });
}

interface Capsule {
  where: Record<string, unknown>;
  why?: string[];
  next: { action: { tool: string; args: Record<string, unknown> }; backup?: { tool: string; args: Record<string, unknown> } };
}

describe("the portal listing", () => {
  it("is the default toolset, lists the portals with something to do, and stays within MAX_PORTAL_LISTING_CHARS", async () => {
    const response = await rpc("tools/list", {}, PORTALS);
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text.length).toBeLessThanOrEqual(MAX_PORTAL_LISTING_CHARS);
    const tools = (JSON.parse(text) as { result: { tools: { name: string; inputSchema: { properties: Record<string, unknown> } }[] } })
      .result.tools;
    expect(tools.map((tool) => tool.name)).toEqual([
      "status",
      "open",
      "workspace",
      "tasks",
      "jobs",
      "think",
      "graph",
      "vcs",
      "docs",
      "system",
      "records",
      // Not a portal: the tool that opens the MCP App (test/app.test.ts).
      "visualize",
    ]);
    for (const tool of tools.slice(0, -1))
      expect(Object.keys(tool.inputSchema.properties)).toEqual(expect.arrayContaining(["op", "cmd", "args"]));
    const unnamed = await (await rpc("tools/list", {}, { path: "/mcp" })).text();
    expect(unnamed.replace(/"id":\d+/, "")).toBe(text.replace(/"id":\d+/, ""));
  });
});

describe("the envelope", () => {
  it("runs golden ops, op call by any accepted name, and the branchmind name prefixes", async () => {
    const workspace = "portals/envelope";
    const commit = await portal("vcs", { workspace, op: "notes.commit", args: { content: "first note" } });
    expect(commit.entry.seq).toBeGreaterThan(0);
    await portal("vcs", { workspace, op: "call", cmd: "notes_commit", args: { content: "second" } });
    await portal("branchmind.vcs", { workspace, op: "call", cmd: "branchmind.vcs.notes.commit", args: { content: "third" } });
    const shown = await portal("docs", { workspace, op: "show", args: { doc: "notes" } });
    expect(shown.entries.map((entry: { content: string }) => entry.content)).toEqual(["first note", "second", "third"]);
    const listed = await portal("branchmind/docs", { workspace, op: "list", args: null });
    expect(listed.docs.map((doc: { doc: string }) => doc.doc)).toContain("notes");
    const help = await portal("system", { op: "help" });
    expect(help.sections.length).toBeGreaterThan(0);
  });

  it("routes op call to exactly the named command, for every command of the catalog", async () => {
    const listed = new Set(portals().map((item) => item.name));
    const answers = await Promise.all(
      COMMANDS.map(async (command) => {
        const name = listed.has(domainOf(command)) ? domainOf(command) : "system";
        const error = await portalFailure(name, {
          workspace: "portals/every-cmd",
          op: "call",
          cmd: command.name,
          args: { probe_field: 1 },
        });
        return { command, error };
      }),
    );
    for (const { command, error } of answers) {
      expect(error.code, command.name).toBe("INVALID_INPUT");
      expect(error.message, command.name).toContain(`Invalid arguments for ${command.name}:`);
      expect(error.actions?.[0], command.name).toMatchObject({ tool: "system", args: { op: "schema.get", args: { cmd: command.name } } });
    }
  });

  it("answers an unknown op or command with a typed error pointing at system schema.get", async () => {
    const op = await portalFailure("vcs", { workspace: "portals/unknown", op: "notes_commit", args: {} });
    expect(op.code).toBe("UNKNOWN_OP");
    expect(op.recovery_hint).toContain('cmd "vcs.notes.commit"');
    expect(op.actions?.[0]).toMatchObject({ tool: "system", args: { op: "schema.get", args: { cmd: "vcs.notes.commit" } } });
    const nonsense = await portalFailure("graph", { op: "frobnicate" });
    expect(nonsense.code).toBe("UNKNOWN_OP");
    expect(nonsense.details?.ops).toEqual(["query", "apply", "merge"]);
    expect(nonsense.actions?.[0]).toMatchObject({ tool: "system", args: { op: "schema.get" } });
    const cmd = await portalFailure("think", { op: "call", cmd: "think.frobnicate" });
    expect(cmd.code).toBe("UNKNOWN_CMD");
    expect(cmd.actions?.map((action) => action.args.op)).toContain("cmd.list");
    expect((await portalFailure("think", { op: "call" })).code).toBe("INVALID_INPUT");
    expect((await portalFailure("tasks", {})).code).toBe("UNKNOWN_OP");
    expect((await portalFailure("tasks", { op: "snapshot", surprise: 1 })).code).toBe("INVALID_INPUT");
    // Found by the fuzzer: an op named like an Object.prototype member was looked up as a golden op (-32603).
    for (const inherited of ["hasOwnProperty", "constructor", "toString", "__proto__"]) {
      expect((await portalFailure("system", { workspace: "portals/unknown", op: inherited, cmd: "system.init" })).code).toBe("UNKNOWN_OP");
    }
    const twice = await portalFailure("vcs", { workspace: "portals/a", op: "log", args: { workspace: "portals/b" } });
    expect(twice.code).toBe("INVALID_INPUT");
    expect(twice.details?.fields).toEqual(["workspace", "args.workspace"]);
  });

  it("defaults reads to the portal profile and lets profiles cap max_chars", async () => {
    const workspace = "portals/profiles";
    await portal("vcs", { workspace, op: "notes.commit", args: { content: "x" } });
    expect((await portal("docs", { workspace, op: "show" })).budget.max_chars).toBe(6_000);
    expect((await portal("docs", { workspace, op: "show", budget_profile: "default" })).budget.max_chars).toBe(20_000);
    expect((await portal("docs", { workspace, op: "show", budget_profile: "audit" })).budget.max_chars).toBe(80_000);
    const capped = await portal("docs", { workspace, op: "show", args: { max_chars: 50_000 } });
    expect(capped.budget.max_chars).toBe(6_000);
    expect(capped.warnings.map((warning: { code: string }) => warning.code)).toContain("BUDGET_PROFILE_CAPPED");
    expect((await portal("docs", { workspace, op: "show", budget_profile: "audit", args: { max_chars: 50_000 } })).budget.max_chars).toBe(
      50_000,
    );
  });

  it("forwards the envelope's view to commands that take one; a view in args wins", async () => {
    const workspace = "portals/view";
    const plan = await portal("tasks", { workspace, op: "plan.create", args: { title: "Plan" } });
    const task = await portal("tasks", { workspace, op: "call", cmd: "tasks.create", args: { parent: plan.id, title: "Task" } });
    expect((await portal("tasks", { workspace, op: "snapshot", view: "audit", args: { target: task.id } })).view).toBe("audit");
    expect((await portal("tasks", { workspace, op: "snapshot", portal_view: "explore", args: { target: task.id } })).view).toBe("explore");
    expect((await portal("tasks", { workspace, op: "snapshot", view: "audit", args: { target: task.id, view: "focus_only" } })).view).toBe(
      "focus_only",
    );
    // A command without a view is unaffected.
    expect((await portal("docs", { workspace, op: "list", view: "audit" })).docs).toBeDefined();
  });
});

describe("status and the next-action engine", () => {
  it("follows the work: a plan in an empty workspace, then take it up, then the focus's next move, then a ready task for a newcomer — and the actions run as given", async () => {
    const workspace = "portals/next";
    const bob = { ...PORTALS, ...(await as("bob-next")) };
    const before = await portal("status", { workspace }, bob);
    expect(before.capsule.where).toMatchObject({ workspace, branch: "main", focus: null, target: null, step_focus: null });
    // On /mcp every suggestion names its workspace, so that it cannot land anywhere else when pasted.
    expect(before.capsule.next.action).toMatchObject({
      tool: "tasks",
      args: { workspace, op: "plan.create", args: { title: "<fill: plan title>" } },
    });
    expect(before.capsule.next.backup).toMatchObject({ tool: "tasks", args: { workspace, op: "call", cmd: "tasks.context" } });
    const planned = await paste(before.capsule.next.action, bob);
    const plan = planned.structuredContent as { id: string; capsule: Capsule };
    expect(planned.isError ?? false).toBe(false);
    expect(plan.id).toMatch(/^PLAN-/);
    // The plan exists now: the next move takes it up (it is not "create a plan" again).
    expect(plan.capsule.next.action).toMatchObject({
      tool: "tasks",
      args: { workspace, op: "call", cmd: "tasks.focus.set", args: { target: plan.id } },
    });
    const focused = (await paste(plan.capsule.next.action, bob)).structuredContent as { capsule: Capsule };
    // Focused on a plan without tasks: start its first task.
    expect(focused.capsule.next.action).toMatchObject({ args: { op: "call", cmd: "tasks.macro.start", args: { plan: plan.id } } });
    const started = (await paste(focused.capsule.next.action, bob)).structuredContent as {
      task_id: string;
      steps: { id: string; path: string }[];
    };
    const after = await portal("status", { workspace }, bob);
    expect(after.capsule.where).toMatchObject({ focus: started.task_id, target: { id: started.task_id } });
    expect(after.capsule.where.step_focus).toMatchObject({ step_id: started.steps[0]?.id, path: started.steps[0]?.path });
    // An open step nobody has worked on: the work (a note of progress), then evidence; not a close.
    expect(after.capsule.next.action).toMatchObject({
      tool: "tasks",
      args: { workspace, op: "call", cmd: "tasks.note", args: { task: started.task_id, step_id: started.steps[0]?.id } },
    });
    expect(after.capsule.next.backup).toMatchObject({ tool: "tasks", args: { workspace, op: "evidence.capture" } });
    expect((await paste(after.capsule.next.action, bob)).isError ?? false).toBe(false);
    expect((await paste(after.capsule.next.backup, bob)).isError ?? false).toBe(false);
    const next = await portal("tasks", { workspace, op: "execute.next" }, bob);
    const now = await portal("status", { workspace }, bob);
    expect(next.next).toEqual(now.capsule.next);
    // Another agent has no focus: bob has not taken the task (tasks.take), so it is ready, and offered to carol with the take.
    const carol = await portal("status", { workspace }, await as("carol-next"));
    expect(carol.capsule.where).toMatchObject({ focus: null, target: { id: started.task_id } });
    expect(carol.capsule.next.action).toMatchObject({ args: { cmd: "tasks.take", args: { task: started.task_id } } });
  });
});

describe("status with delegated work", () => {
  it("offers the oldest queued job to an agent without a focus in a workspace with no plan, and the action claims it", async () => {
    const workspace = "portals/next-jobs";
    const lead = await as("lead-jobs");
    const job = await portal(
      "jobs",
      { workspace, op: "create", args: { title: "Review the parser", prompt: "List the edge cases" } },
      lead,
    );
    const worker = await as("worker-jobs");
    const status = await portal("status", { workspace }, worker);
    expect(status.capsule.next.action).toMatchObject({ tool: "jobs", args: { workspace, op: "claim", args: { job: job.job.id } } });
    expect(status.capsule.next.backup).toMatchObject({ tool: "tasks", args: { workspace, op: "plan.create" } });
    expect(status.capsule.why.join(" ")).toContain(job.job.id);
    const claimed = (await paste(status.capsule.next.action, { ...PORTALS, ...worker })).structuredContent as Record<string, any>;
    expect(claimed.job).toMatchObject({ id: job.job.id, status: "RUNNING", claim: { holder: "worker-jobs" } });
    // Claimed: nothing is queued any more, so a third agent is told to create a plan, with listing tasks as the backup.
    const third = (await portal("status", { workspace }, await as("third-jobs"))).capsule.next;
    expect(third.action.args).toMatchObject({ op: "plan.create" });
    expect(third.backup.args).toMatchObject({ cmd: "tasks.context" });
  });
});

describe("the records portal", () => {
  it("runs seed 004's conflict pattern through its golden ops, with the default project when none is named", async () => {
    const alice = await as("alice-records");
    const bob = await as("bob-records", { workspaces: ["default/alice-records"] });
    // No workspace, no project_id: alice's records land in her default project.
    const created = await portal(
      "records",
      { op: "create", args: { type: "question", title: "Cache?", summary: "", body: "original" } },
      alice,
    );
    expect(created.record.id).toBe("R001");
    expect(created.capsule.where.workspace).toBe("default/alice-records");
    const project = "default/alice-records";
    const mine = created.session_id;
    const theirs = (await portal("records", { op: "activate", args: { project_id: project, id: "R001" } }, bob)).session_id;
    const first = await portal("records", { op: "update", args: { project_id: project, session_id: mine, id: "R001", body: "A" } }, alice);
    expect(first.applied).toBe(true);
    const second = await portal("records", { op: "update", args: { project_id: project, session_id: theirs, id: "R001", body: "B" } }, bob);
    expect(second).toMatchObject({ applied: false, conflict: { other_version: { body: "A" } } });
    const forced = await portal(
      "records",
      { op: "update", args: { project_id: project, session_id: theirs, id: "R001", body: "A+B", force: true } },
      bob,
    );
    expect(forced).toMatchObject({ applied: true, record: { body: "A+B" } });
    const found = await portal("records", { op: "search", args: { project_id: project, query: "cache" } }, alice);
    expect(found.results.map((result: { id: string }) => result.id)).toEqual(["R001"]);
    const synced = await portal("records", { op: "sync", args: { project_id: project, session_id: mine } }, alice);
    expect(synced.changes.map((change: { by_session: string }) => change.by_session)).toContain(theirs);
  });
});

describe("the capsule", () => {
  /** One read per portal (its golden op where it has a read one), and one write. */
  async function callsFor(workspace: string): Promise<[string, Record<string, unknown>][]> {
    const commit = await portal("vcs", { workspace, op: "notes.commit", args: { content: "seed ".repeat(400) } });
    return [
      ["status", { workspace }],
      ["open", { workspace, id: `notes@${commit.entry.seq}` }],
      ["workspace", { workspace, op: "call", cmd: "system.ping" }],
      ["tasks", { workspace, op: "execute.next" }],
      ["jobs", { workspace, op: "radar" }],
      ["think", { workspace, op: "query" }],
      ["graph", { workspace, op: "query" }],
      ["vcs", { workspace, op: "log" }],
      ["docs", { workspace, op: "show", args: { doc: "notes" } }],
      ["system", { workspace, op: "ops.summary" }],
      ["records", { workspace, op: "call", cmd: "records.project.overview" }],
    ];
  }

  it("rides on every portal's answer at the 6k default, whole: where, why, next (best + backup)", async () => {
    const workspace = "portals/capsule-6k";
    const calls = await callsFor(workspace);
    expect(calls.map(([name]) => name)).toEqual(portals().map((item) => item.name));
    for (const [name, envelope] of calls) {
      const answer = await portal(name, envelope);
      const capsule = answer.capsule as Capsule;
      expect(capsule.where.workspace, name).toBe(workspace);
      expect(capsule.why, name).toBeInstanceOf(Array);
      expect(capsule.next.action.tool, name).toMatch(/^[a-z]+$/);
      expect(capsule.next.backup?.tool, name).toMatch(/^[a-z]+$/);
      expect(answer.budget.max_chars, name).toBe(6_000);
      const { budget, ...rest } = answer;
      expect(budget.used_chars, name).toBe(JSON.stringify(rest).length);
      expect(budget.used_chars, name).toBeLessThanOrEqual(6_000);
    }
    const write = await portal("vcs", { workspace, op: "notes.commit", args: { content: "a write" } });
    expect(write.capsule.next.action.tool).toBe("tasks");
  });

  it("survives the smallest budget in its compact form, within the budget", async () => {
    const workspace = "portals/capsule-min";
    for (const [name, envelope] of await callsFor(workspace)) {
      const args = { ...((envelope.args as Record<string, unknown> | undefined) ?? {}), max_chars: MIN_BUDGET_CHARS };
      const answer = await portal(name, { ...envelope, args });
      const capsule = answer.capsule as Capsule;
      expect(capsule.where.workspace, name).toBe(workspace);
      expect(capsule.next.action.tool, name).toMatch(/^[a-z]+$/);
      const { budget, ...rest } = answer;
      expect(budget.max_chars, name).toBe(MIN_BUDGET_CHARS);
      expect(budget.used_chars, name).toBe(JSON.stringify(rest).length);
      expect(budget.used_chars, name).toBeLessThanOrEqual(MIN_BUDGET_CHARS);
    }
  });

  it("is absent from the flat toolsets (they answer exactly as before)", async () => {
    const answer = await ok("status", { workspace: "portals/flat" }, { path: "/mcp?toolset=full" });
    expect(answer.capsule).toBeUndefined();
    const viaCall = await callTool("status", { workspace: "portals/flat" }, PORTALS);
    expect(viaCall.structuredContent.capsule).toBeDefined();
  });
});
