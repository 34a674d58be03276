// The system portal's introspection commands end to end through MCP (toolset=full): schema_get for every
// command returns a JSON Schema that accepts its own minimal example (checked by a JSON Schema validator
// and by the command's zod input), migration_lookup resolves every old tool name of seeds 000/001,
// cmd_list pages through the catalog exactly once (also when a budget trims a page), ops_summary agrees
// with the catalog, and unknown names fail UNKNOWN_CMD with actions.

import { type Schema, Validator } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { COMMANDS, findCommand, namesOf } from "../src/catalog/catalog";
import { LEGACY_NAMES } from "../src/catalog/legacy-names";
import type { Command } from "../src/commands/registry";
import { MIN_BUDGET_CHARS } from "../src/shared/limits";
import { as, callTool, failure, ok } from "./helpers/mcp";

const FULL = { path: "/mcp?toolset=full" };
const PORTALS = { path: "/mcp?toolset=portals" };
/** An admin may call every command, so every example call is rendered for it (a writer's skips admin commands). */
const ADMIN_FULL = async () => ({ ...FULL, ...(await as("schema-admin", { role: "admin" })) });

/** A suggested call as the connection that asked renders it. */
interface ExampleCall {
  tool: string;
  args: Record<string, unknown>;
  purpose: string;
}

interface SchemaAnswer {
  cmd: string;
  tool: string;
  kind: string;
  portal: string;
  op?: string;
  args_schema: Record<string, unknown> & { properties?: Record<string, unknown>; required?: string[] };
  example_minimal_args: Record<string, unknown>;
  example_valid_call: ExampleCall;
  doc_ref: { path: string; anchor: string };
  default_budget_profile: string | null;
}

interface CmdListAnswer {
  cmds: { cmd: string; tool: string; portal: string; op?: string; kind: string; title: string }[];
  total: number;
  next_cursor?: string;
  budget?: { truncated: boolean };
}

interface OpsSummary {
  portals: { portal: string; golden_ops: { op: string; cmd: string }[]; cmds: number }[];
  totals: { portals: number; golden_ops: number; cmds: number };
  unplugged: string[];
}

function schemaOf(name: string, options: Record<string, unknown> = FULL): Promise<SchemaAnswer> {
  return ok<SchemaAnswer>("schema_get", { cmd: name }, options);
}

/** Every page of cmd_list with these arguments, following next_cursor; fails on a page that makes no progress. */
async function walk(args: Record<string, unknown>): Promise<{ names: string[]; pages: CmdListAnswer[] }> {
  const names: string[] = [];
  const pages: CmdListAnswer[] = [];
  let cursor: string | undefined;
  do {
    const page = await ok<CmdListAnswer>("cmd_list", { ...args, ...(cursor === undefined ? {} : { cursor }) }, FULL);
    pages.push(page);
    names.push(...page.cmds.map((item) => item.cmd));
    if (page.next_cursor !== undefined) expect(page.next_cursor, "a page must advance").not.toBe(cursor);
    cursor = page.next_cursor;
    expect(pages.length).toBeLessThanOrEqual(COMMANDS.length + 1);
  } while (cursor !== undefined);
  return { names, pages };
}

describe("schema_get", () => {
  it("returns, for every command, a schema that accepts its own minimal example", async () => {
    const admin = await ADMIN_FULL();
    const answers = await Promise.all(COMMANDS.map((command) => schemaOf(command.name, admin)));
    answers.forEach((answer, index) => {
      const command = COMMANDS[index] as Command;
      const label = command.name;
      expect(answer.cmd, label).toBe(command.name);
      expect(answer.tool, label).toBe(command.tool);
      expect(answer.kind, label).toBe(command.kind);
      expect(answer.args_schema.type, label).toBe("object");
      expect(answer.args_schema.$schema, label).toBeUndefined();
      expect(Object.keys(answer.args_schema.properties ?? {}), label).not.toContain("workspace");
      expect(answer.args_schema.required ?? [], label).not.toContain("workspace");

      const example = answer.example_minimal_args;
      const verdict = new Validator(answer.args_schema as Schema, "2020-12", false).validate(example);
      expect(
        verdict.errors.map((error) => `${error.instanceLocation}: ${error.error}`),
        label,
      ).toEqual([]);
      expect(verdict.valid, label).toBe(true);
      const parsed = command.input.safeParse(example);
      expect(parsed.success, `${label}: ${parsed.error?.message ?? ""}`).toBe(true);
      // Minimal: only required properties, unless the command gives its own example.
      if (!command.example) {
        expect(Object.keys(example).sort(), label).toEqual([...(answer.args_schema.required ?? [])].sort());
      }

      // On the full toolset the example is the flat tool with the example's arguments, and the workspace to
      // name (the call gave none, and the token grants many) for a command that acts in one.
      const call = answer.example_valid_call;
      expect(call.tool, label).toBe(command.tool);
      const { workspace, ...callArgs } = call.args;
      expect(callArgs, label).toEqual(example);
      expect(workspace, label).toBe(command.scope === "workspace" ? "<fill: workspace>" : undefined);
      expect(answer.default_budget_profile, label).toBe(command.kind === "read" ? "portal" : null);
      // GitHub's anchor of a heading made of the dotted name: lowercase, dots dropped.
      expect(answer.doc_ref, label).toEqual({ path: "docs/commands.md", anchor: command.name.replace(/\./g, "") });
    });
  });

  it("accepts every name of a command, and the branchmind. and branchmind/ prefixes", async () => {
    const command = findCommand("tasks.evidence.capture") as Command;
    const names = [...namesOf(command), `branchmind.${command.tool}`, `branchmind/${command.name}`];
    expect(names).toContain("tasks.evidence.capture");
    const answers = await Promise.all(names.map((name) => schemaOf(name)));
    for (const answer of answers) expect(answer.cmd).toBe("tasks.evidence_capture");
    expect(answers[0]).toMatchObject({ portal: "tasks", op: "evidence.capture" });
  });

  it("places a command at the portal whose golden op runs it", async () => {
    // Asked on the portal toolset, the example call is in the portal form.
    expect(await schemaOf("status", PORTALS)).toMatchObject({
      portal: "status",
      op: "status",
      example_valid_call: { tool: "status", args: { workspace: "<fill: workspace>" } },
    });
    expect(await schemaOf("notes_commit", PORTALS)).toMatchObject({
      portal: "vcs",
      op: "notes.commit",
      example_valid_call: { tool: "vcs", args: { workspace: "<fill: workspace>", op: "notes.commit" } },
    });
    const ping = await schemaOf("ping", PORTALS);
    expect(ping.op).toBeUndefined();
    expect(ping.example_valid_call).toEqual({
      tool: "system",
      args: { workspace: "<fill: workspace>", op: "call", cmd: "system.ping" },
      purpose: expect.any(String),
    });
  });

  it("gives an example call that runs as it is, on the portal and on the full toolset", async () => {
    for (const options of [PORTALS, FULL]) {
      const { example_valid_call: call } = await schemaOf("system.ops.summary", options);
      const summary = await ok<OpsSummary>(call.tool, call.args, options);
      expect(summary.totals.cmds).toBe(COMMANDS.length);
    }
  });

  it("degrades under a budget to smaller forms that still say how to call the command", async () => {
    // Through the system portal (portal profile, 6,000 characters with the capsule): the largest schema still answers.
    const admin = { ...PORTALS, ...(await as("schema-admin", { role: "admin" })) };
    const portal = await ok<SchemaAnswer>("system", { op: "schema.get", args: { cmd: "workspace.import" } }, admin);
    expect(portal.cmd).toBe("workspace.import");
    expect(portal.example_valid_call.tool).toBe("workspace");
    // A writer may not call it: its example call is replaced by one it can make, and says why.
    const writer = await ok<SchemaAnswer>("system", { op: "schema.get", args: { cmd: "workspace.import" } }, PORTALS);
    expect(writer.example_valid_call).toMatchObject({ tool: "status", purpose: expect.stringContaining("not callable") });
    const adminFull = await ADMIN_FULL();
    const full = await schemaOf("workspace.import", adminFull);
    const size = JSON.stringify(full.args_schema).length;
    const lean = await ok<SchemaAnswer & { budget: { truncated: boolean } }>(
      "schema_get",
      { cmd: "workspace.import", max_chars: size },
      adminFull,
    );
    expect(lean.budget.truncated).toBe(true);
    expect(JSON.stringify(lean.args_schema)).not.toContain('"description"');
    expect(lean.example_minimal_args).toEqual(full.example_minimal_args);
    const bare = await ok<Record<string, unknown>>("schema_get", { cmd: "workspace.import", max_chars: MIN_BUDGET_CHARS }, adminFull);
    expect(bare).toMatchObject({ cmd: "workspace.import", example_valid_call: full.example_valid_call, budget: { truncated: true } });
    expect(bare.args_schema).toBeUndefined();
    expect(bare.args_schema_omitted).toEqual(expect.any(String));
  });

  it("fails UNKNOWN_CMD with the closest command and the command list as actions", async () => {
    const error = await failure("schema_get", { cmd: "notes_comit" }, FULL);
    expect(error.code).toBe("UNKNOWN_CMD");
    expect(error.recovery_hint).toContain("vcs.notes.commit");
    expect(error.details).toMatchObject({ cmd: "notes_comit", did_you_mean: "vcs.notes.commit" });
    // Asked on the full toolset, the actions name its flat tools.
    expect(error.actions).toEqual([
      { tool: "schema_get", args: { cmd: "vcs.notes.commit" }, purpose: expect.any(String) },
      { tool: "cmd_list", args: {}, purpose: expect.any(String) },
    ]);
    const viaPortal = await failure("system", { op: "schema.get", args: { cmd: "notes_comit" } }, PORTALS);
    expect(viaPortal.actions).toEqual([
      { tool: "system", args: { op: "schema.get", args: { cmd: "vcs.notes.commit" } }, purpose: expect.any(String) },
      { tool: "system", args: { op: "cmd.list" }, purpose: expect.any(String) },
    ]);
  });
});

describe("migration_lookup", () => {
  it("lists the old names of seeds 000 and 001 once each", () => {
    const names = LEGACY_NAMES.map((entry) => entry.old_name);
    expect(new Set(names).size).toBe(names.length);
    expect(LEGACY_NAMES.filter((entry) => entry.seed === "000").every((entry) => entry.old_name.startsWith("branchmind_"))).toBe(true);
    for (const name of [
      "branchmind_notes_commit",
      "branchmind_think_next",
      "branchmind_graph_conflict_resolve",
      "notes_commit",
      "graph_merge",
      "think_add_hypothesis",
      "trace_step",
      "diagnostics",
      "macro_branch_note",
      "docs_list",
      "think_watch",
    ]) {
      expect(names, name).toContain(name);
    }
    for (const entry of LEGACY_NAMES) {
      const target = findCommand(entry.cmd);
      expect(target?.name, entry.old_name).toBe(entry.cmd);
      // An old name that is still an accepted name must map to that same command.
      const direct = findCommand(entry.old_name);
      if (direct) expect(direct.name, entry.old_name).toBe(entry.cmd);
    }
  });

  it("resolves every old name to the command that does its job, with a call in the caller's form", async () => {
    const admin = { ...PORTALS, ...(await as("schema-admin", { role: "admin" })) };
    const answers = await Promise.all(
      LEGACY_NAMES.map((entry) =>
        ok<{ old_name: string; cmd: string; tool: string; portal: string; op?: string; example_call: ExampleCall }>(
          "migration_lookup",
          { old_name: entry.old_name },
          admin,
        ),
      ),
    );
    answers.forEach((answer, index) => {
      const entry = LEGACY_NAMES[index] as (typeof LEGACY_NAMES)[number];
      const command = findCommand(answer.cmd);
      expect(command, entry.old_name).toBeDefined();
      expect(namesOf(command as Command), entry.old_name).toContain(answer.cmd);
      expect(answer, entry.old_name).toMatchObject({ old_name: entry.old_name, cmd: entry.cmd, tool: command?.tool });
      expect(answer.example_call.tool, entry.old_name).toBe(answer.portal);
    });
    const diagnostics = answers[LEGACY_NAMES.findIndex((entry) => entry.old_name === "diagnostics")];
    expect(diagnostics).toMatchObject({
      cmd: "system.diagnostics",
      portal: "system",
      example_call: { args: { op: "call", cmd: "system.diagnostics" } },
    });
  });

  it("fails UNKNOWN_CMD with actions for a name no contract had", async () => {
    const error = await failure("migration_lookup", { old_name: "branchmind_graph_mergee" }, FULL);
    expect(error.code).toBe("UNKNOWN_CMD");
    expect(error.details).toMatchObject({ old_name: "branchmind_graph_mergee", did_you_mean: "graph.merge" });
    expect(error.actions?.map((action) => action.args)).toEqual([{ cmd: "graph.merge" }, {}]);
  });
});

describe("cmd_list", () => {
  it("walks the whole catalog exactly once, in catalog order", async () => {
    const { names, pages } = await walk({ limit: 7 });
    expect(names).toEqual(COMMANDS.map((command) => command.name));
    for (const page of pages) {
      expect(page.total).toBe(COMMANDS.length);
      expect(page.cmds.length).toBeLessThanOrEqual(7);
    }
    expect(pages.length).toBe(Math.ceil(COMMANDS.length / 7));
    const first = pages[0]?.cmds[0];
    const command = COMMANDS[0] as Command;
    expect(first).toMatchObject({ cmd: command.name, tool: command.tool, kind: command.kind, title: command.title });
  });

  it("still walks the catalog exactly once when a budget trims each page", async () => {
    const { names, pages } = await walk({ limit: 200, max_chars: 1500 });
    expect(names).toEqual(COMMANDS.map((command) => command.name));
    expect(pages.length).toBeGreaterThan(1);
    expect(pages[0]?.budget?.truncated).toBe(true);
  });

  it("filters by portal and by prefix, and refuses an unknown portal", async () => {
    const summary = await ok<OpsSummary>("ops_summary", {}, FULL);
    const byPortal = await Promise.all(summary.portals.map((portal) => walk({ portal: portal.portal, limit: 200 })));
    byPortal.forEach(({ pages }, index) => {
      const portal = summary.portals[index] as OpsSummary["portals"][number];
      expect(pages[0]?.total, portal.portal).toBe(portal.cmds);
      for (const item of pages.flatMap((page) => page.cmds)) expect(item.portal, item.cmd).toBe(portal.portal);
    });
    expect(byPortal.flatMap(({ names }) => names).sort()).toEqual(COMMANDS.map((command) => command.name).sort());

    const leases = await ok<CmdListAnswer>("cmd_list", { prefix: "tasks.step.lease." }, FULL);
    expect(leases.cmds.map((item) => item.cmd)).toEqual(
      COMMANDS.filter((command) => command.name.startsWith("tasks.step.lease.")).map((command) => command.name),
    );
    expect(leases.total).toBe(4);
    expect((await ok<CmdListAnswer>("cmd_list", { prefix: "think_add_" }, FULL)).total).toBe(8);

    const error = await failure("cmd_list", { portal: "nowhere" }, FULL);
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.details?.portals).toEqual(summary.portals.map((portal) => portal.portal));
    expect((await failure("cmd_list", { cursor: "100000" }, FULL)).code).toBe("INVALID_INPUT");
    expect((await failure("cmd_list", { cursor: "abc" }, FULL)).code).toBe("INVALID_INPUT");
  });
});

describe("ops_summary", () => {
  it("agrees with the catalog", async () => {
    const summary = await ok<OpsSummary>("ops_summary", {}, FULL);
    expect(summary.totals.cmds).toBe(COMMANDS.length);
    expect(summary.portals.reduce((sum, portal) => sum + portal.cmds, 0)).toBe(COMMANDS.length);
    expect(summary.totals.portals).toBe(summary.portals.length);
    expect(summary.totals.golden_ops).toBe(summary.portals.reduce((sum, portal) => sum + portal.golden_ops.length, 0));
    for (const portal of summary.portals) {
      for (const op of portal.golden_ops) expect(findCommand(op.cmd)?.name, `${portal.portal} ${op.op}`).toBe(op.cmd);
    }
    const listed = summary.portals.map((portal) => portal.portal);
    for (const name of summary.unplugged) expect(listed).not.toContain(name);
    expect(summary.portals.find((portal) => portal.portal === "system")?.golden_ops).toEqual(
      expect.arrayContaining([
        { op: "schema.get", cmd: "system.schema.get" },
        { op: "cmd.list", cmd: "system.cmd.list" },
        { op: "ops.summary", cmd: "system.ops.summary" },
        { op: "migration.lookup", cmd: "system.migration.lookup" },
      ]),
    );
  });

  it("is callable by name from a narrow toolset too", async () => {
    const result = await callTool("ops_summary", {}, { path: "/mcp?toolset=core" });
    expect(result.isError).toBeFalsy();
  });
});
