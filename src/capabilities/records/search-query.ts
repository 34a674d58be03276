/**
 * Turning what an agent types into a safe FTS5 query, pure (docs/records.md "Search"): the input is
 * split on whitespace and every word becomes a quoted FTS5 string (quotes doubled), so hyphens,
 * slashes, dots, quotes, parentheses, column filters (`col:term`) and operators (AND OR NOT NEAR)
 * are plain text, never syntax — no query is an error or an injection. Words are ANDed; a word
 * ending in `*` is a prefix search. Words with no letter or digit (`*`, `(`, `--`) match nothing and
 * are dropped.
 */
import { MAX_SEARCH_TERMS } from "./records.schema";

export interface FtsQuery {
  /** The FTS5 MATCH expression, or null when no word is left (nothing can match). */
  match: string | null;
  /** The words searched, as typed (without a prefix `*`). */
  terms: string[];
  /** Words dropped: no letter or digit, or past MAX_SEARCH_TERMS. */
  dropped: string[];
}

/** A word searched: its text as typed, and whether it ended in `*` (a prefix search). */
export interface SearchWord {
  text: string;
  prefix: boolean;
}

const HAS_TOKEN = /[\p{L}\p{N}]/u;

/** The words a query searches (at most MAX_SEARCH_TERMS, each with a letter or digit) and those dropped. */
export function searchWords(input: string): { words: SearchWord[]; dropped: string[] } {
  const words: SearchWord[] = [];
  const dropped: string[] = [];
  for (const word of input.split(/\s+/u)) {
    if (word === "") continue;
    const prefix = word.length > 1 && word.endsWith("*");
    const text = prefix ? word.replace(/\*+$/u, "") : word;
    if (!HAS_TOKEN.test(text) || words.length >= MAX_SEARCH_TERMS) {
      dropped.push(word);
      continue;
    }
    words.push({ text, prefix });
  }
  return { words, dropped };
}

export function ftsQuery(input: string): FtsQuery {
  const { words, dropped } = searchWords(input);
  const parts = words.map(({ text, prefix }) => `"${text.replaceAll('"', '""')}"${prefix ? " *" : ""}`);
  return { match: parts.length === 0 ? null : parts.join(" "), terms: words.map((word) => word.text), dropped };
}
