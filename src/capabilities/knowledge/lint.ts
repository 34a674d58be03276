/**
 * Knowledge lint, pure: findings over the latest cards of some keys, so the knowledge base does not
 * drift into a junk drawer. Duplicated content (under one anchor, or across anchors), keys overloaded
 * across anchors, and the Expiry line of the recommended card text: missing, not a date, or past the
 * `asOf` date the caller decided (this module never reads a clock). Findings are sorted (warnings first,
 * then code, then subject), so the same rows always give the same list.
 */
import { expiryProblem, NEVER_EXPIRES } from "./card-format";

export interface LintRow {
  /** Canonical anchor slug (aliases already resolved). */
  anchor: string;
  key: string;
  lane: string;
  card_id: string;
  content_hash: string;
  expiry: string | null;
}

export type Severity = "warning" | "info";

export interface LintIssue {
  severity: Severity;
  code: string;
  message: string;
  hint: string;
  evidence: Record<string, unknown>;
}

export const KNOWLEDGE_LINT_CODES = [
  "KNOWLEDGE_DUPLICATE_CONTENT_SAME_ANCHOR",
  "KNOWLEDGE_DUPLICATE_CONTENT_SAME_KEY_ACROSS_ANCHORS",
  "KNOWLEDGE_DUPLICATE_CONTENT_ACROSS_ANCHORS_MULTIPLE_KEYS",
  "KNOWLEDGE_KEY_OVERLOADED_ACROSS_ANCHORS",
  "KNOWLEDGE_KEY_OVERLOADED_OUTLIERS",
  "KNOWLEDGE_EXPIRED",
  "KNOWLEDGE_EXPIRY_INVALID",
  "KNOWLEDGE_MISSING_EXPIRY",
] as const;

const SEVERITY_RANK: Record<Severity, number> = { warning: 0, info: 1 };

const a = (slug: string) => `a:${slug}`;
const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

function groupBy<T>(items: T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

function duplicates(rows: LintRow[]): LintIssue[] {
  const issues: LintIssue[] = [];
  for (const same of groupBy(rows, (row) => row.content_hash).values()) {
    const keys = sorted(same.map((row) => row.key));
    const anchors = sorted(same.map((row) => row.anchor));
    const cardIds = sorted(same.map((row) => row.card_id));
    // One anchor, several keys holding the same text.
    for (const [anchor, inAnchor] of groupBy(same, (row) => row.anchor)) {
      const anchorKeys = sorted(inAnchor.map((row) => row.key));
      if (anchorKeys.length < 2) continue;
      issues.push({
        severity: "warning",
        code: "KNOWLEDGE_DUPLICATE_CONTENT_SAME_ANCHOR",
        message: `${a(anchor)} holds the same card under ${anchorKeys.length} keys: ${anchorKeys.join(", ")}.`,
        hint: "Keep one key and upsert the others with what only they say (or stop using them).",
        evidence: { anchor: a(anchor), keys: anchorKeys, card_ids: sorted(inAnchor.map((row) => row.card_id)) },
      });
    }
    if (anchors.length < 2) continue;
    if (keys.length === 1) {
      issues.push({
        severity: "info",
        code: "KNOWLEDGE_DUPLICATE_CONTENT_SAME_KEY_ACROSS_ANCHORS",
        message: `Key ${keys[0]} holds the same card under ${anchors.length} anchors: ${anchors.map(a).join(", ")}.`,
        hint: "If it is one fact, keep it under the anchor it belongs to (or a shared parent anchor).",
        evidence: { key: keys[0], anchors: anchors.map(a), card_ids: cardIds },
      });
    } else {
      issues.push({
        severity: "info",
        code: "KNOWLEDGE_DUPLICATE_CONTENT_ACROSS_ANCHORS_MULTIPLE_KEYS",
        message: `The same card appears under ${anchors.length} anchors with ${keys.length} keys: ${keys.join(", ")}.`,
        hint: "Keep one (anchor, key) for it; recall the others through that anchor.",
        evidence: { anchors: anchors.map(a), keys, card_ids: cardIds },
      });
    }
  }
  return issues;
}

/** One key used under several anchors for different content. */
function overloads(rows: LintRow[]): LintIssue[] {
  const issues: LintIssue[] = [];
  for (const [key, withKey] of groupBy(rows, (row) => row.key)) {
    const anchors = sorted(withKey.map((row) => row.anchor));
    const contents = [...groupBy(withKey, (row) => row.content_hash).values()].sort(
      (x, y) => y.length - x.length || ((x[0] as LintRow).card_id < (y[0] as LintRow).card_id ? -1 : 1),
    );
    if (anchors.length < 2 || contents.length < 2) continue;
    const major = contents[0] as LintRow[];
    if (major.length >= 2 && major.length * 2 > withKey.length) {
      const outliers = contents.slice(1).flat();
      issues.push({
        severity: "info",
        code: "KNOWLEDGE_KEY_OVERLOADED_OUTLIERS",
        message: `Key ${key} says one thing under ${major.length} anchors and something else under ${sorted(
          outliers.map((row) => row.anchor),
        )
          .map(a)
          .join(", ")}.`,
        hint: "Check the outliers: align them with the majority, or give them a key of their own.",
        evidence: {
          key,
          majority: { anchors: sorted(major.map((row) => row.anchor)).map(a), card_ids: sorted(major.map((row) => row.card_id)) },
          outliers: { anchors: sorted(outliers.map((row) => row.anchor)).map(a), card_ids: sorted(outliers.map((row) => row.card_id)) },
        },
      });
    } else {
      issues.push({
        severity: "info",
        code: "KNOWLEDGE_KEY_OVERLOADED_ACROSS_ANCHORS",
        message: `Key ${key} means ${contents.length} different things under ${anchors.length} anchors: ${anchors.map(a).join(", ")}.`,
        hint: "Use a more specific key under each anchor, so a key names one fact.",
        evidence: { key, anchors: anchors.map(a), card_ids: sorted(withKey.map((row) => row.card_id)) },
      });
    }
  }
  return issues;
}

function expiries(rows: LintRow[], asOf: string | null): LintIssue[] {
  const issues: LintIssue[] = [];
  for (const row of rows) {
    const subject = { anchor: a(row.anchor), key: row.key, lane: row.lane, card_id: row.card_id };
    const where = `${a(row.anchor)} ${row.key}`;
    if (row.expiry === null) {
      issues.push({
        severity: "info",
        code: "KNOWLEDGE_MISSING_EXPIRY",
        message: `${where} has no Expiry line.`,
        hint: `Add "Expiry: YYYY-MM-DD" (or "Expiry: ${NEVER_EXPIRES}") to the card text and upsert it.`,
        evidence: subject,
      });
      continue;
    }
    const problem = expiryProblem(row.expiry);
    if (problem !== undefined) {
      issues.push({
        severity: "warning",
        code: "KNOWLEDGE_EXPIRY_INVALID",
        message: `${where}: ${problem}.`,
        hint: "Write the Expiry line as YYYY-MM-DD, e.g. Expiry: 2030-01-31.",
        evidence: { ...subject, expiry: row.expiry },
      });
    } else if (asOf !== null && row.expiry.toLowerCase() !== NEVER_EXPIRES && row.expiry < asOf) {
      issues.push({
        severity: "warning",
        code: "KNOWLEDGE_EXPIRED",
        message: `${where} expired on ${row.expiry} (as of ${asOf}).`,
        hint: "Re-check the claim: upsert it with a new Expiry, or replace it.",
        evidence: { ...subject, expiry: row.expiry, as_of: asOf },
      });
    }
  }
  return issues;
}

/** Every finding over `rows` (the latest card per anchor, key and lane), sorted. */
export function lintKnowledge(rows: LintRow[], asOf: string | null): LintIssue[] {
  return [...duplicates(rows), ...overloads(rows), ...expiries(rows, asOf)].sort(
    (x, y) =>
      SEVERITY_RANK[x.severity] - SEVERITY_RANK[y.severity] ||
      (x.code < y.code ? -1 : x.code > y.code ? 1 : 0) ||
      (x.message < y.message ? -1 : x.message > y.message ? 1 : 0),
  );
}
