// Unit check of the fuzzer's generators (test/fuzz/arbitraries.ts) against the real zod schemas: the
// "valid" branch must produce arguments each command's schema accepts (it can miss only rules JSON
// Schema cannot state), mutations must mostly be rejected, and the protocol generators must produce
// what the fuzzer sends (strings for bodies, objects for envelopes).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { COMMANDS } from "../../src/catalog/catalog";
import { exampleValue } from "../../src/catalog/examples";
import { domainOf } from "../../src/catalog/portals";
import type { Command } from "../../src/commands/registry";
import { envelope, type GenOptions, type JsonSchema, jsonRpcJunk, junk, mutatedArgs, nastyString, validArgs } from "./arbitraries";

const SAMPLES = 25;
const SEED = 42;

function schemaOf(command: Command): JsonSchema {
  return z.toJSONSchema(command.input, { io: "input", unrepresentable: "any" }) as JsonSchema;
}

function optionsOf(command: Command): GenOptions {
  return {
    known: ["main", "TASK-001", "CARD-1", "R001", "notes@1"],
    byField: { agent_id: ["fuzzer"] },
    fixed: { workspace: "fuzz/ws" },
    placeholder: (schema, field) => exampleValue(schema, { domain: domainOf(command) }, field),
  };
}

describe("fuzz arbitraries", () => {
  it("valid arguments pass each command's zod schema (≥ 80% per command, ≥ 95% overall)", () => {
    let accepted = 0;
    const low: string[] = [];
    for (const command of COMMANDS) {
      const samples = fc.sample(validArgs(schemaOf(command), optionsOf(command)), { seed: SEED, numRuns: SAMPLES });
      const passed = samples.filter((args) => command.input.safeParse(args).success).length;
      accepted += passed;
      if (passed < SAMPLES * 0.8) low.push(`${command.tool}: ${passed}/${SAMPLES}`);
    }
    expect(low).toEqual([]);
    expect(accepted / (COMMANDS.length * SAMPLES)).toBeGreaterThanOrEqual(0.95);
  });

  it("mutated arguments are mostly rejected (some mutations stay legal and go deeper)", () => {
    let rejected = 0;
    for (const command of COMMANDS) {
      const samples = fc.sample(mutatedArgs(schemaOf(command), optionsOf(command)), { seed: SEED, numRuns: SAMPLES });
      rejected += samples.filter(({ args }) => !command.input.safeParse(args).success).length;
    }
    expect(rejected / (COMMANDS.length * SAMPLES)).toBeGreaterThanOrEqual(0.7);
  });

  it("protocol generators: JSON-RPC junk is a string body, envelopes and junk survive JSON", () => {
    for (const request of fc.sample(jsonRpcJunk, { seed: SEED, numRuns: 200 })) expect(typeof request.body).toBe("string");
    const envelopes = fc.sample(
      envelope({ ops: ["call", "log"], commands: ["vcs.log", "notes_commit"], workspace: "fuzz/ws", argsFor: () => fc.constant({}) }),
      { seed: SEED, numRuns: 200 },
    );
    const wellFormed = envelopes.filter(
      (value) => typeof value === "object" && value !== null && (value as { workspace?: unknown }).workspace === "fuzz/ws",
    );
    expect(wellFormed.length).toBeGreaterThan(100);
    for (const value of fc.sample(junk, { seed: SEED, numRuns: 200 })) expect(() => JSON.stringify(value)).not.toThrow();
    expect(fc.sample(nastyString, { seed: SEED, numRuns: 200 }).some((value) => [...value].some((char) => char.charCodeAt(0) < 0x20))).toBe(
      true,
    );
  });
});
