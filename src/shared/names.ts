/**
 * Validation of user-chosen names (workspaces, branches, docs, tags): bounded, no control
 * characters, `|` reserved (it separates graph edge keys), no surrounding spaces. A name that fails
 * these rules is reported as `INVALID_NAME` (see `NAME_FIELDS` in the worker's argument mapper).
 */
import { z } from "zod";
import { MAX_NAME_CHARS, MAX_WORKSPACE_CHARS } from "./limits";

// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to reject control characters.
const NAME_PATTERN = /^[^\s|\x00-\x1f\x7f](?:[^|\x00-\x1f\x7f]*[^\s|\x00-\x1f\x7f])?$/;
const WORKSPACE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;

export function isValidName(name: string): boolean {
  return name.length >= 1 && name.length <= MAX_NAME_CHARS && NAME_PATTERN.test(name);
}

export function isValidWorkspaceName(name: string): boolean {
  return (
    name.length >= 1 &&
    name.length <= MAX_WORKSPACE_CHARS &&
    WORKSPACE_PATTERN.test(name) &&
    !name.split("/").some((segment) => segment === "" || segment === "." || segment === "..")
  );
}

export const nameSchema = (what: string) =>
  z
    .string()
    .min(1)
    .max(MAX_NAME_CHARS)
    .regex(NAME_PATTERN, `${what} must not contain control characters or '|', nor start or end with a space`)
    .describe(what);

export const workspaceNameSchema = z
  .string()
  .min(1)
  .max(MAX_WORKSPACE_CHARS)
  .regex(WORKSPACE_PATTERN, "letters, digits and . _ / - ; starting with a letter or digit")
  .describe("Workspace name, e.g. `acme/repo`. Optional when the URL or the token names exactly one.");

/** Argument names whose validation failures are reported as INVALID_NAME rather than INVALID_INPUT. */
export const NAME_FIELDS = new Set(["workspace", "name", "branch", "from", "into", "to", "ref", "doc", "old", "new", "tag"]);
