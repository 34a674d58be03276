/**
 * System commands (seed 001): `init` bootstraps a workspace (main, defaults, optional project guard),
 * `status` is the fast snapshot an agent starts with, `help` explains the protocol in bounded text.
 */
import { z } from "zod";
import { defineCommand, defineStatelessCommand } from "../../commands/registry";
import { checkoutOf } from "../../place/branches.store";
import { DEFAULT_DOCS } from "../../place/documents";
import { focusOf } from "../../place/focus.store";
import { landingOf } from "../../place/scope";
import { suggestionSchema } from "../../shared/suggestion";
import { read } from "../../storage/clocks";
import { lastJournalEvent } from "../../storage/journal";
import { getMeta, setMeta } from "../../storage/meta";
import { WORKSPACE_MIGRATIONS } from "../../storage/migrations";
import { lastEntry, namer } from "../docs/docs.store";
import { landingSchema } from "../tasks/capsule.schema";
import { mostRecentlyActive } from "../tasks/task-events.store";
import { engineSchema } from "../think/engine.schema";
import { checkoutEngine } from "../think/engine.slice";
import { goldenPath, HELP_SECTIONS } from "./help-text";

const DEFAULTS = { branch: "main", docs: DEFAULT_DOCS };
const defaultsSchema = z.object({
  branch: z.string(),
  docs: z.object({ notes: z.string(), graph: z.string(), trace: z.string() }),
});

export const init = defineCommand({
  name: "system.init",
  tool: "init",
  title: "Initialize a workspace",
  description:
    "Ensure the workspace exists: bootstraps `main`, reports defaults, and stores `project_guard` when given the first time. Safe to repeat.",
  kind: "write",
  idempotent: true,
  input: {},
  output: {
    workspace: z.string(),
    storage_dir: z.string(),
    schema_version: z.number(),
    checkout: z.string(),
    defaults: defaultsSchema,
    project_guard: z.string().nullable(),
  },
  handler: (ctx, args) => {
    let guard = getMeta(ctx.db, "project_guard") ?? null;
    if (guard === null && args.project_guard !== undefined) {
      setMeta(ctx.db, "project_guard", args.project_guard);
      guard = args.project_guard;
      ctx.journal({ target: "workspace", summary: "project guard stored" });
    }
    return {
      workspace: ctx.workspace,
      storage_dir: `durable-object://workspace/${ctx.workspace}`,
      schema_version: WORKSPACE_MIGRATIONS.length,
      checkout: checkoutOf(ctx.db, ctx.principal.agent_id).name,
      defaults: DEFAULTS,
      project_guard: guard,
    };
  },
});

export const status = defineCommand({
  name: "system.status",
  tool: "status",
  title: "Workspace status",
  description:
    "Fast snapshot: your checkout, where your next note and card land, defaults, the last journal event and the last document entry, the clocks, and (in a workspace with no open work) the golden path.",
  kind: "read",
  input: {},
  output: {
    workspace: z.string(),
    schema_version: z.number(),
    workspace_exists: z.boolean(),
    checkout: z.string().nullable(),
    defaults: defaultsSchema,
    writes: z
      .object({ notes: landingSchema, cards: landingSchema })
      .describe("Where your next note and next card land when a call names no place, and which rule put them there."),
    golden_path: z
      .array(suggestionSchema)
      .optional()
      .describe(
        "The daily loop in order, as calls to make (fill the <fill: …> parts); given while the workspace has no open plan or task and you no focus (`help` always has it).",
      ),
    tick: z.number(),
    seq: z.number(),
    last_event: z
      .object({
        event_id: z.string(),
        ts: z.string(),
        ts_ms: z.number(),
        command: z.string(),
        agent_id: z.string(),
      })
      .optional(),
    last_doc_entry: z
      .object({
        seq: z.number(),
        ts: z.string(),
        ts_ms: z.number(),
        branch: z.string(),
        doc: z.string(),
        kind: z.string(),
      })
      .optional(),
    engine: engineSchema.optional().describe("The signal engine's answer for your checkout (the slice every read of it shares)."),
  },
  handler: (ctx) => {
    const event = lastJournalEvent(ctx.db);
    const engine = checkoutEngine(ctx);
    const entry = lastEntry(ctx.db);
    const checkout = checkoutOf(ctx.db, ctx.principal.agent_id).name;
    const focus = focusOf(ctx.db, ctx.principal.agent_id);
    return {
      workspace: ctx.workspace,
      schema_version: WORKSPACE_MIGRATIONS.length,
      workspace_exists: getMeta(ctx.db, "name") !== undefined,
      checkout,
      defaults: DEFAULTS,
      writes: landingOf(ctx, { checkout, focus }),
      ...(focus === undefined && mostRecentlyActive(ctx.db) === undefined ? { golden_path: goldenPath() } : {}),
      tick: read(ctx.db, "tick"),
      seq: read(ctx.db, "seq"),
      ...(event
        ? {
            last_event: {
              event_id: event.event_id,
              ts: new Date(event.ts_ms).toISOString(),
              ts_ms: event.ts_ms,
              command: event.command,
              agent_id: event.agent_id,
            },
          }
        : {}),
      ...(entry
        ? {
            last_doc_entry: {
              seq: entry.seq,
              ts: new Date(entry.ts_ms).toISOString(),
              ts_ms: entry.ts_ms,
              branch: namer(ctx.db)(entry.branch_id),
              doc: entry.doc,
              kind: entry.kind,
            },
          }
        : {}),
      ...(engine ? { engine } : {}),
    };
  },
});

export const help = defineStatelessCommand({
  name: "system.help",
  tool: "help",
  title: "How to use BranchMind",
  description: "Protocol semantics and the daily workflow in short sections. Needs no workspace.",
  kind: "read",
  input: {},
  output: {
    sections: z.array(z.object({ title: z.string(), text: z.string() })),
    golden_path: z.array(suggestionSchema).describe("The daily loop in order, as calls to make (fill the <fill: …> parts)."),
    truncated: z.boolean(),
  },
  budget: { lists: ["sections"], keep: ["title"], trimFromEnd: true },
  handler: () => ({ sections: HELP_SECTIONS, golden_path: goldenPath(), truncated: false }),
});

export const ping = defineCommand({
  name: "system.ping",
  tool: "ping",
  title: "Check access",
  description: "Answers without reading anything: proves the token, the workspace grant and the round trip work. The benchmark floor.",
  kind: "read",
  input: {},
  output: { workspace: z.string(), agent_id: z.string(), pong: z.literal(true) },
  handler: (ctx) => ({ workspace: ctx.workspace, agent_id: ctx.principal.agent_id, pong: true as const }),
});
