/**
 * The catalog seam: every command of the server, with lookups by dotted name, flat tool name or alias,
 * and the hooks capabilities register with the workspace executor (write guards, the portal capsule,
 * the summary's counts, the cleaners of a deleted branch's rows). The one module outside the
 * capabilities that imports them: the Worker imports it for schemas and surfaces, the workspace object
 * (src/hosts/workspace/) for handlers and hooks.
 */
import { deleteBranchAnchorLinks } from "../capabilities/anchors/anchor-links.store";
import { ANCHOR_COMMANDS } from "../capabilities/anchors/anchors.catalog";
import { BRANCH_COMMANDS } from "../capabilities/branches/branches.catalog";
import { CODE_REF_COMMANDS } from "../capabilities/code-refs/code-refs.catalog";
import { DOCS_COMMANDS } from "../capabilities/docs/docs.catalog";
import { deleteBranchDocs } from "../capabilities/docs/docs.store";
import { GRAPH_COMMANDS } from "../capabilities/graph/graph.catalog";
import { deleteBranchGraph } from "../capabilities/graph/graph.store";
import { TERMS_BACKFILL } from "../capabilities/graph/graph-terms-backfill.store";
import { JOB_COMMANDS } from "../capabilities/jobs/jobs.catalog";
import { KNOWLEDGE_COMMANDS } from "../capabilities/knowledge/knowledge.catalog";
import { OPEN_COMMANDS } from "../capabilities/open/open.catalog";
import { PROJECT_COMMANDS, PROJECT_OVERVIEW_COMMANDS } from "../capabilities/projects/projects.catalog";
import { RECORD_COMMANDS, recordSyncSummary } from "../capabilities/records/records.catalog";
import { SYSTEM_COMMANDS } from "../capabilities/system/system.catalog";
import { focusCapsule } from "../capabilities/tasks/capsule";
import { compactCapsule, type RenderedCapsule } from "../capabilities/tasks/capsule.compact";
import { TASK_COMMANDS } from "../capabilities/tasks/tasks.catalog";
import { ANCHOR_NOTE_COMMANDS, IDEA_BRANCH_COMMANDS, THINK_COMMANDS } from "../capabilities/think/think.catalog";
import { TRACE_COMMANDS } from "../capabilities/trace/trace.catalog";
import { NOTES_COMMANDS, VCS_COMMANDS } from "../capabilities/vcs/vcs.catalog";
import { deleteBranchRefs } from "../capabilities/vcs/vcs.store";
import { VISUALIZE_COMMANDS } from "../capabilities/visualize/visualize.catalog";
import { RESTORE_GUARD } from "../capabilities/workspace/restore-state";
import { WORKSPACE_COMMANDS } from "../capabilities/workspace/workspace.catalog";
import type { Command } from "../commands/registry";
import type { WorkspaceHooks } from "../commands/workspace-hooks";
import { countBranches, MAIN_BRANCH_GUARD } from "../place/branches.store";

export const COMMANDS: readonly Command[] = [
  ...SYSTEM_COMMANDS,
  ...NOTES_COMMANDS,
  ...DOCS_COMMANDS,
  ...BRANCH_COMMANDS,
  ...IDEA_BRANCH_COMMANDS,
  ...VCS_COMMANDS,
  ...GRAPH_COMMANDS,
  ...TASK_COMMANDS,
  ...JOB_COMMANDS,
  ...THINK_COMMANDS,
  ...KNOWLEDGE_COMMANDS,
  ...ANCHOR_COMMANDS,
  ...ANCHOR_NOTE_COMMANDS,
  ...CODE_REF_COMMANDS,
  ...TRACE_COMMANDS,
  ...WORKSPACE_COMMANDS,
  ...OPEN_COMMANDS,
  ...VISUALIZE_COMMANDS,
  ...PROJECT_COMMANDS,
  ...PROJECT_OVERVIEW_COMMANDS,
  ...RECORD_COMMANDS,
];

/** Every name a command answers to: dotted name, flat tool name, seed 000 `branchmind_<tool>`, aliases. */
export function namesOf(command: Command): string[] {
  return [...new Set([command.name, command.tool, `branchmind_${command.tool}`, ...(command.aliases ?? [])])];
}

const BY_NAME = new Map<string, Command>();
for (const command of COMMANDS) {
  for (const name of namesOf(command)) {
    if (BY_NAME.has(name)) throw new Error(`command name ${name} is defined twice`);
    BY_NAME.set(name, command);
  }
}

export function findCommand(name: string): Command | undefined {
  return BY_NAME.get(name);
}

export const WORKSPACE_HOOKS: WorkspaceHooks = {
  // A restore's refusal comes before the idempotency replay; main is bootstrapped only for a fresh write.
  writeGuards: [RESTORE_GUARD, MAIN_BRANCH_GUARD],
  capsule: (ctx) => ({ ...focusCapsule(ctx) }),
  compactCapsule: (rendered) => compactCapsule(rendered as unknown as RenderedCapsule),
  summaryCounts: (db) => ({ branches: countBranches(db), ...recordSyncSummary(db) }),
  // Every store keeping rows by branch; the branch's own rows (checkouts, the branch) go after these.
  branchRows: [deleteBranchDocs, deleteBranchRefs, deleteBranchGraph, deleteBranchAnchorLinks],
  // What migrations left for after start: the term index of the graph versions written before it.
  maintenance: [TERMS_BACKFILL],
};
