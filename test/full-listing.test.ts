// The lean `?toolset=full` listing (issue 26, item 5), through the real endpoint: the whole tools/list
// answer stays under a ceiling; every tool keeps an object inputSchema with every description zod
// gives and an object outputSchema; real answers (a read, a write, an error, budget-trimmed and
// minimal reads) validate against the listed outputSchema, as a strict client (draft 2020-12) checks
// them, and against the whole answer contract; and the listed schema still refuses answers that lack
// what every answer of its tool has.

import { type Schema, Validator } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { COMMANDS, findCommand } from "../src/catalog/catalog";
import { SHARED_FIELD_DESCRIPTIONS } from "../src/commands/registry";
import { MIN_BUDGET_CHARS } from "../src/shared/limits";
import { answerContract } from "../src/worker/surfaces/tool-definitions";
import { callTool, ok, rpc } from "./helpers/mcp";

/**
 * Issue 26 asks for under 150,000 characters, which the catalog cannot reach while each command's own
 * input descriptions are listed (about 160,000 even with every output schema a bare object). This
 * ceiling holds the lean listing (about 323,000 characters at 151 tools, 2,140 a tool) with room for
 * about 15 more commands, and fails on the verbose one (about 845,000).
 */
const MAX_FULL_LISTING_CHARS = 360_000;
const FULL = { path: "/mcp?toolset=full" };

interface ListedTool {
  name: string;
  inputSchema: { type: string; properties?: Record<string, unknown> };
  outputSchema?: { type: string };
}

async function fullListing(): Promise<{ text: string; tools: ListedTool[] }> {
  const response = await rpc("tools/list", {}, FULL);
  const text = await response.text();
  expect(response.status, text).toBe(200);
  const message = JSON.parse(text) as { result?: { tools: ListedTool[] } };
  return { text, tools: message.result?.tools ?? [] };
}

/** Every `description` in a schema, in document order. */
function descriptionsOf(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) descriptionsOf(item, out);
  else if (value !== null && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (key === "description" && typeof inner === "string") out.push(inner);
      else descriptionsOf(inner, out);
    }
  }
  return out;
}

/** The tool's answer as a strict client sees it: validated against the listed outputSchema. */
function validates(schema: object, answer: Record<string, unknown>): string[] {
  const verdict = new Validator(schema as Schema, "2020-12", false).validate(answer);
  return verdict.errors.map((error) => `${error.instanceLocation}: ${error.error}`);
}

describe("tools/list on the full toolset", () => {
  it(`stays under ${MAX_FULL_LISTING_CHARS} characters`, async () => {
    const { text, tools } = await fullListing();
    expect(tools.length).toBe(COMMANDS.length);
    expect(text.length).toBeLessThan(MAX_FULL_LISTING_CHARS);
  });

  it("gives every tool object schemas, with every input description zod has but the shared fields' (said once, in the instructions)", async () => {
    const { tools } = await fullListing();
    for (const tool of tools) {
      const command = findCommand(tool.name);
      expect(command, tool.name).toBeDefined();
      if (!command) continue;
      expect(tool.inputSchema.type, tool.name).toBe("object");
      expect(tool.outputSchema?.type, tool.name).toBe("object");
      const input = z.toJSONSchema(command.input, { io: "input", unrepresentable: "any" }) as {
        properties?: Record<string, { description?: string }>;
      };
      const own = Object.fromEntries(
        Object.entries(input.properties ?? {}).map(([name, property]) => {
          if (property.description !== SHARED_FIELD_DESCRIPTIONS.get(name)) return [name, property];
          const { description: _said, ...rest } = property;
          return [name, rest];
        }),
      );
      expect(descriptionsOf(tool.inputSchema), tool.name).toEqual(descriptionsOf({ ...input, properties: own }));
    }
  });
});

describe("the shared fields", () => {
  it("are described once, in the server's instructions", async () => {
    const response = await rpc("server/discover", {}, FULL);
    const instructions = String(((await response.json()) as { result?: { instructions?: string } }).result?.instructions);
    expect(SHARED_FIELD_DESCRIPTIONS.size).toBeGreaterThanOrEqual(5);
    for (const [name, description] of SHARED_FIELD_DESCRIPTIONS) expect(instructions).toContain(`${name}: ${description}`);
  });
});

describe("real answers against the listed outputSchema", () => {
  it("accepts a write, a read, an error and budget-cut reads, and the whole contract accepts them too", async () => {
    const workspace = "listing/answers";
    const { tools } = await fullListing();
    const listed = (name: string) => {
      const schema = tools.find((tool) => tool.name === name)?.outputSchema;
      expect(schema, name).toBeDefined();
      return schema as object;
    };
    const long = "an observation long enough that a few of them overflow the smallest budgets ".repeat(12);
    const answers: [string, string, Record<string, unknown>][] = [];
    for (let i = 1; i <= 6; i++) {
      const written = await callTool("notes_commit", { workspace, content: `${i}: ${long}` }, FULL);
      answers.push(["notes_commit", "a write", written.structuredContent]);
    }
    answers.push(["show", "a read", await ok("show", { workspace, doc: "notes" }, FULL)]);
    answers.push(["status", "a read", await ok("status", { workspace }, FULL)]);
    const failed = await callTool("show", { workspace, branch: "no-such-branch", doc: "notes" }, FULL);
    expect(failed.isError).toBe(true);
    answers.push(["show", "an error", failed.structuredContent]);
    // Status at the smallest budget is its minimal answer; the notes at a few times it are trimmed.
    const cuts = [
      ["status", { max_chars: MIN_BUDGET_CHARS }, "BUDGET_MINIMAL"],
      ["show", { doc: "notes", max_chars: 4 * MIN_BUDGET_CHARS }, "BUDGET_TRUNCATED"],
    ] as const;
    for (const [name, budget, level] of cuts) {
      const cut = await ok(name, { workspace, ...budget }, FULL);
      expect(cut.budget, name).toMatchObject({ truncated: true });
      expect(cut.warnings.map((warning: { code: string }) => warning.code)).toContain(level);
      answers.push([name, `a read cut to ${level}`, cut]);
    }
    for (const [name, what, answer] of answers) {
      expect(validates(listed(name), answer), `${what} (${name})`).toEqual([]);
      const command = findCommand(name);
      if (command) expect(validates(answerContract(command), answer), `${what} (${name}), whole contract`).toEqual([]);
    }
  });

  it("refuses what no answer of the tool is: a missing field, an error without its message, an uncut stub", async () => {
    const { tools } = await fullListing();
    const schemaOf = (name: string) => tools.find((tool) => tool.name === name)?.outputSchema as object;
    expect(validates(schemaOf("notes_commit"), {})).not.toEqual([]);
    expect(validates(schemaOf("notes_commit"), { error: { code: "CONFLICT" } })).not.toEqual([]);
    expect(validates(schemaOf("show"), { budget: { max_chars: 800, used_chars: 10, truncated: false } })).not.toEqual([]);
    expect(
      validates(schemaOf("show"), { branch: "main", doc: "notes", entries: "not a list", pagination: {}, truncated: false }),
    ).not.toEqual([]);
  });
});
