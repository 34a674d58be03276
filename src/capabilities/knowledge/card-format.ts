/**
 * The recommended knowledge card text (seed 002), pure: `Claim:`, `Scope:`, `Apply:`, `Proof:` (parts
 * `CMD: …`, `LINK: …`, `FILE: …` separated by `|`) and `Expiry: YYYY-MM-DD` lines, parsed into fields;
 * plus the card's identity: the normalised claim (title + text), its content hash and the card id
 * `CARD-KN-<fnv1a64(anchor \n key \n claim)>` (drafts add their lane, so a draft and the shared card of
 * the same text never share an id). Dates are compared as strings (YYYY-MM-DD sorts by time).
 */
import { fnv1a64 } from "../../shared/hash";

export const KNOWLEDGE_ID_PREFIX = "CARD-KN-";
/** `Expiry: never` says on purpose that the card does not expire (lint does not ask for a date). */
export const NEVER_EXPIRES = "never";
/** An expiry value is kept for lint up to this length (longer values are invalid anyway). */
const MAX_EXPIRY_CHARS = 64;

const FIELD_LINE = /^\s*(claim|scope|apply|proof|expiry)\s*:\s?(.*)$/i;
const PROOF_PART = /^(cmd|link|file)\s*:\s*(.+)$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export interface Proof {
  kind: "CMD" | "LINK" | "FILE" | "TEXT";
  value: string;
}

export interface KnowledgeText {
  claim?: string;
  scope?: string;
  apply?: string;
  proof: Proof[];
  /** The raw value of the first `Expiry:` line, trimmed (validate it with `expiryProblem`). */
  expiry?: string;
}

type TextField = "claim" | "scope" | "apply";

/** The fields of a card text; lines that are not `Field:` lines continue the field above them. */
export function parseKnowledgeText(text: string): KnowledgeText {
  const parsed: KnowledgeText = { proof: [] };
  let current: TextField | undefined;
  for (const line of text.split(/\r?\n/)) {
    const match = FIELD_LINE.exec(line);
    if (!match) {
      const more = line.trim();
      if (current !== undefined && more.length > 0) parsed[current] = `${parsed[current] ?? ""}\n${more}`.trim();
      continue;
    }
    const field = (match[1] as string).toLowerCase();
    const value = (match[2] as string).trim();
    current = undefined;
    if (field === "proof") parsed.proof.push(...proofParts(value));
    else if (field === "expiry") parsed.expiry ??= value.slice(0, MAX_EXPIRY_CHARS);
    else if (parsed[field as TextField] === undefined) {
      current = field as TextField;
      if (value.length > 0) parsed[current] = value;
    }
  }
  return parsed;
}

function proofParts(value: string): Proof[] {
  return value
    .split("|")
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => {
      const match = PROOF_PART.exec(part);
      return match
        ? { kind: (match[1] as string).toUpperCase() as Proof["kind"], value: (match[2] as string).trim() }
        : { kind: "TEXT" as const, value: part };
    });
}

/** True for a real calendar date written YYYY-MM-DD. */
export function isIsoDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] as number;
  return day <= days;
}

/** What is wrong with an expiry value, or undefined for a date or `never`. */
export function expiryProblem(expiry: string): string | undefined {
  if (expiry.toLowerCase() === NEVER_EXPIRES || isIsoDate(expiry)) return undefined;
  return `"${expiry}" is not a date written YYYY-MM-DD (or "${NEVER_EXPIRES}")`;
}

/** The UTC calendar date (YYYY-MM-DD) of a millisecond timestamp. */
export function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** A card's first `Claim:` line, as a title for cards given without one. */
export function titleFromText(text: string | undefined, maxChars: number): string | undefined {
  if (text === undefined) return undefined;
  const claim = parseKnowledgeText(text).claim?.split("\n")[0]?.trim();
  return claim === undefined || claim.length === 0 ? undefined : claim.slice(0, maxChars);
}

/** Title and text as one claim: lines trimmed, inner whitespace runs made one space, empty lines dropped. */
export function normalizeClaim(title: string | undefined, text: string | undefined): string {
  return [title ?? "", text ?? ""]
    .join("\n")
    .split(/\r?\n/)
    .map((line) => line.trim().replace(/\s+/g, " "))
    .filter((line) => line.length > 0)
    .join("\n");
}

export function contentHash(claim: string): string {
  return fnv1a64(claim);
}

/** The card id of a version: content-addressed, so re-writing the same claim under a key is a no-op. */
export function knowledgeCardId(anchor: string, key: string, claim: string, draftLane?: string): string {
  const parts = [anchor, key, claim, ...(draftLane === undefined ? [] : [draftLane])];
  return `${KNOWLEDGE_ID_PREFIX}${fnv1a64(parts.join("\n"))}`;
}
