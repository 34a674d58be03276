// Fuzzing the tools (issue 11): every command as a flat tool (toolset=full) with valid and mutated
// arguments built from its zod schema, and portal envelopes (toolset=portals) with random op, cmd and
// args, through the real Worker. The harness, its checks and the fuzz workspace are in test/fuzz/
// (harness.ts describes the properties and the VITE_FUZZ_* knobs); see docs/ci.md.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { COMMANDS, namesOf } from "../src/catalog/catalog";
import { exampleArgsOf } from "../src/catalog/command-facts";
import { exampleValue } from "../src/catalog/examples";
import { CALL_OP, domainOf, portals } from "../src/catalog/portals";
import type { Command } from "../src/commands/registry";
import { envelope, fuzzArgs, type GenOptions, type JsonSchema } from "./fuzz/arbitraries";
import { fuzzCall } from "./fuzz/checks";
import { expectationOf } from "./fuzz/expectations";
import { BASE_SEED, PER_COMMAND, PORTAL_RUNS, runGroup, selected, show, stats, timeoutFor } from "./fuzz/harness";
import { bearers, GUARD, KNOWN, setUpFuzzing } from "./fuzz/workspace";
import { rpc } from "./helpers/mcp";

const WORKSPACE = "fuzz/ws";

// ---------------------------------------------------------------------------------------------------
// Arbitraries per command

const schemas = new Map<string, JsonSchema>();

function schemaOf(command: Command): JsonSchema {
  let schema = schemas.get(command.name);
  if (!schema) {
    schema = z.toJSONSchema(command.input, { io: "input", unrepresentable: "any" }) as JsonSchema;
    schemas.set(command.name, schema);
  }
  return schema;
}

function optionsFor(command: Command): GenOptions {
  return {
    known: KNOWN,
    byField: { agent_id: ["fuzzer"], project_id: [WORKSPACE], workspace: [WORKSPACE], project_guard: [GUARD] },
    fixed: { workspace: WORKSPACE },
    placeholder: (schema, field) => exampleValue(schema, { domain: domainOf(command) }, field),
  };
}

/** Who calls, and through which URL: mostly the admin on /mcp; sometimes read-only, another agent, the locked URL. */
const caller = fc.record({
  bearer: fc.oneof(
    { weight: 8, arbitrary: fc.constant("admin") },
    { weight: 1, arbitrary: fc.constant("read") },
    { weight: 1, arbitrary: fc.constant("rival") },
  ),
  locked: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
});

const pathOf = (locked: boolean, toolset: string) => `${locked ? `/w/${encodeURIComponent(WORKSPACE)}` : ""}/mcp?toolset=${toolset}`;

/** Arguments for any command name a portal call may carry (valid, mutated, or its example). */
function argsForName(name: string | undefined): fc.Arbitrary<unknown> {
  const command = name === undefined ? undefined : COMMANDS.find((candidate) => namesOf(candidate).includes(name));
  if (!command) return fc.constant({});
  const { workspace: _workspace, ...example } = { ...exampleArgsOf(command) };
  return fc.oneof(
    fc.constant(example),
    fuzzArgs(schemaOf(command), { ...optionsFor(command), fixed: {} }).map((fuzzed) => {
      if (fuzzed.args && typeof fuzzed.args === "object" && !Array.isArray(fuzzed.args)) {
        const { workspace: _dropped, ...rest } = fuzzed.args as Record<string, unknown>;
        return rest;
      }
      return fuzzed.args;
    }),
  );
}

// ---------------------------------------------------------------------------------------------------
// The runs

describe("fuzzing", () => {
  setUpFuzzing(WORKSPACE, "test/fuzz-tools.test.ts");

  it(
    "every flat tool (toolset=full): valid and mutated arguments",
    async () => {
      const failuresBefore = stats.failures.length;
      for (const [index, command] of COMMANDS.entries()) {
        if (!selected(command.tool)) continue;
        const arbitrary = fc.tuple(fuzzArgs(schemaOf(command), optionsFor(command)), caller);
        await runGroup(`flat ${command.tool}`, BASE_SEED + index, PER_COMMAND, arbitrary, async ([fuzzed, who]) => {
          stats.groups.flat++;
          await fuzzCall(
            `${command.tool} (${fuzzed.kind}, ${who.bearer}${who.locked ? ", locked URL" : ""}) ${show(fuzzed.args)}`,
            () =>
              rpc(
                "tools/call",
                { name: command.tool, arguments: fuzzed.args },
                { bearer: bearers[who.bearer], path: pathOf(who.locked, "full") },
              ),
            expectationOf(command, fuzzed.args),
          );
        });
      }
      expect(stats.failures.slice(failuresBefore)).toEqual([]);
    },
    timeoutFor(PER_COMMAND * COMMANDS.length),
  );

  it(
    "portal envelopes (toolset=portals): random op, cmd and args",
    async () => {
      const failuresBefore = stats.failures.length;
      if (!selected("portals")) return;
      const list = portals();
      const names = COMMANDS.flatMap((command) => [command.name, command.tool]);
      const call = fc.integer({ min: 0, max: list.length - 1 }).chain((index) => {
        const portal = list[index] as (typeof list)[number];
        const ops = [CALL_OP, ...Object.keys(portal.ops)];
        return fc.tuple(
          fc.constant(portal.name),
          envelope({
            ops,
            commands: names,
            workspace: WORKSPACE,
            argsFor: (cmd, op) => argsForName(op === CALL_OP || op === undefined ? cmd : (portal.ops[op] ?? cmd)),
          }),
          caller,
        );
      });
      await runGroup("portal", BASE_SEED + 1_000, PORTAL_RUNS, call, async ([portal, args, who]) => {
        stats.groups.portal++;
        await fuzzCall(`portal ${portal} (${who.bearer}) ${show(args)}`, () =>
          rpc("tools/call", { name: portal, arguments: args }, { bearer: bearers[who.bearer], path: pathOf(who.locked, "portals") }),
        );
      });
      expect(stats.failures.slice(failuresBefore)).toEqual([]);
    },
    timeoutFor(PORTAL_RUNS),
  );
});
