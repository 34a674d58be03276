/**
 * Refs as resources (docs/resources.md): every ref `open` accepts is also the resource
 * `branchmind://<workspace>/<ref>`, the workspace and the ref each percent-encoded as a whole
 * (workspace names hold `/`, entry refs `@`, code refs `#`). This module owns the URI scheme, the
 * templates a client fills in, and the reads that say what an agent would attach to a conversation:
 * command names and arguments only, no MCP and no I/O (the worker runs them).
 */

export const RESOURCE_SCHEME = "branchmind://";
/** Everything a resource read answers is the JSON of an `open` answer. */
export const RESOURCE_MIME_TYPE = "application/json";
/** The command a resource read runs. */
export const OPEN_COMMAND = "open";

/** The URI of `ref` in `workspace`. */
export function resourceUri(workspace: string, ref: string): string {
  return `${RESOURCE_SCHEME}${encodeURIComponent(workspace)}/${encodeURIComponent(ref)}`;
}

/** Workspace and ref of a resource URI; undefined when it is not one of ours or does not decode. */
export function parseResourceUri(uri: string): { workspace: string; ref: string } | undefined {
  if (!uri.startsWith(RESOURCE_SCHEME)) return undefined;
  const rest = uri.slice(RESOURCE_SCHEME.length);
  const slash = rest.indexOf("/");
  if (slash <= 0 || slash === rest.length - 1) return undefined;
  try {
    const workspace = decodeURIComponent(rest.slice(0, slash));
    const ref = decodeURIComponent(rest.slice(slash + 1));
    return workspace === "" || ref === "" ? undefined : { workspace, ref };
  } catch {
    return undefined;
  }
}

export interface RefTemplate {
  /** RFC 6570 level 1: each `{name}` is filled percent-encoded, so `/` in a workspace becomes `%2F`. */
  uriTemplate: string;
  name: string;
  description: string;
}

const WORKSPACE = `${RESOURCE_SCHEME}{workspace}/`;

/** One template per ref kind, in the order of the ref grammar. Literal `@`, `:` and `#` are written encoded. */
export const REF_TEMPLATES: readonly RefTemplate[] = [
  { uriTemplate: `${WORKSPACE}CARD-{card}`, name: "card", description: "A thinking or knowledge card with its live edges." },
  {
    uriTemplate: `${WORKSPACE}{doc}%40{seq}`,
    name: "entry",
    description: "A document entry by its global seq (e.g. notes@12), on the branch you have checked out.",
  },
  { uriTemplate: `${WORKSPACE}TASK-{task}`, name: "task", description: "A task's read-only capsule (your focus is unchanged)." },
  { uriTemplate: `${WORKSPACE}PLAN-{plan}`, name: "plan", description: "A plan's read-only capsule." },
  { uriTemplate: `${WORKSPACE}STEP-{step}`, name: "step", description: "A step with its lease." },
  { uriTemplate: `${WORKSPACE}JOB-{job}`, name: "job", description: "A delegation job and the tail of its events." },
  { uriTemplate: `${WORKSPACE}a%3A{slug}`, name: "anchor", description: "An anchor's cards, canon first." },
  {
    uriTemplate: `${WORKSPACE}code%3A{path}%23L{start}-L{end}`,
    name: "code",
    description: "A stored slice of a repository file (lines start to end, 1-based).",
  },
  { uriTemplate: `${WORKSPACE}R{record}`, name: "record", description: "A Record-Sync record as it is (R001: fill 001)." },
  {
    uriTemplate: `${WORKSPACE}R{record}%40v{version}`,
    name: "record_version",
    description: "A Record-Sync record as one of its versions was (R001@v2).",
  },
];

/** A read whose answer names refs worth attaching, and how to find them in it. */
export interface AttachableRead {
  command: string;
  args: Readonly<Record<string, unknown>>;
  /** The refs of the answer, each with what to call it and why it is offered. */
  refsOf(answer: Record<string, unknown>): AttachableRef[];
}

export interface AttachableRef {
  ref: string;
  title?: string;
  why: string;
}

const CARD_PREFIX = "CARD-";
/** Pinned cards offered per workspace: what the team marked as what matters. */
const PINNED_CARDS = 10;
/** Recent notes offered per workspace: enough to pick up where work stopped. */
const RECENT_NOTES = 5;

function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter((item): item is Record<string, unknown> => item !== null && typeof item === "object") : [];
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** What an agent would attach from one workspace: its pinned cards, the caller's focus, the latest notes. */
export const ATTACHABLE_READS: readonly AttachableRead[] = [
  {
    command: "think.pins",
    args: { limit: PINNED_CARDS },
    refsOf: (answer) =>
      records(answer.cards).flatMap((card) => {
        const id = text(card.id);
        // `open` names cards by CARD-… ids only; a card an agent named otherwise is not a ref.
        if (id === undefined || !id.startsWith(CARD_PREFIX)) return [];
        const title = text(card.title);
        return [{ ref: id, ...(title ? { title } : {}), why: `pinned ${text(card.type) ?? "card"}` }];
      }),
  },
  {
    command: "tasks.focus.get",
    args: {},
    refsOf: (answer) => {
      const focus = text(answer.focus);
      if (focus === undefined) return [];
      const entity = answer.entity !== null && typeof answer.entity === "object" ? (answer.entity as Record<string, unknown>) : {};
      const title = text(entity.title);
      return [{ ref: focus, ...(title ? { title } : {}), why: "your focus" }];
    },
  },
  {
    command: "docs.show",
    // The checkout's notes document (not a focused task's): where the workspace's running notes are.
    args: { doc: "notes", limit: RECENT_NOTES },
    refsOf: (answer) => {
      const doc = text(answer.doc) ?? "notes";
      return records(answer.entries)
        .reverse()
        .flatMap((entry) => {
          if (typeof entry.seq !== "number") return [];
          const title = text(entry.title);
          return [{ ref: `${text(entry.doc) ?? doc}@${entry.seq}`, ...(title ? { title } : {}), why: "recent note" }];
        });
    },
  },
];
