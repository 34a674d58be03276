/**
 * One portal call (seed 002): validate the envelope, resolve `op` (a golden op, or `call` + `cmd`) to a
 * command, build its arguments from `args` plus the envelope's workspace, budget profile and view,
 * and run it like any tool call with the capsule attached. `cmd` takes the portal's own golden op
 * names (so `{op: "call", cmd: X}` is `{op: X}`) and any accepted command name, seed 000/001 names
 * included. Unknown ops and commands are typed errors whose actions lead to `system schema.get`.
 * A read-only portal (status, open) runs reads only: a write through its `call` is refused, pointing at
 * the portal that runs it, so the portal's `readOnlyHint` holds.
 */

import { findCommand } from "../catalog/catalog";
import { closestName } from "../catalog/closest-name";
import { resolveCommand as commandNamed, unknownCommandError } from "../catalog/command-facts";
import { CALL_OP, PORTAL_PROFILE, type Portal, placeOf } from "../catalog/portals";
import { renderError } from "../catalog/suggestions";
import { WELL_KNOWN, wellKnown } from "../catalog/well-known";
import type { Command } from "../commands/registry";
import { type AppError, appError, type ErrorAction, MAX_ERROR_TEXT_CHARS } from "../shared/errors";
import { err, type Result } from "../shared/result";
import { suggest, unfilledFields } from "../shared/suggestion";
import { type CallSession, callCommand, invalidArgumentsOf, renderContextOf, workspaceOfCall } from "./call-command";
import { type Envelope, envelopeSchema } from "./surfaces/portal-definitions";

function schemaActions(cmd: string | undefined): ErrorAction[] {
  return [
    ...(cmd === undefined ? [] : [suggest(WELL_KNOWN.schemaGet, { cmd }, `See ${cmd}'s arguments and a valid example call`)]),
    suggest(WELL_KNOWN.cmdList, {}, "List every command with its portal and golden op"),
  ];
}

/** How a message names the golden op that runs `command`: `system cmd.list`. */
function portalOpOf(command: Command): string {
  const { portal, op } = placeOf(command);
  return op === undefined ? `${portal.name} ${CALL_OP} ${command.name}` : `${portal.name} ${op}`;
}

function commandOf(portal: Portal, envelope: Envelope): Result<Command> {
  const op = envelope.op ?? portal.defaultOp;
  if (op === undefined) {
    return err(
      appError(
        "UNKNOWN_OP",
        `The ${portal.name} portal needs an op.`,
        `Pass op: one of ${[...Object.keys(portal.ops), CALL_OP].join(", ")}.`,
        {
          portal: portal.name,
          ops: Object.keys(portal.ops),
        },
      ),
    );
  }
  if (op !== CALL_OP) {
    // Own keys only: an op named like an Object.prototype member (`constructor`, `hasOwnProperty`) is unknown.
    const golden = Object.hasOwn(portal.ops, op) ? portal.ops[op] : undefined;
    if (golden !== undefined) return { ok: true, value: findCommand(golden) as Command };
    // An op that is really a command name (flat or dotted) says where to go; any
    // other names the portal's closest op (a typo of `recall` must not lead to `upsert`).
    const asCommand = commandNamed(op);
    if (asCommand) {
      return err(
        appError(
          "UNKNOWN_OP",
          `The ${portal.name} portal has no op "${op}".`,
          `Use op "call" with cmd "${asCommand.name}".`,
          { portal: portal.name, op, ops: Object.keys(portal.ops) },
          schemaActions(asCommand.name),
        ),
      );
    }
    const closest = closestName(op, Object.keys(portal.ops));
    return err(
      appError(
        "UNKNOWN_OP",
        `The ${portal.name} portal has no op "${op}".`,
        `${closest ? `Did you mean op "${closest}"? ` : ""}Use one of ${[...Object.keys(portal.ops), CALL_OP].join(", ")}; op "call" takes any cmd.`,
        { portal: portal.name, op, ops: Object.keys(portal.ops), ...(closest ? { did_you_mean: closest } : {}) },
        schemaActions(closest === undefined ? undefined : portal.ops[closest]),
      ),
    );
  }
  if (envelope.cmd === undefined) {
    return err(
      appError(
        "INVALID_INPUT",
        'op "call" needs cmd: the command to run.',
        `Pass cmd (e.g. ${WELL_KNOWN.notesCommit}); ${portalOpOf(wellKnown("cmdList"))} lists them.`,
        {
          fields: ["cmd"],
        },
      ),
    );
  }
  // The portal's own golden op first: on this portal, `cmd: X` runs what `op: X` runs.
  const golden = Object.hasOwn(portal.ops, envelope.cmd) ? portal.ops[envelope.cmd] : undefined;
  const command = golden === undefined ? commandNamed(envelope.cmd) : findCommand(golden);
  if (command === undefined) return err(unknownCommandError(envelope.cmd, "cmd"));
  return { ok: true, value: command };
}

function commandArgs(portal: Portal, command: Command, envelope: Envelope): Result<Record<string, unknown>> {
  const args: Record<string, unknown> = { ...(envelope.args ?? {}) };
  const accepts = (field: string) => field in command.input.shape;
  const place = (field: string, value: unknown) => {
    if (value === undefined) return true;
    if (args[field] !== undefined && args[field] !== value) return false;
    args[field] = value;
    return true;
  };
  const conflict = (field: string) =>
    err(
      appError("INVALID_INPUT", `${field} is given twice with different values (envelope and args).`, `Give ${field} once.`, {
        fields: [field, `args.${field}`],
      }),
    );
  if (!place("workspace", envelope.workspace)) return conflict("workspace");
  if (portal.refField !== undefined && !place(portal.refField, envelope[portal.refField])) return conflict(portal.refField);
  // The envelope's view reaches commands that have one; a view inside args wins (it is the command's own).
  const view = envelope.view ?? envelope.portal_view;
  if (view !== undefined && accepts("view") && args.view === undefined) args.view = view;
  if (command.kind === "read" && accepts("budget_profile") && args.budget_profile === undefined) {
    args.budget_profile = envelope.budget_profile ?? PORTAL_PROFILE;
  }
  return { ok: true, value: args };
}

/**
 * A write sent through a read-only portal's `call`: refused before it runs, with the portal that runs it
 * and, when the arguments are valid, filled in and small enough to echo, the ready call there (rendered
 * for the connection: the right portal and op, the workspace). Other arguments get `schema.get`.
 */
function readOnlyRefusal(portal: Portal, command: Command, args: Record<string, unknown>): AppError {
  const { portal: home, op } = placeOf(command);
  const how = op === undefined ? `op "${CALL_OP}" with cmd "${command.name}"` : `op "${op}"`;
  const { workspace: _envelope, ...own } = args;
  const echoable =
    command.input.safeParse(args).success &&
    unfilledFields(own, command.verbatim).length === 0 &&
    JSON.stringify(own).length <= MAX_ERROR_TEXT_CHARS;
  return appError(
    "INVALID_INPUT",
    `The ${portal.name} portal only reads; ${command.name} writes.`,
    `Call it on the ${home.name} portal: ${how}, with the same args.`,
    { fields: ["cmd"], portal: portal.name, cmd: command.name, use_portal: home.name },
    echoable ? [suggest(command.name, own, `Run ${command.name} on the ${home.name} portal`)] : schemaActions(command.name),
  );
}

/** Envelope schemas are built once per portal and isolate (building one costs more than a parse). */
const ACCEPTED = new Map<string, ReturnType<typeof envelopeSchema>>();

function acceptedEnvelope(portal: Portal): ReturnType<typeof envelopeSchema> {
  let schema = ACCEPTED.get(portal.name);
  if (!schema) {
    schema = envelopeSchema(portal, "accepted");
    ACCEPTED.set(portal.name, schema);
  }
  return schema;
}

export async function callPortal(session: CallSession, portal: Portal, rawArgs: unknown): Promise<Result<Record<string, unknown>>> {
  const result = await runPortal(session, portal, rawArgs);
  if (result.ok) return result;
  const envelope = rawArgs !== null && typeof rawArgs === "object" ? (rawArgs as Record<string, unknown>) : {};
  return { ok: false, error: renderError(result.error, renderContextOf(session, workspaceOfCall(session, envelope))) };
}

async function runPortal(session: CallSession, portal: Portal, rawArgs: unknown): Promise<Result<Record<string, unknown>>> {
  const parsed = acceptedEnvelope(portal).safeParse(rawArgs ?? {});
  if (!parsed.success) return err(invalidArgumentsOf(portal.name, parsed.error, `the ${portal.name} tool's inputSchema`));
  const envelope = parsed.data as Envelope;
  const command = commandOf(portal, envelope);
  if (!command.ok) return command;
  const args = commandArgs(portal, command.value, envelope);
  if (!args.ok) return args;
  if (portal.readOnly && command.value.kind !== "read") return err(readOnlyRefusal(portal, command.value, args.value));
  return callCommand(session, command.value, args.value, { capsule: true });
}
