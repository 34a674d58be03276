import { describe, expect, it } from "vitest";
import { exampleValue, minimalArgs } from "./examples";

const context = { domain: "tasks" };

describe("minimalArgs", () => {
  it("fills required properties only, recursively", () => {
    const schema = {
      type: "object",
      properties: {
        title: { type: "string", minLength: 1 },
        optional: { type: "string" },
        steps: {
          type: "array",
          minItems: 1,
          items: { type: "object", properties: { title: { type: "string" }, tests: { type: "array" } }, required: ["title"] },
        },
      },
      required: ["title", "steps"],
    };
    expect(minimalArgs(schema, context)).toEqual({ title: "Ship the importer", steps: [{ title: "Ship the importer" }] });
  });

  it("honours const, enum, the first usable variant and booleans", () => {
    expect(exampleValue({ const: "node_upsert" }, context)).toBe("node_upsert");
    expect(exampleValue({ type: "string", enum: ["use_from", "use_into"] }, context)).toBe("use_from");
    expect(exampleValue({ anyOf: [{ type: "null" }, { type: "integer", minimum: 3 }] }, context)).toBe(3);
    expect(exampleValue({ type: "boolean" }, context)).toBe(true);
  });

  it("picks a placeholder by field name that fits the pattern and length, else a generic one", () => {
    expect(exampleValue({ type: "string", pattern: "^(PLAN|TASK)-[0-9]{3,}$" }, context, "target")).toBe("TASK-001");
    expect(exampleValue({ type: "string", pattern: "^PLAN-[0-9]{3,}$" }, context, "target")).toBe("PLAN-001");
    expect(exampleValue({ type: "string", pattern: "^s:[0-9]+(\\.s:[0-9]+)*$" }, context, "whatever")).toBe("s:0");
    expect(exampleValue({ type: "string", maxLength: 4 }, context, "from")).toBe("main");
    expect(exampleValue({ type: "string", minLength: 12, pattern: "^z+$" }, context)).toBe("x".repeat(12));
    expect(exampleValue({ type: "string", format: "uri" }, context, "url")).toBe("https://example.com/notes");
  });

  it("uses the domain's placeholder before the field's", () => {
    expect(exampleValue({ type: "string" }, { domain: "think" }, "from")).toBe("CARD-1");
    expect(exampleValue({ type: "string" }, { domain: "docs" }, "from")).toBe("experiment");
  });

  it("respects numeric bounds", () => {
    expect(exampleValue({ type: "integer", exclusiveMinimum: 0 }, context)).toBe(1);
    expect(exampleValue({ type: "integer", minimum: 5, maximum: 10 }, context)).toBe(5);
    expect(exampleValue({ type: "number", exclusiveMinimum: 0.5 }, context)).toBe(1.5);
    expect(exampleValue({ type: "integer", maximum: 0 }, context)).toBe(0);
    expect(exampleValue({ type: "integer" }, context)).toBe(1);
  });
});
