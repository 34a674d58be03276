/**
 * What the system portal says about one command: where it lives (its portal and golden op), its
 * argument schema as JSON Schema (without `workspace`, which the envelope carries), a minimal valid
 * example, the portal call that runs it, and its anchor in docs/commands.md. Also resolves any
 * accepted name (dotted, flat, alias, `branchmind_*`, `branchmind.`/`branchmind/` prefixes, seed 000/001
 * names) and builds the UNKNOWN_CMD error with a "did you mean" action.
 *
 * The catalog imports the system commands, which import this module: nothing here touches the
 * catalog or the portal table at module load, only inside functions (memoized on first use).
 */
import { z } from "zod";
import type { Command } from "../commands/registry";
import { type AppError, appError, CommandError, type ErrorAction } from "../shared/errors";
import { type Suggestion, suggest } from "../shared/suggestion";
import { COMMANDS, findCommand, namesOf } from "./catalog";
import { closestName } from "./closest-name";
import { type JsonSchema, minimalArgs } from "./examples";
import { findLegacyName, LEGACY_NAMES } from "./legacy-names";
import { allPortals, domainOf, portals, stripNamePrefix } from "./portals";
import { anchorOf } from "./reference";

/** The generated command reference that `doc_ref` points into. */
export const COMMAND_REFERENCE_PATH = "docs/commands.md";

/** Names of every seed 002 portal that is not listed yet (its domains have no command). */
export function unpluggedPortals(): string[] {
  const listed = new Set(portals().map((portal) => portal.name));
  return allPortals()
    .map((portal) => portal.name)
    .filter((name) => !listed.has(name));
}

const argsSchemas = new Map<string, JsonSchema>();

/** The command's input as JSON Schema, as a client sends it, minus `workspace` and `$schema`. */
export function argsSchemaOf(command: Command): JsonSchema {
  let schema = argsSchemas.get(command.name);
  if (!schema) {
    const { $schema: _dialect, ...rest } = z.toJSONSchema(command.input, { io: "input", unrepresentable: "any" }) as JsonSchema;
    const { workspace: _workspace, ...properties } = (rest.properties ?? {}) as Record<string, JsonSchema>;
    schema = { ...rest, properties };
    if (Array.isArray(rest.required)) schema.required = (rest.required as string[]).filter((name) => name !== "workspace");
    argsSchemas.set(command.name, schema);
  }
  return schema;
}

const examples = new Map<string, Record<string, unknown>>();

/** The command's own `example`, else the smallest arguments its schema accepts. */
export function exampleArgsOf(command: Command): Record<string, unknown> {
  let example = examples.get(command.name);
  if (!example) {
    example = command.example ?? minimalArgs(argsSchemaOf(command), { domain: domainOf(command) });
    examples.set(command.name, example);
  }
  return example;
}

/** The call that runs the command with its example arguments (a suggestion: in the caller's form). */
export function exampleCallOf(command: Command): Suggestion {
  return suggest(command.name, exampleArgsOf(command), `A valid call of ${command.name} with its minimal arguments`);
}

export function docRefOf(command: Command): { path: string; anchor: string } {
  return { path: COMMAND_REFERENCE_PATH, anchor: anchorOf(command.name) };
}

/** A command by any name it answers to, with the `branchmind.`/`branchmind/` prefixes, or by a seed 000/001 name. */
export function resolveCommand(name: string): Command | undefined {
  const bare = stripNamePrefix(name);
  return findCommand(bare) ?? resolveLegacy(bare);
}

function resolveLegacy(name: string): Command | undefined {
  const entry = findLegacyName(name);
  return entry === undefined ? undefined : findCommand(entry.cmd);
}

let knownNames: string[] | undefined;

/** The known name closest to `name` (every accepted name and every seed 000/001 name), as its command's dotted name. */
export function closestCommand(name: string): Command | undefined {
  knownNames ??= [...COMMANDS.flatMap(namesOf), ...LEGACY_NAMES.map((entry) => entry.old_name)];
  const closest = closestName(stripNamePrefix(name), knownNames);
  return closest === undefined ? undefined : resolveCommand(closest);
}

/** UNKNOWN_CMD with 1 best action (the schema of the closest command) and 1 backup (the command list). */
export function unknownCommandError(name: string, field: string): AppError {
  const closest = closestCommand(name);
  const actions: ErrorAction[] = [];
  if (closest) {
    actions.push(
      suggest(
        "system.schema.get",
        { cmd: closest.name },
        `Closest known command: ${closest.name} (${closest.tool}); see its arguments and an example call`,
      ),
    );
  }
  actions.push(suggest("system.cmd.list", {}, "List every command with its portal and golden op"));
  return appError(
    "UNKNOWN_CMD",
    `Unknown command "${name}".`,
    closest
      ? `Did you mean ${closest.name}? Any accepted name works (dotted, flat tool name, branchmind_*); system cmd.list lists them.`
      : "Call system cmd.list for every command; migration.lookup maps old tool names.",
    { [field]: name, ...(closest ? { did_you_mean: closest.name } : {}) },
    actions,
  );
}

export function failUnknownCommand(name: string, field: string): never {
  throw new CommandError(unknownCommandError(name, field));
}
