/**
 * The tool names of the earlier contracts, as data: seed 000's `branchmind_*` tools and seed 001's flat
 * tools (every tool heading and every name in its "Tool groups" list), each mapped to the dotted
 * command that now does its job. `system.migration.lookup` answers from this table; a test checks
 * that every entry names a command of the catalog. Most old names are also accepted names of their
 * command (its flat tool name, `branchmind_<tool>`); the ones that are not (seed 001's bare
 * `diagnostics`) are mapped here only. Pure data: no catalog import (the catalog imports the system
 * commands).
 */

export interface LegacyName {
  /** The name the old contract used. */
  old_name: string;
  /** The seed whose tool surface listed it. */
  seed: "000" | "001";
  /** Dotted name of the command that does its job now. */
  cmd: string;
}

function fromSeed(seed: LegacyName["seed"], pairs: Record<string, string>): LegacyName[] {
  return Object.entries(pairs).map(([old_name, cmd]) => ({ old_name, seed, cmd }));
}

export const LEGACY_NAMES: readonly LegacyName[] = [
  // Seed 000 (v0): the `branchmind_*` tools of its headings and "Tool groups".
  ...fromSeed("000", {
    branchmind_init: "system.init",
    branchmind_status: "system.status",
    branchmind_notes_commit: "vcs.notes.commit",
    branchmind_show: "docs.show",
    branchmind_export: "docs.export",
    branchmind_diff: "docs.diff",
    branchmind_merge: "docs.merge",
    branchmind_graph_apply: "graph.apply",
    branchmind_graph_query: "graph.query",
    branchmind_graph_validate: "graph.validate",
    branchmind_graph_diff: "graph.diff",
    branchmind_graph_merge: "graph.merge",
    branchmind_graph_conflicts: "graph.conflicts",
    branchmind_graph_conflict_show: "graph.conflict.show",
    branchmind_graph_conflict_resolve: "graph.conflict.resolve",
    branchmind_branch_create: "vcs.branch.create",
    branchmind_branch_list: "vcs.branch.list",
    branchmind_checkout: "vcs.checkout",
    branchmind_think_template: "think.template",
    branchmind_think_card: "think.card",
    branchmind_think_context: "think.context",
    branchmind_commit: "vcs.commit",
    branchmind_log: "vcs.log",
    branchmind_think_next: "think.next",
  }),
  // Seed 001 (v0.2): the flat tools of its headings and "Tool groups".
  ...fromSeed("001", {
    init: "system.init",
    status: "system.status",
    help: "system.help",
    notes_commit: "vcs.notes.commit",
    show: "docs.show",
    export: "docs.export",
    diff: "docs.diff",
    merge: "docs.merge",
    graph_apply: "graph.apply",
    graph_query: "graph.query",
    graph_validate: "graph.validate",
    graph_diff: "graph.diff",
    graph_merge: "graph.merge",
    graph_conflicts: "graph.conflicts",
    graph_conflict_show: "graph.conflict.show",
    graph_conflict_resolve: "graph.conflict.resolve",
    branch_create: "vcs.branch.create",
    // Seed 001's health check of reasoning + tasks: the command of that name.
    diagnostics: "system.diagnostics",
    macro_branch_note: "think.idea.branch.create",
    branch_list: "vcs.branch.list",
    checkout: "vcs.checkout",
    branch_rename: "vcs.branch.rename",
    branch_delete: "vcs.branch.delete",
    think_template: "think.template",
    think_card: "think.card",
    think_pipeline: "think.pipeline",
    think_context: "think.context",
    commit: "vcs.commit",
    log: "vcs.log",
    docs_list: "docs.list",
    tag_create: "vcs.tag.create",
    tag_list: "vcs.tag.list",
    tag_delete: "vcs.tag.delete",
    reflog: "vcs.reflog",
    reset: "vcs.reset",
    think_add_hypothesis: "think.add.hypothesis",
    think_add_question: "think.add.question",
    think_add_test: "think.add.test",
    think_add_note: "think.add.note",
    think_add_decision: "think.add.decision",
    think_add_evidence: "think.add.evidence",
    think_add_frame: "think.add.frame",
    think_add_update: "think.add.update",
    think_query: "think.query",
    think_pack: "think.pack",
    context_pack: "think.context_pack",
    think_frontier: "think.frontier",
    think_next: "think.next",
    think_link: "think.link",
    think_set_status: "think.set_status",
    think_pin: "think.pin",
    think_pins: "think.pins",
    think_nominal_merge: "think.nominal_merge",
    think_playbook: "think.playbook",
    think_subgoal_open: "think.subgoal.open",
    think_subgoal_close: "think.subgoal.close",
    think_watch: "think.watch",
    trace_step: "think.trace.step",
    trace_sequential_step: "think.trace.sequential_step",
    trace_hydrate: "think.trace.hydrate",
    trace_validate: "think.trace.validate",
  }),
];

const BY_OLD_NAME: ReadonlyMap<string, LegacyName> = new Map(LEGACY_NAMES.map((entry) => [entry.old_name, entry]));

export function findLegacyName(name: string): LegacyName | undefined {
  return BY_OLD_NAME.get(name);
}
