/**
 * The commands the server's own machinery names: the front door's suggestions and fallbacks (where you
 * are, the workflow, a command's schema, the command list), a project's bootstrap, the resources'
 * workspace listing, the projects listing, the tool that opens the app, and the examples its messages give. They are named once, here in the catalog seam, so that src/worker/ and
 * src/hosts/ name no command; each must be in the catalog (checked on first use).
 */

import type { Command } from "../commands/registry";
import { findCommand } from "./catalog";

export const WELL_KNOWN = {
  /** Where you are and what is next: every toolset lists it and every role may call it. */
  status: "system.status",
  /** The portal workflow. */
  help: "system.help",
  /** A workspace's bootstrap, safe to repeat. */
  init: "system.init",
  /** A command's arguments and a valid example call. */
  schemaGet: "system.schema.get",
  /** Every command with its portal and golden op. */
  cmdList: "system.cmd.list",
  /** The workspaces a token may see, paged. */
  workspaceList: "workspace.list",
  /** The projects a token may use. */
  listProjects: "records.project.list",
  /** The typed graph's query: the viewer API's example of a read. */
  graphQuery: "graph.query",
  /** The append of a note: the example of a command name where a call needs one. */
  notesCommit: "vcs.notes.commit",
  /** The task snapshot, whose `delta` keeps a baseline: the example of a read that stores bookkeeping. */
  snapshot: "tasks.snapshot",
  /** What the MCP App needs to start: the tool a host renders the app for (docs/app.md). */
  visualize: "visualize",
} as const;

export type WellKnownRole = keyof typeof WELL_KNOWN;

/** The command that plays `role`; throws if the catalog lost it (a programming error, caught by every test). */
export function wellKnown(role: WellKnownRole): Command {
  const command = findCommand(WELL_KNOWN[role]);
  if (command === undefined) throw new Error(`well-known command ${role} (${WELL_KNOWN[role]}) is not in the catalog`);
  return command;
}
