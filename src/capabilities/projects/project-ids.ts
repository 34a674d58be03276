/**
 * Project ids (pure): the agent's default project (`default/<agent_id>`, created on first use) and the
 * base of a generated id (a slug of the name under the token's pattern prefix; the Directory adds
 * the counter). Every id here is a valid workspace name.
 */

import type { EnsureRequest } from "../../directory/project-directory";
import { COUNTER_SUFFIX_CHARS, MAX_SLUG_CHARS } from "../../directory/project-limits";
import { fnv1a64 } from "../../shared/hash";
import { MAX_WORKSPACE_CHARS } from "../../shared/limits";
import { isValidWorkspaceName } from "../../shared/names";

/** Default projects live under this first segment, one per agent. */
export const DEFAULT_PROJECT_PREFIX = "default/";
/** Hex digits of the agent-id hash that keeps two agents apart when their ids slug the same way. */
const AGENT_HASH_CHARS = 12;
/** A slugged agent id keeps this much, so `default/<slug>-<hash>` stays within the workspace name bound. */
const MAX_AGENT_SLUG_CHARS = MAX_WORKSPACE_CHARS - DEFAULT_PROJECT_PREFIX.length - AGENT_HASH_CHARS - 1;

/** Display name and description of a default project (seed 004: "Default Project"). */
export const DEFAULT_PROJECT_NAME = "Default Project";

/** The Directory registration of an agent's default project (created on first use). */
export function defaultProjectRequest(agentId: string): EnsureRequest {
  return {
    id: defaultProjectOf(agentId),
    name: DEFAULT_PROJECT_NAME,
    description: `Default project of agent ${agentId}, created on first use.`,
    origin: "default",
    agent_id: agentId,
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

/**
 * `default/<agent_id>` when the agent id is a valid path segment; otherwise (ids with `@`, `:` or
 * other characters, or too long) `default/<slug>-<hash>`, still one per agent and deterministic.
 */
export function defaultProjectOf(agentId: string): string {
  const plain = `${DEFAULT_PROJECT_PREFIX}${agentId}`;
  if (!agentId.includes("/") && isValidWorkspaceName(plain)) return plain;
  const slug = slugOf(agentId, MAX_AGENT_SLUG_CHARS) || "agent";
  return `${DEFAULT_PROJECT_PREFIX}${slug}-${fnv1a64(agentId).slice(0, AGENT_HASH_CHARS)}`;
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
