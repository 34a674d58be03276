// The default listing's typed golden ops and truthful annotations (issue 26, items 3 and 4), through the
// real endpoint: every golden op's signature in its portal's description states the command's required
// arguments and their types, checked against the commands' zod schemas as JSON Schema (derived here,
// apart from the generator); the whole listing stays within its cap; read-only portals run reads only,
// `call` included, and a write sent there is refused with the ready call on the portal that runs it.

import { describe, expect, it } from "vitest";
import { z } from "zod";
import { COMMANDS, findCommand } from "../src/catalog/catalog";
import { placeOf, portals } from "../src/catalog/portals";
import { PORTAL_CONNECTION, renderSuggestions } from "../src/catalog/suggestions";
import type { Command } from "../src/commands/registry";
import { suggest } from "../src/shared/suggestion";
import { MAX_PORTAL_LISTING_CHARS, SIGNATURES_LABEL, signatureOf } from "../src/worker/surfaces/portal-definitions";
import { as, failure, ok, type RpcOptions, rpc } from "./helpers/mcp";

/** The default toolset: `/mcp` with no `toolset`. */
const DEFAULT: RpcOptions = { path: "/mcp" };
/** The ceiling for the default listing. */
const LISTING_CEILING_CHARS = 8_000;

type Schema = Record<string, unknown>;

interface ListedTool {
  name: string;
  description: string;
  annotations: Record<string, unknown>;
}

async function listing(): Promise<{ text: string; tools: ListedTool[] }> {
  const response = await rpc("tools/list", {}, DEFAULT);
  expect(response.status).toBe(200);
  const text = await response.text();
  return { text, tools: (JSON.parse(text) as { result: { tools: ListedTool[] } }).result.tools };
}

/** Splits at `separator` outside (), {} and quotes. */
function splitTop(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === "'") quoted = !quoted;
    if (quoted) continue;
    if (char === "(" || char === "{") depth++;
    if (char === ")" || char === "}") depth--;
    if (depth === 0 && text.startsWith(separator, index)) {
      parts.push(text.slice(start, index));
      start = index + separator.length;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

interface Param {
  name: string;
  optional: boolean;
  type: string;
}

/** `op(a: string, b?: int)` → op and params. */
function parseSignature(signature: string): { op: string; params: Param[] } {
  const open = signature.indexOf("(");
  expect(signature.endsWith(")"), signature).toBe(true);
  const inner = signature.slice(open + 1, -1);
  const params = inner === "" ? [] : splitTop(inner, ", ");
  return {
    op: signature.slice(0, open),
    params: params.map((param) => {
      const match = /^([A-Za-z_][A-Za-z0-9_]*)(\?)?: (.+)$/.exec(param);
      expect(match, `${signature}: ${param}`).not.toBeNull();
      const [, name, optional, type] = match as RegExpExecArray;
      return { name: name as string, optional: optional === "?", type: type as string };
    }),
  };
}

/** The notation, stated from JSON Schema: what a field of this schema must read as in a signature. */
function expectedType(schema: Schema, among = false): string {
  const options = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (options) return [...new Set(options.map((option) => expectedType(option, true)))].join("|");
  if (schema.enum) return (schema.enum as unknown[]).map((value) => `'${value}'`).join("|");
  if (schema.const !== undefined) return `'${schema.const}'`;
  const name = (type: unknown) => (type === "integer" ? "int" : String(type));
  if (Array.isArray(schema.type)) return schema.type.map(name).join("|");
  if (schema.type === "array") {
    const item = expectedType(schema.items as Schema, among);
    return item.includes("|") ? `(${item})[]` : `${item}[]`;
  }
  const required = (schema.required ?? []) as string[];
  if (schema.type === "object" && !among && required.length > 0) {
    const properties = schema.properties as Record<string, Schema>;
    const fields = required.map((field) => `${field}: ${expectedType(properties[field] as Schema)}`);
    return `{${fields.join(", ")}${Object.keys(properties).length > required.length ? ", …" : ""}}`;
  }
  return schema.type === undefined ? "any" : name(schema.type);
}

function inputSchemaOf(command: Command): { properties: Record<string, Schema>; required: string[] } {
  const schema = z.toJSONSchema(command.input, { io: "input", unrepresentable: "any" }) as Schema;
  return { properties: (schema.properties ?? {}) as Record<string, Schema>, required: (schema.required ?? []) as string[] };
}

describe("typed golden ops on the default listing", () => {
  it("states every golden op's required arguments and their types, as the command's schema has them", async () => {
    const { tools } = await listing();
    // The portals, then the tool that opens the MCP App (not a portal: test/app.test.ts).
    expect(tools.map((tool) => tool.name)).toEqual([...portals().map((portal) => portal.name), "visualize"]);
    let checked = 0;
    for (const portal of portals()) {
      const description = tools.find((tool) => tool.name === portal.name)?.description ?? "";
      const at = description.indexOf(` ${SIGNATURES_LABEL} `);
      expect(at, portal.name).toBeGreaterThan(0);
      const signatures = splitTop(description.slice(at + SIGNATURES_LABEL.length + 2), "; ").map(parseSignature);
      expect(
        signatures.map((signature) => signature.op),
        portal.name,
      ).toEqual(Object.keys(portal.ops));
      for (const { op, params } of signatures) {
        const command = findCommand(portal.ops[op] as string) as Command;
        const { properties, required } = inputSchemaOf(command);
        const where = `${portal.name} ${op} (${command.name})`;
        // Required: exactly the schema's, in its order, each with its type.
        expect(
          params.filter((param) => !param.optional).map((param) => param.name),
          where,
        ).toEqual(required);
        // Optional: the arguments of the command's own minimal example, each a property of the schema.
        const exampled = Object.keys(command.example ?? {}).filter((name) => !required.includes(name));
        expect(
          params.filter((param) => param.optional).map((param) => param.name),
          where,
        ).toEqual(exampled);
        for (const param of params) {
          expect(properties[param.name], `${where} ${param.name}`).toBeDefined();
          expect(param.type, `${where} ${param.name}`).toBe(expectedType(properties[param.name] as Schema));
        }
        checked++;
      }
    }
    expect(checked).toBe(portals().reduce((sum, portal) => sum + Object.keys(portal.ops).length, 0));
  });

  it("renders any schema in the notation: scalars, enums, arrays, unions, nullables, objects by required field", () => {
    const command = {
      name: "test.signature_probe",
      input: z.strictObject({
        title: z.string(),
        count: z.number().int(),
        ratio: z.number().optional(),
        states: z.array(z.enum(["OPEN", "DONE"])),
        card: z.union([z.string(), z.record(z.string(), z.unknown())]),
        steps: z.array(z.strictObject({ title: z.string(), note: z.string().optional() })),
        parent: z.string().nullable().optional(),
        flag: z.boolean().optional(),
      }),
      example: { title: "t", parent: null },
    } as unknown as Command;
    const { properties } = inputSchemaOf(command);
    expect(signatureOf("probe", command)).toBe(
      `probe(title: string, count: int, states: ('OPEN'|'DONE')[], card: string|object, steps: {title: string, …}[], parent?: ${expectedType(properties.parent as Schema)})`,
    );
    expect(expectedType(properties.parent as Schema)).toBe("string|null");
  });

  it(`keeps the whole default tools/list within ${LISTING_CEILING_CHARS.toLocaleString("en")} characters`, async () => {
    const { text } = await listing();
    expect(MAX_PORTAL_LISTING_CHARS).toBeLessThanOrEqual(LISTING_CEILING_CHARS);
    expect(text.length).toBeLessThanOrEqual(MAX_PORTAL_LISTING_CHARS);
  });
});

describe("truthful annotations on the default listing", () => {
  it("marks read-only exactly the portals that run reads only, and claims nothing more of the others", async () => {
    const { tools } = await listing();
    expect(COMMANDS.some((command) => command.destructive === true)).toBe(true);
    for (const portal of portals()) {
      const annotations = tools.find((tool) => tool.name === portal.name)?.annotations;
      if (portal.readOnly) {
        expect(annotations, portal.name).toEqual({
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: false,
        });
        for (const cmd of Object.values(portal.ops)) expect(findCommand(cmd)?.kind, `${portal.name} ${cmd}`).toBe("read");
      } else {
        // `call` reaches every command, destructive ones included: MCP's defaults (may write, destroy, repeat) stand.
        expect(annotations, portal.name).toEqual({ openWorldHint: false });
      }
    }
    expect(
      portals()
        .filter((portal) => portal.readOnly)
        .map((portal) => portal.name),
    ).toEqual(["status", "open"]);
  });

  it("places no write on a read-only portal, so no suggestion sends one there", () => {
    const context = { connection: PORTAL_CONNECTION, workspace: "sig/suggest", role: "admin" as const };
    for (const command of COMMANDS.filter((candidate) => candidate.kind === "write")) {
      expect(placeOf(command).portal.readOnly, command.name).toBe(false);
      const [rendered] = renderSuggestions([suggest(command.name, {}, "probe")], context);
      expect(["status", "open"], command.name).not.toContain(rendered?.tool);
    }
  });

  it("refuses a write through status's or open's call, with the ready call on the right portal; reads still pass", async () => {
    const workspace = "sig/read-only-call";
    const refused = await failure("status", { workspace, op: "call", cmd: "notes_commit", args: { content: "through status" } }, DEFAULT);
    expect(refused.code).toBe("INVALID_INPUT");
    expect(refused.recovery_hint).toContain("vcs portal");
    expect(refused.details).toMatchObject({ fields: ["cmd"], portal: "status", cmd: "vcs.notes.commit", use_portal: "vcs" });
    expect(refused.actions).toEqual([
      {
        tool: "vcs",
        args: { workspace, op: "notes.commit", args: { content: "through status" } },
        purpose: expect.stringContaining("vcs"),
      },
    ]);
    // Nothing was stored; the action, pasted as given, stores the note.
    expect((await ok("docs", { workspace, op: "show", args: { doc: "notes" } }, DEFAULT)).entries).toEqual([]);
    const action = refused.actions?.[0] as { tool: string; args: Record<string, unknown> };
    await ok(action.tool, action.args, DEFAULT);
    const shown = await ok("open", { workspace, op: "call", cmd: "docs.show", args: { doc: "notes" } }, DEFAULT);
    expect(shown.entries.map((entry: { content: string }) => entry.content)).toEqual(["through status"]);

    // A write with no golden op is sent with `call` on its domain's portal; invalid arguments lead to schema.get.
    const deletion = await failure("open", { workspace, op: "call", cmd: "vcs.branch.delete", args: { name: "x" } }, DEFAULT);
    expect(deletion.code).toBe("INVALID_INPUT");
    expect(deletion.actions?.[0]).toMatchObject({ tool: "vcs", args: { op: "call", cmd: "vcs.branch.delete", args: { name: "x" } } });
    const invalid = await failure("open", { workspace, op: "call", cmd: "vcs.notes.commit", args: {} }, DEFAULT);
    expect(invalid.code).toBe("INVALID_INPUT");
    expect(invalid.actions?.[0]).toMatchObject({ tool: "system", args: { op: "schema.get", args: { cmd: "vcs.notes.commit" } } });

    // A read token is refused the same, without a call it may not make.
    const reader = await failure(
      "status",
      { workspace, op: "call", cmd: "vcs.notes.commit", args: { content: "x" } },
      { ...DEFAULT, ...(await as("reader", { role: "read" })) },
    );
    expect(reader.code).toBe("INVALID_INPUT");
    expect(reader.actions).toBeUndefined();
  });
});
