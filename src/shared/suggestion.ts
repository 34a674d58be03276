/**
 * A suggested call: the one contract of everything the server suggests an agent call next (the
 * capsule's best action and backup, the signal engine's calls, errors' actions, the golden path, the
 * example call of `schema.get`, ...).
 *
 * Handlers write a suggestion neutrally, with `suggest(command, args, purpose)`: any name the catalog
 * knows the command by, and the command's own arguments, without `workspace`. Before an answer leaves
 * the server, every suggestion in it is rendered for the connection that asked
 * (catalog/suggestions.ts): the tool that connection lists and its call form, `workspace` unless the
 * URL locks it. Rendered, a suggestion is a plain `{tool, args, purpose}`; until then it is an instance
 * of this class, which is how the renderer tells it from data (a stored note may hold any JSON).
 *
 * A value the agent must choose is written with `fill("what")` as `<fill: what>`; every write refuses
 * an argument that still holds one (so a pasted suggestion never stores a placeholder).
 */
import { z } from "zod";

export class Suggestion {
  /** Only `suggest` makes one: the renderer relies on every suggestion being an instance. */
  declare private readonly brand: never;
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly purpose: string;

  constructor(tool: string, args: Readonly<Record<string, unknown>>, purpose: string) {
    this.tool = tool;
    this.args = args;
    this.purpose = purpose;
  }
}

/** A suggested call of `command` (any catalog name) with the command's own arguments. */
export function suggest(command: string, args: Readonly<Record<string, unknown>>, purpose: string): Suggestion {
  return new Suggestion(command, args, purpose);
}

/** How a placeholder starts: `<fill: what to put here>`. */
export const FILL_MARK = "<fill:";

/** A value the agent must choose before the call can run. */
export function fill(what: string): string {
  return `${FILL_MARK} ${what}>`;
}

/** A placeholder anywhere in a text, in any case (`<FILL: x>` too). */
const UNFILLED = /<fill:/i;

export function holdsPlaceholder(text: string): boolean {
  return UNFILLED.test(text);
}

/** Paths (`steps.0.title`) of the strings in `value` that still hold a placeholder, top-level `skip` fields aside. */
export function unfilledFields(value: Readonly<Record<string, unknown>>, skip: readonly string[] = []): string[] {
  const found: string[] = [];
  const visit = (item: unknown, path: string) => {
    if (typeof item === "string") {
      if (holdsPlaceholder(item)) found.push(path);
    } else if (Array.isArray(item)) {
      for (const [index, inner] of item.entries()) visit(inner, `${path}.${index}`);
    } else if (item !== null && typeof item === "object") {
      for (const [key, inner] of Object.entries(item)) visit(inner, `${path}.${key}`);
    }
  };
  for (const [key, item] of Object.entries(value)) if (!skip.includes(key)) visit(item, key);
  return found;
}

/** A rendered suggestion, as answers carry it (and output schemas describe it). */
export const suggestionSchema = z.object({
  tool: z.string(),
  args: z.record(z.string(), z.unknown()),
  purpose: z.string(),
});

export type RenderedSuggestion = z.output<typeof suggestionSchema>;
