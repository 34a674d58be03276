/**
 * The table of the v1 portals (seed 002) as pure data: each portal's name, domains and golden ops, the
 * envelope's `call` op, and the name prefixes a call may carry. It imports nothing, so the command types
 * (registry.ts) may name a portal; which portals are listed is decided from the catalog in portals.ts.
 */

export interface Portal {
  name: string;
  title: string;
  /** What it is for, in one line: it becomes the tool description together with the golden ops. */
  summary: string;
  /** Command domains this portal fronts (`tasks` fronts `tasks.*`). */
  domains: string[];
  /** Golden op → command name, in the order they are shown. */
  ops: Record<string, string>;
  /**
   * How `call` and the signatures of an Ops list work, added to the description of the one portal where
   * agents look commands up (the server instructions say it once for all).
   */
  guide?: string;
  /** The op used when the envelope names none (portals with a single purpose). */
  defaultOp?: string;
  /**
   * The envelope also takes this field and passes it into args (`open`'s `id`: the ref to open), so
   * the portal's one argument needs no `args` object. Given in both with different values, it is refused.
   */
  refField?: "id";
  /**
   * The portal runs reads only: its golden ops and its domains' commands are reads (checked when the
   * table is built, so no suggestion places a write here) and `op: "call"` refuses a write
   * (worker/portal-call.ts). What makes its `readOnlyHint` true of everything it can do.
   */
  readOnly: boolean;
}

/** The envelope's escape hatch: run any command of the catalog by name. */
export const CALL_OP = "call";
/** Reads through a portal default to this budget profile (seed 002: 6,000 characters). */
export const PORTAL_PROFILE = "portal";

export const PORTAL_TABLE: Portal[] = [
  {
    name: "status",
    title: "Status",
    summary: "Where you are and the next move: workspace state plus 1 best + 1 backup action.",
    domains: [],
    ops: { status: "system.status" },
    defaultOp: "status",
    readOnly: true,
  },
  {
    name: "open",
    title: "Open a ref",
    summary: "Open any artifact by its ref: CARD-*, <doc>@<seq>, TASK-*, PLAN-*, STEP-*, JOB-*, a:<slug>, code:<path>#L<a>-L<b>.",
    domains: ["open"],
    ops: { open: "open" },
    defaultOp: "open",
    refField: "id",
    readOnly: true,
  },
  {
    name: "workspace",
    title: "Workspace",
    summary: "Bulk import into a workspace (admin).",
    domains: ["workspace"],
    ops: { import: "workspace.import" },
    readOnly: false,
  },
  {
    name: "tasks",
    title: "Tasks",
    summary: "Plans, tasks, steps, proof, focus, leases and resume views.",
    domains: ["tasks"],
    ops: {
      "plan.create": "tasks.create",
      "plan.decompose": "tasks.decompose",
      "execute.next": "tasks.execute.next",
      "evidence.capture": "tasks.evidence_capture",
      "step.close": "tasks.close_step",
      snapshot: "tasks.snapshot",
      ready: "tasks.ready",
    },
    readOnly: false,
  },
  {
    name: "jobs",
    title: "Jobs",
    summary: "Delegation jobs between agents: queue, claim (a lease on ticks), report, finish.",
    domains: ["jobs"],
    ops: {
      create: "jobs.create",
      list: "jobs.list",
      radar: "jobs.radar",
      open: "jobs.open",
      claim: "jobs.claim",
      report: "jobs.report",
      complete: "jobs.complete",
      fail: "jobs.fail",
    },
    readOnly: false,
  },
  {
    name: "think",
    title: "Think",
    summary: "Thinking and knowledge cards, anchors, code refs, packs, the signal engine, trace tools.",
    domains: ["think"],
    ops: {
      "knowledge.upsert": "think.knowledge.upsert",
      "knowledge.recall": "think.knowledge.recall",
      "knowledge.query": "think.knowledge.query",
      "knowledge.lint": "think.knowledge.lint",
      card: "think.card",
      query: "think.query",
      pack: "think.context_pack",
      next: "think.next",
      "reasoning.seed": "think.template",
      "reasoning.pipeline": "think.pipeline",
      "idea.branch.create": "think.idea.branch.create",
      "idea.branch.merge": "think.idea.branch.merge",
    },
    readOnly: false,
  },
  {
    name: "graph",
    title: "Graph",
    summary: "The versioned typed graph: query, apply, merge.",
    domains: ["graph"],
    ops: { query: "graph.query", apply: "graph.apply", merge: "graph.merge" },
    readOnly: false,
  },
  {
    name: "vcs",
    title: "VCS",
    summary: "Branches, checkout, notes commits, log, tags.",
    domains: ["vcs"],
    ops: { "notes.commit": "vcs.notes.commit", "branch.create": "vcs.branch.create", checkout: "vcs.checkout", log: "vcs.log" },
    readOnly: false,
  },
  {
    name: "docs",
    title: "Docs",
    summary: "Read documents: list, show, diff, merge.",
    domains: ["docs"],
    ops: { list: "docs.list", show: "docs.show", diff: "docs.diff", merge: "docs.merge" },
    readOnly: false,
  },
  {
    name: "system",
    title: "System",
    summary: "Schemas, the command list, old-name lookup, help and init.",
    guide:
      "op call + cmd runs any command on any portal (on status, open: reads). Each Ops list gives required args (a?: optional; schema.get gives all).",
    domains: ["system"],
    ops: {
      "schema.get": "system.schema.get",
      "cmd.list": "system.cmd.list",
      "ops.summary": "system.ops.summary",
      "migration.lookup": "system.migration.lookup",
      help: "system.help",
      init: "system.init",
    },
    readOnly: false,
  },
  {
    name: "records",
    title: "Records",
    summary: "Record-Sync: projects, records, sessions, activation, sync, history, search.",
    domains: ["records"],
    ops: {
      overview: "records.project.overview",
      search: "records.search",
      activate: "records.activate",
      sync: "records.sync",
      create: "records.create",
      update: "records.update",
      transition: "records.transition",
      save: "records.save_session",
    },
    readOnly: false,
  },
];

/** Accepted name prefixes (seed 002): `branchmind.status`, `branchmind/status`. */
const NAME_PREFIXES = ["branchmind.", "branchmind/"];

export function stripNamePrefix(name: string): string {
  for (const prefix of NAME_PREFIXES) if (name.startsWith(prefix)) return name.slice(prefix.length);
  return name;
}

/** Where a command is called from: its portal and, when it has one, the golden op that runs it. */
export interface Place {
  portal: Portal;
  op?: string;
}
