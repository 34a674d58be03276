/**
 * Project ids (pure): the agent's default project (created on first use) and the base of a generated
 * id (a slug of the name under the token's pattern prefix; the Directory adds the counter). Every id
 * here is a valid workspace name. Default project names are collision-proof: `default/<agent_id>` for
 * a plain id, else `default/_<escaped id>` (an injective escape) or `default/-<sha-256>` (too long), so
 * no agent id derives another's. The names of the old rule (`<slug>-<fnv>`) stay reachable by the agent
 * that registered them, through the Directory (docs/projects.md). It sits with the Directory, which
 * registers these ids, so that the Worker's workspace resolution and the projects commands share it
 * without the Worker importing a capability.
 */

import { createHash } from "node:crypto";
import { fnv1a64 } from "../shared/hash";
import { MAX_WORKSPACE_CHARS } from "../shared/limits";
import { isValidWorkspaceName } from "../shared/names";
import type { EnsureRequest } from "./project-directory";
import { COUNTER_SUFFIX_CHARS, MAX_SLUG_CHARS } from "./project-limits";

/** Default projects live under this first segment, one per agent. */
export const DEFAULT_PROJECT_PREFIX = "default/";
/** Hex digits of the agent-id hash of the old rule (kept only to find the projects it named). */
const LEGACY_HASH_CHARS = 12;
/** The old rule kept this much of a slugged agent id. */
const LEGACY_SLUG_CHARS = MAX_WORKSPACE_CHARS - DEFAULT_PROJECT_PREFIX.length - LEGACY_HASH_CHARS - 1;
/** Marks an escaped agent id, and a hashed one: no plain id (it starts with a letter or digit) starts so. */
const ESCAPED_MARK = "_";
const HASHED_MARK = "-";
/** An escaped id keeps the whole name within the workspace name bound; longer ones are hashed. */
const MAX_ESCAPED_CHARS = MAX_WORKSPACE_CHARS - DEFAULT_PROJECT_PREFIX.length - ESCAPED_MARK.length;

/** Display name and description of a default project (seed 004: "Default Project"). */
export const DEFAULT_PROJECT_NAME = "Default Project";

/**
 * The Directory registration of an agent's default project (created on first use). The Directory
 * settles which one it is: `legacy_id` when this agent registered it under the old rule, else `id`,
 * else (`id` is another agent's old-rule default) `diverted_id`.
 */
export function defaultProjectRequest(agentId: string): EnsureRequest {
  const id = defaultProjectOf(agentId);
  const legacy = legacyDefaultProjectOf(agentId);
  return {
    id,
    name: DEFAULT_PROJECT_NAME,
    description: `Default project of agent ${agentId}, created on first use.`,
    origin: "default",
    agent_id: agentId,
    ...(legacy === id ? { diverted_id: escapedDefaultProjectOf(agentId) } : { legacy_id: legacy }),
  };
}

/** Lowercase letters, digits and single dashes: `My App (v2)` → `my-app-v2`. */
export function slugOf(text: string, maxChars: number): string {
  const slug = text
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, maxChars)
    .replace(/-+$/, "");
  return slug;
}

/** Plain agent ids start with a letter or digit, which escaped and hashed names never do. */
const PLAIN_AGENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** An agent id that starts with a letter or digit and is one valid path segment under `default/`. */
function isPlainAgentId(agentId: string): boolean {
  return PLAIN_AGENT_ID.test(agentId) && isValidWorkspaceName(`${DEFAULT_PROJECT_PREFIX}${agentId}`);
}

/**
 * The agent's default project: `default/<agent_id>` for a plain id (as before), else the escaped form.
 * Injective: plain names start with a letter or digit, escaped ones with `_` or `-`.
 */
export function defaultProjectOf(agentId: string): string {
  return isPlainAgentId(agentId) ? `${DEFAULT_PROJECT_PREFIX}${agentId}` : escapedDefaultProjectOf(agentId);
}

/**
 * Escapes every UTF-16 unit outside `[A-Za-z0-9.-]`: `_` → `__`, `@` → `_a`, `:` → `_c`, any other →
 * `_u` + 4 hex digits. The escapes are prefix-free, so two ids never escape alike.
 */
export function escapeAgentId(agentId: string): string {
  let escaped = "";
  for (let i = 0; i < agentId.length; i++) {
    const char = agentId.charAt(i);
    if (/[A-Za-z0-9.-]/.test(char)) escaped += char;
    else if (char === "_") escaped += "__";
    else if (char === "@") escaped += "_a";
    else if (char === ":") escaped += "_c";
    else escaped += `_u${agentId.charCodeAt(i).toString(16).padStart(4, "0")}`;
  }
  return escaped;
}

/**
 * `default/_<escaped id>`, or `default/-<SHA-256 of the escaped id>` when that is too long: one per
 * agent id, and never a name of the plain or the old rule (those start with a letter or digit).
 */
export function escapedDefaultProjectOf(agentId: string): string {
  const escaped = escapeAgentId(agentId);
  if (escaped.length <= MAX_ESCAPED_CHARS) return `${DEFAULT_PROJECT_PREFIX}${ESCAPED_MARK}${escaped}`;
  return `${DEFAULT_PROJECT_PREFIX}${HASHED_MARK}${createHash("sha256").update(escaped).digest("hex")}`;
}

/**
 * The old rule: `default/<agent_id>` for a plain id, else `default/<slug>-<12 hex of FNV-1a>`. Two ids
 * could meet there (a plain id spelled like a slug and hash, or an FNV collision): the Directory gives
 * such a name only to the agent that registered it.
 */
export function legacyDefaultProjectOf(agentId: string): string {
  const plain = `${DEFAULT_PROJECT_PREFIX}${agentId}`;
  if (!agentId.includes("/") && isValidWorkspaceName(plain)) return plain;
  const slug = slugOf(agentId, LEGACY_SLUG_CHARS) || "agent";
  return `${DEFAULT_PROJECT_PREFIX}${slug}-${fnv1a64(agentId).slice(0, LEGACY_HASH_CHARS)}`;
}

/**
 * The literal prefix under which a token pattern lets an agent create any name: `acme/*` and
 * `acme/**` give `acme/`, `*` and `**` give ``. Patterns with wildcards elsewhere, or none, give nothing.
 */
function creatablePrefix(pattern: string): string | undefined {
  const segments = pattern.split("/");
  const last = segments[segments.length - 1];
  const head = segments.slice(0, -1);
  if ((last !== "*" && last !== "**") || head.some((segment) => segment.includes("*"))) return undefined;
  return head.length === 0 ? "" : `${head.join("/")}/`;
}

/**
 * The base of a generated id for `name` under the first pattern that allows new names, or undefined
 * when none does (the caller must then pass an id). The Directory numbers it: base, base-2, base-3…
 */
export function generatedIdBase(name: string, patterns: string[]): string | undefined {
  for (const pattern of patterns) {
    const prefix = creatablePrefix(pattern);
    if (prefix === undefined) continue;
    const room = Math.min(MAX_SLUG_CHARS, MAX_WORKSPACE_CHARS - COUNTER_SUFFIX_CHARS - prefix.length);
    if (room < 1) continue;
    const base = `${prefix}${slugOf(name, room) || "project".slice(0, room)}`;
    if (isValidWorkspaceName(base)) return base;
  }
  return undefined;
}
