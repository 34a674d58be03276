/**
 * The command type: every operation of the server is defined exactly once, as a command, and every
 * surface (MCP toolsets, docs, schema lookups, tests) is derived from these definitions.
 *
 * A command has a dotted name by portal domain (`vcs.notes.commit`), the flat name it carries in the
 * `full` toolset (`notes_commit`, seed 001), accepted aliases (seed 000's `branchmind_*` names are
 * added automatically), zod input and output schemas, MCP annotations, a read/write kind, an optional
 * budget policy and a synchronous handler.
 */
import { z } from "zod";
import type { BudgetSpec } from "../shared/budget";
import { MAX_BUDGET_CHARS, MAX_IDEMPOTENCY_KEY_CHARS } from "../shared/limits";
import { workspaceNameSchema } from "../shared/names";
import type { Suggestion } from "../shared/suggestion";
import type { CommandContext, Principal, Role } from "./context";
import type { DirectoryContext } from "./directory-context";
import type { Place, Portal } from "./portal-table";

export type CommandKind = "read" | "write";

interface CommandBase<I extends z.ZodObject, O extends z.ZodObject> {
  name: string;
  tool: string;
  aliases?: string[];
  title: string;
  description: string;
  kind: CommandKind;
  input: I;
  output: O;
  /** Reads: which payload lists may be trimmed to the budget. */
  budget?: BudgetSpec;
  /** Writes: repeating the same call has no further effect (MCP `idempotentHint`). */
  idempotent?: boolean;
  /** Writes: may remove or overwrite data (MCP `destructiveHint`). */
  destructive?: boolean;
  /** Least role allowed to call it; default: `read` for reads, `write` for writes. */
  requiresRole?: Role;
  /**
   * Writes: argument fields stored exactly as sent, which may hold a `<fill: …>` marker as data (a
   * restore page's rows, a code slice). Every other field of a write refuses an unfilled marker.
   */
  verbatim?: readonly string[];
  /**
   * Minimal valid arguments for `system.schema.get`, for commands whose rules JSON Schema cannot state
   * (exactly one of two fields, at least one of several); others get theirs generated from the schema.
   */
  example?: Record<string, unknown>;
  /** Secret redaction's exceptions for this command (shared/redaction.ts); none by default. */
  redaction?: RedactionRules;
}

/**
 * How secret redaction treats one command's arguments. Every write's arguments are redacted, but for
 * `keep`; a read's are not, but for `compare`.
 */
export interface RedactionRules {
  /** Writes: fields stored exactly as sent (a restore page: the server's own rows, byte for byte). */
  keep?: readonly string[];
  /** Reads: fields compared with stored (redacted) text, so redacted the same way before the handler. */
  compare?: readonly string[];
  /** What the SECRET_REDACTED warning adds (a command whose stored text is hashed). */
  note?: string;
}

export interface WorkspaceCommand<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> extends CommandBase<I, O> {
  scope: "workspace";
  /**
   * The handler shows the project's name and description, which the Directory owns: the Worker reads
   * them before the call and hands them in (`CommandContext.project`).
   */
  needsProject?: boolean;
  /**
   * The argument that names the workspace besides `workspace` (Record-Sync's `project_id`). A command
   * with one works in the agent's default project when nothing names a workspace.
   */
  projectField?: string;
  /**
   * Writes: may change the counts of the Directory's summary without storing a row (Record-Sync session
   * bookkeeping), so every successful call schedules a summary push.
   */
  movesSummaryCounts?: boolean;
  /**
   * Writes: whether this call is part of a restore (a page of the server's own rows, or giving one up).
   * Such a call brings its own branches and journal and skips every write guard: it runs while a restore
   * is unfinished, and no `main` is bootstrapped for it.
   */
  isRestore?: (args: Record<string, unknown>) => boolean;
  handler: (ctx: CommandContext, args: z.output<I>) => z.input<O>;
}

export interface StatelessCommand<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> extends CommandBase<I, O> {
  scope: "none";
  handler: (ctx: StatelessContext, args: z.output<I>) => z.input<O>;
}

/**
 * A command of the deployment's Directory (Record-Sync projects): it runs in the Worker, may await the
 * Directory and workspace objects, and never holds a transaction open across those calls.
 */
export interface DirectoryCommand<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> extends CommandBase<I, O> {
  scope: "directory";
  /**
   * Reads: given no project, it reads the caller's default project, which it registers on first use (a
   * Directory write). A caller that may store nothing (the viewer's API) makes such a read name one.
   */
  registersDefaultProject?: boolean;
  handler: (ctx: DirectoryContext, args: z.output<I>) => Promise<z.input<O>>;
}

export type Command = WorkspaceCommand | StatelessCommand | DirectoryCommand;

/** Handlers with no workspace (help, the catalog's own descriptions) get no database. */
export interface StatelessContext {
  principal: Principal;
  catalog: CatalogView;
}

/**
 * What the commands that describe the catalog (system `schema.get`, `cmd.list`, `ops.summary`,
 * `migration.lookup`) read of it. It reaches them through their context, so no capability imports the
 * catalog that lists it (src/catalog/catalog-view.ts builds it).
 */
export interface CatalogView {
  /** Every command, in catalog order. */
  readonly commands: readonly Command[];
  /** A command by any name it answers to, with the `branchmind.` prefixes, or by a seed 000/001 name. */
  resolve(name: string): Command | undefined;
  /** Throws UNKNOWN_CMD for `name`, sent as `field`, with the closest command as its best action. */
  failUnknown(name: string, field: string): never;
  /** The listed portals (a golden op, or a command in one of their domains). */
  portals(): readonly Portal[];
  /** Every portal of seed 002, listed or not. */
  allPortals(): readonly Portal[];
  /** Names of the seed 002 portals that are not listed yet. */
  unpluggedPortals(): string[];
  /** Where the command is called from: its portal and, when it has one, its golden op. */
  placeOf(command: Command): Place;
  /** The command's input as JSON Schema, as a client sends it, without `workspace`. */
  argsSchemaOf(command: Command): Record<string, unknown>;
  /** The command's own example, else the smallest arguments its schema accepts. */
  exampleArgsOf(command: Command): Record<string, unknown>;
  /** The call that runs the command with its example arguments. */
  exampleCallOf(command: Command): Suggestion;
  /** Its section in the generated command reference. */
  docRefOf(command: Command): { path: string; anchor: string };
}

/** Fields every workspace command accepts. */
export const workspaceFields = {
  workspace: workspaceNameSchema.optional(),
  project_guard: z
    .string()
    .min(1)
    .max(256)
    .optional()
    .describe("Guard stored by `init`; a call carrying a different guard is refused (PROJECT_GUARD_MISMATCH)."),
};

/** Fields every write accepts. */
export const writeFields = {
  idempotency_key: z
    .string()
    .min(1)
    .max(MAX_IDEMPOTENCY_KEY_CHARS)
    .optional()
    .describe("Replaying the same key returns the first result and writes nothing."),
  agent_id: z.string().optional().describe("Must equal the authenticated agent when given."),
};

const budgetNumber = z.number().int().positive().max(MAX_BUDGET_CHARS);

/** Fields every read accepts (DESIGN §5 budgets). */
export const readFields = {
  max_chars: budgetNumber.optional().describe("Budget in characters of the compact JSON payload."),
  context_budget: budgetNumber.optional().describe("Alias of max_chars."),
  max_bytes: budgetNumber.optional().describe("Budget in UTF-8 bytes."),
  max_lines: budgetNumber.optional().describe("Budget in lines of the text block."),
  budget_profile: z
    .enum(["portal", "default", "audit"])
    .optional()
    .describe("Default budget when none is given: portal 6k, default 20k, audit 80k characters."),
};

/**
 * The fields many commands share, with their one description: a listing of every command may say
 * what they mean once (the server's instructions) instead of on every tool.
 */
export const SHARED_FIELD_DESCRIPTIONS: ReadonlyMap<string, string> = new Map(
  Object.entries({ ...workspaceFields, ...writeFields, ...readFields }).flatMap(([name, schema]) =>
    schema.description === undefined ? [] : [[name, schema.description] as const],
  ),
);

/** Output fields that any read may carry. */
export const readOutputFields = {
  budget: z
    .object({
      max_chars: z.number(),
      used_chars: z.number(),
      truncated: z.boolean(),
    })
    .loose()
    .optional(),
  warnings: z.array(z.object({ code: z.string(), message: z.string(), recovery: z.string() })).optional(),
};

type Shape = z.ZodRawShape;

/** Define a workspace command; the common fields are merged into its input and output schemas. */
export function defineCommand<S extends Shape, O extends Shape>(
  def: Omit<WorkspaceCommand, "input" | "output" | "handler" | "scope"> & {
    input: S;
    output: O;
    handler: (
      ctx: CommandContext,
      args: z.output<z.ZodObject<S & typeof workspaceFields & typeof writeFields & typeof readFields>>,
    ) => z.input<z.ZodObject<O>>;
  },
): WorkspaceCommand {
  const kindFields = def.kind === "write" ? writeFields : readFields;
  const input = z.strictObject({
    ...def.input,
    ...workspaceFields,
    ...kindFields,
  });
  const output = z.object({ ...def.output, ...(def.kind === "read" ? readOutputFields : {}) }).loose();
  return {
    ...def,
    scope: "workspace",
    input,
    output,
    handler: def.handler,
  } as unknown as WorkspaceCommand;
}

/** Define a command that needs no workspace (help). */
export function defineStatelessCommand<S extends Shape, O extends Shape>(
  def: Omit<StatelessCommand, "input" | "output" | "handler" | "scope"> & {
    input: S;
    output: O;
    handler: (ctx: StatelessContext, args: z.output<z.ZodObject<S & typeof readFields>>) => z.input<z.ZodObject<O>>;
  },
): StatelessCommand {
  // `workspace` is accepted (and ignored) so agents can send it on every call.
  const input = z.strictObject({ ...def.input, workspace: workspaceFields.workspace, ...readFields });
  const output = z.object({ ...def.output, ...readOutputFields }).loose();
  return {
    ...def,
    scope: "none",
    input,
    output,
    handler: def.handler,
  } as unknown as StatelessCommand;
}

/**
 * Define a Directory command (projects). It takes `workspace` (another name for the project, so
 * agents can send it on every call) and the write or read fields of its kind, not `project_guard`.
 */
export function defineDirectoryCommand<S extends Shape, O extends Shape>(
  def: Omit<DirectoryCommand, "input" | "output" | "handler" | "scope"> & {
    input: S;
    output: O;
    handler: (
      ctx: DirectoryContext,
      args: z.output<z.ZodObject<S & Pick<typeof workspaceFields, "workspace"> & typeof writeFields & typeof readFields>>,
    ) => Promise<z.input<z.ZodObject<O>>>;
  },
): DirectoryCommand {
  const kindFields = def.kind === "write" ? writeFields : readFields;
  const input = z.strictObject({ ...def.input, workspace: workspaceFields.workspace, ...kindFields });
  const output = z.object({ ...def.output, ...(def.kind === "read" ? readOutputFields : {}) }).loose();
  return {
    ...def,
    scope: "directory",
    input,
    output,
    handler: def.handler,
  } as unknown as DirectoryCommand;
}
