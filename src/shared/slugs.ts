/**
 * Slug rules of knowledge keys and anchors, pure: what a valid slug is, what is wrong with an invalid
 * one, and a suggested slug for any text (the fix an INVALID_INPUT answer offers). Keys are strict
 * (lowercase letters and digits in words joined by single dashes, the original's rule); anchor slugs
 * follow `open`'s `a:<slug>` grammar (lowercase letters, digits and dashes, starting with a letter or
 * digit), so every anchor `open` accepts can be registered. Both are at most 64 characters.
 */

/** Longest key or anchor slug (the original's key rule; `open` uses the same bound for anchors). */
export const MAX_SLUG_CHARS = 64;
/** Words a suggested key keeps from its text: keys name a fact, they do not restate it. */
const MAX_SUGGESTED_KEY_WORDS = 6;

const KEY_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const ANCHOR_SLUG = /^[a-z0-9][a-z0-9-]*$/;
const ANCHOR_PREFIX = "a:";
const KEY_PREFIX = "k:";

/** A best-effort slug: lowercase, runs of other characters become one dash, at most `maxWords` words. */
export function suggestSlug(text: string, maxWords = Number.POSITIVE_INFINITY): string {
  const words = text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0)
    .slice(0, maxWords);
  let slug = "";
  for (const word of words) {
    const next = slug === "" ? word : `${slug}-${word}`;
    if (next.length > MAX_SLUG_CHARS) return slug === "" ? word.slice(0, MAX_SLUG_CHARS) : slug;
    slug = next;
  }
  return slug;
}

/** A key for a piece of text: the slug of its first words. */
export function suggestKey(text: string): string {
  return suggestSlug(text, MAX_SUGGESTED_KEY_WORDS);
}

/** What is wrong with a key, or undefined when it is valid. */
export function keyProblem(key: string): string | undefined {
  if (key.length === 0) return "the key is empty";
  if (key.length > MAX_SLUG_CHARS) return `the key is longer than ${MAX_SLUG_CHARS} characters`;
  if (!KEY_SLUG.test(key)) return "a key holds lowercase letters and digits in words joined by single dashes";
  return undefined;
}

/** What is wrong with an anchor slug (without `a:`), or undefined when it is valid. */
export function anchorProblem(slug: string): string | undefined {
  if (slug.length === 0) return "the anchor slug is empty";
  if (slug.length > MAX_SLUG_CHARS) return `the anchor slug is longer than ${MAX_SLUG_CHARS} characters`;
  if (!ANCHOR_SLUG.test(slug)) return "an anchor slug holds lowercase letters, digits and dashes, and starts with a letter or digit";
  return undefined;
}

/** The slug of an anchor given as `a:<slug>` or `<slug>` (surrounding spaces dropped, nothing else changed). */
export function anchorSlugOf(input: string): string {
  const trimmed = input.trim();
  return trimmed.startsWith(ANCHOR_PREFIX) ? trimmed.slice(ANCHOR_PREFIX.length) : trimmed;
}

export function anchorId(slug: string): string {
  return `${ANCHOR_PREFIX}${slug}`;
}

export function keyTag(key: string): string {
  return `${KEY_PREFIX}${key}`;
}

/** The anchor slugs a card's (lowercased) tags name: `a:<valid slug>` tags only, sorted, without repeats. */
export function anchorSlugsOfTags(tags: readonly string[]): string[] {
  const slugs = tags
    .filter((tag) => tag.startsWith(ANCHOR_PREFIX))
    .map((tag) => tag.slice(ANCHOR_PREFIX.length))
    .filter((slug) => anchorProblem(slug) === undefined);
  return [...new Set(slugs)].sort();
}
