/**
 * Search relevance (docs/records.md "Search"), pure: an absolute score, 0 to 1, of how well one
 * record matches the query's words, computed from that record and the query alone — never from other
 * records or the project's word statistics (which bm25 uses, and which only order ties) — so that a
 * score means the same in every search, and another record's match never moves it:
 *
 *   relevance = 0.8 × placement + 0.2 × title_coverage
 *
 * - placement: the mean, over the query's words, of where the word is found: in the title 1, else in
 *   the summary 0.5, else in the body 0.25 (words are ANDed, so a matched record holds every word);
 * - title_coverage: the share of the title's tokens that belong to a query word found in the title.
 *
 * So 1 is a title made of exactly the query's words, 0.8 or more has every word in the title, and
 * 0.2 is a match in the body only. Text is tokenized as the index tokenizes it (FTS5 unicode61,
 * remove_diacritics 2): runs of letters, digits and private-use characters, lowercased, without
 * diacritics. A word of several tokens (`foo-bar`) is a phrase; a prefix word's last token is a prefix.
 */
import type { SearchWord } from "./search-query";

/** What a word's place is worth in `placement`. */
export const PLACE_WEIGHTS = { title: 1, summary: 0.5, body: 0.25 } as const;
/** Shares of placement and title coverage in the score (they sum to 1). */
export const PLACEMENT_SHARE = 0.8;
export const COVERAGE_SHARE = 0.2;
/** Scores are rounded so that answers stay short and byte-identical. */
const DIGITS = 1e4;

/** A query word as tokens (a phrase, whose last token may be a prefix), and a test for it in folded text. */
export interface Phrase {
  tokens: string[];
  prefix: boolean;
  /** Finds the phrase in `fold`ed text, at token boundaries. */
  pattern: RegExp;
}

const TOKEN_CHAR = "[\\p{L}\\p{N}\\p{Co}]";
const TOKEN = new RegExp(`${TOKEN_CHAR}+`, "gu");
const SEPARATORS = `[^\\p{L}\\p{N}\\p{Co}]+`;
const MARK = /\p{M}/gu;
const ASCII = /^\p{ASCII}*$/u;

/** Text as the index compares it: lowercase, without diacritics (ASCII text only needs lowercasing). */
export function fold(text: string): string {
  const lower = text.toLowerCase();
  return ASCII.test(lower) ? lower : lower.normalize("NFD").replace(MARK, "");
}

/** The index's tokens of `text`: runs of token characters, folded. */
export function indexTokens(text: string): string[] {
  return fold(text).match(TOKEN) ?? [];
}

/** The query's words as phrases (a word without tokens, which the query never keeps, is left out). */
export function phrasesOf(words: SearchWord[]): Phrase[] {
  const phrases: Phrase[] = [];
  for (const word of words) {
    const tokens = indexTokens(word.text);
    if (tokens.length === 0) continue;
    // Tokens hold only letters, digits and private-use characters: nothing to escape.
    const body = tokens.join(SEPARATORS);
    const pattern = new RegExp(`(?<!${TOKEN_CHAR})${body}${word.prefix ? "" : `(?!${TOKEN_CHAR})`}`, "u");
    phrases.push({ tokens, prefix: word.prefix, pattern });
  }
  return phrases;
}

function matchesAt(field: string[], phrase: Phrase, start: number): boolean {
  const last = phrase.tokens.length - 1;
  return phrase.tokens.every((token, i) => {
    const found = field[start + i] as string;
    return phrase.prefix && i === last ? found.startsWith(token) : found === token;
  });
}

/** Marks the title tokens `phrase` covers; whether it occurs at all. */
function cover(titleTokens: string[], covered: boolean[], phrase: Phrase): boolean {
  let found = false;
  for (let start = 0; start + phrase.tokens.length <= titleTokens.length; start++) {
    if (!matchesAt(titleTokens, phrase, start)) continue;
    covered.fill(true, start, start + phrase.tokens.length);
    found = true;
  }
  return found;
}

/**
 * What a ranked match shows of itself: whether the index found a query word in its title and in its
 * summary, and those texts where the words must be told apart (the title whenever a word is in it;
 * the summary when a word is in it and the query has several words). A word in neither is in the body.
 */
export interface MatchEvidence {
  inTitle: boolean;
  inSummary: boolean;
  title: string | null;
  summary: string | null;
}

/** The relevance of a ranked match to `phrases`: linear in its title and summary, read only when needed. */
export function relevanceOf(phrases: Phrase[], match: MatchEvidence): number {
  if (phrases.length === 0) return 0;
  // With one word, the index's flags say where it is; with several, the texts say which word is where.
  const single = phrases.length === 1;
  const title = match.inTitle ? fold(match.title ?? "") : undefined;
  const inTitle = phrases.map((phrase) => title !== undefined && (single || phrase.pattern.test(title)));
  let coverage = 0;
  if (title !== undefined) {
    const titleTokens = title.match(TOKEN) ?? [];
    const covered = new Array<boolean>(titleTokens.length).fill(false);
    for (const phrase of phrases) cover(titleTokens, covered, phrase);
    coverage = titleTokens.length === 0 ? 0 : covered.filter(Boolean).length / titleTokens.length;
  }
  let summary: string | undefined;
  let placement = 0;
  phrases.forEach((phrase, i) => {
    if (inTitle[i]) placement += PLACE_WEIGHTS.title;
    else if (!match.inSummary) placement += PLACE_WEIGHTS.body;
    else if (single) placement += PLACE_WEIGHTS.summary;
    else {
      summary ??= fold(match.summary ?? "");
      placement += phrase.pattern.test(summary) ? PLACE_WEIGHTS.summary : PLACE_WEIGHTS.body;
    }
  });
  const score = PLACEMENT_SHARE * (placement / phrases.length) + COVERAGE_SHARE * coverage;
  return Math.round(Math.min(1, Math.max(0, score)) * DIGITS) / DIGITS;
}
