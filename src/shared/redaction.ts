/**
 * Secret redaction (issue 11): a pure scanner for obvious credentials in text that is about to be
 * stored. A small set of high-precision patterns (key formats with a fixed prefix or shape, PEM private
 * key blocks, `Bearer` tokens, credentials in URLs, and `password|secret|token|api_key = <value>`
 * assignments with a secret-looking value) is replaced by `[REDACTED:<kind>]`.
 *
 * Precision over recall: bare hex digests (sha256, git shas), UUIDs, BranchMind ids (CARD-…, STEP-…,
 * R001) and ordinary prose are never touched. Output is deterministic (patterns run in a fixed order,
 * findings are sorted by kind) and redacting redacted text changes nothing: no pattern matches a marker.
 * A PEM block keeps its line breaks (the marker, then empty lines), so line counts — and a code slice's
 * line range — stay valid. The executor applies `redactArgs` to every write's arguments.
 */
import type { Warning } from "./result";

export const SECRET_KINDS = [
  "private_key",
  "jwt",
  "aws_access_key_id",
  "aws_secret_access_key",
  "github_token",
  "slack_token",
  "anthropic_key",
  "openai_key",
  "stripe_key",
  "google_api_key",
  "url_password",
  "bearer_token",
  "generic_secret",
] as const;

export type SecretKind = (typeof SECRET_KINDS)[number];

export interface RedactionFinding {
  kind: SecretKind;
  count: number;
}

export interface Redacted {
  text: string;
  /** One entry per kind found, sorted by kind; empty when nothing was redacted. */
  findings: RedactionFinding[];
}

/** The deployment switch: REDACTION=off (any case) turns redaction off; unset or any other value keeps it on. */
export function redactionEnabled(setting: string | undefined): boolean {
  return setting?.trim().toLowerCase() !== "off";
}

export function marker(kind: SecretKind): string {
  return `[REDACTED:${kind}]`;
}

/**
 * One rule: a global regex and what a match becomes. `replace` returns the replacement, or undefined to
 * leave the match as it is (a candidate that fails the rule's checks); every replacement counts once.
 * `hints`: text holding none of these substrings cannot match, and the regex is not run on it.
 */
interface Rule {
  kind: SecretKind;
  hints: string[];
  pattern: RegExp;
  replace: (match: string, groups: (string | undefined)[], index: number, text: string) => string | undefined;
}

const hasDigit = (value: string) => /[0-9]/.test(value);
const hasLetter = (value: string) => /[A-Za-z]/.test(value);

/** The whole match becomes the marker. */
const whole =
  (kind: SecretKind, check: (match: string) => boolean = () => true) =>
  (match: string) =>
    check(match) ? marker(kind) : undefined;

/** Values that stand for a secret without being one: references, templates, placeholders, markers. */
function isPlaceholder(value: string): boolean {
  const lower = value.toLowerCase();
  if (/^[$%<{*[]/.test(value)) return true;
  if (/^(?:process\.env|os\.environ|env\.|env\[|getenv)/.test(lower)) return true;
  if (/example|placeholder|redacted|xxxx|your[_-]|dummy/.test(lower)) return true;
  if (/^(.)\1*$/.test(value)) return true;
  // An environment variable's name (GITHUB_TOKEN, API_KEY_V2).
  if (/^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(value)) return true;
  return false;
}

/** Words that stand in for a password in examples (postgres://user:password@host). */
const PLACEHOLDER_WORDS = ["password", "passwd", "pass", "pwd", "secret"];

/** BranchMind ids (CARD-PUB-3, STEP-0000000A, TASK-001, CONFLICT-ab12…): never secrets. */
const isBranchMindId = (value: string) => /^(?:[A-Z]+-)+[0-9A-Za-z]+$/.test(value);

/** Type names with a number inside (Uint8Array, Float64Array, Base64String): a type annotation, not a value. */
const isTypeName = (value: string) => /^(?:[A-Z][a-z]+)+[0-9]+(?:[A-Z][a-z]+)+$/.test(value);

/** Identifiers whose value, after `:` or `=`, is a secret (compared without case and `_ . -`, as a suffix). */
const SECRET_NAME_SUFFIXES = ["password", "passwd", "passphrase", "secret", "secretkey", "apikey", "accesskey", "privatekey", "token"];
/** Names ending in a secret word that are not secrets: pagination cursors. */
const NOT_SECRET_NAMES = ["nexttoken", "pagetoken", "continuationtoken", "cursortoken"];

function isSecretName(name: string): boolean {
  const folded = name.toLowerCase().replace(/[_.-]/g, "");
  if (NOT_SECRET_NAMES.some((suffix) => folded.endsWith(suffix))) return false;
  return SECRET_NAME_SUFFIXES.some((suffix) => folded.endsWith(suffix));
}

/** The identifier characters (letters, digits, `_ . -`) right before `index`: the start of a dotted or snake name. */
function nameEndingAt(text: string, index: number): string {
  let start = index;
  while (start > 0 && start > index - 64 && /[A-Za-z0-9_.-]/.test(text[start - 1] as string)) start--;
  return text.slice(start, index);
}

/** A value assigned to a secret name counts when it looks like one (see docs/architecture.md). */
function isSecretValue(value: string, quoted: boolean): boolean {
  if (value.length < 8 || isPlaceholder(value) || isBranchMindId(value)) return false;
  if (quoted) return true;
  return hasDigit(value) && hasLetter(value) && !isTypeName(value);
}

/** Trailing sentence punctuation after an unquoted value is not part of it. */
function splitTrailing(value: string): [string, string] {
  const trimmed = value.replace(/[.!?]+$/, "");
  return [trimmed, value.slice(trimmed.length)];
}

const RULES: Rule[] = [
  {
    // PEM (and PGP) private key blocks; the line breaks stay so line numbers after the block still hold.
    kind: "private_key",
    hints: ["PRIVATE KEY"],
    // The body cannot contain "-----", so a BEGIN without its END costs one scan to the next dashes.
    pattern:
      /-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:(?!-----)[\s\S]){0,65536}-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/g,
    replace: (match) => marker("private_key") + match.replace(/[^\r\n]/g, ""),
  },
  {
    kind: "jwt",
    hints: ["eyJ"],
    pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}(?![A-Za-z0-9_-])/g,
    replace: whole("jwt"),
  },
  {
    kind: "aws_access_key_id",
    hints: ["AKIA", "ASIA"],
    pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])/g,
    replace: whole("aws_access_key_id"),
  },
  {
    kind: "aws_secret_access_key",
    hints: ["secret", "SECRET", "Secret"],
    pattern: /(?<![A-Za-z0-9])(aws_?secret_?access_?key\\?["']?[ \t]*[:=][ \t]*\\?["']?)([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
    replace: (_match, [name]) => `${name}${marker("aws_secret_access_key")}`,
  },
  {
    kind: "github_token",
    hints: ["gh", "github_pat_"],
    pattern: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})(?![A-Za-z0-9_])/g,
    replace: whole("github_token"),
  },
  {
    kind: "slack_token",
    hints: ["xox"],
    pattern: /(?<![A-Za-z0-9-])xox[abprs]-[A-Za-z0-9-]{10,}(?![A-Za-z0-9-])/g,
    replace: whole("slack_token", hasDigit),
  },
  {
    kind: "anthropic_key",
    hints: ["sk-ant-"],
    pattern: /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{32,}(?![A-Za-z0-9_-])/g,
    replace: whole("anthropic_key", hasDigit),
  },
  {
    // Legacy (sk-<48>) and project/service keys (sk-proj-…, sk-svcacct-…): long and with digits, unlike
    // hyphenated words that happen to start with sk-.
    kind: "openai_key",
    hints: ["sk-"],
    pattern: /(?<![A-Za-z0-9_-])sk-(?!ant-)[A-Za-z0-9_-]{32,}(?![A-Za-z0-9_-])/g,
    replace: whole("openai_key", hasDigit),
  },
  {
    kind: "stripe_key",
    hints: ["_live_", "_test_"],
    pattern: /(?<![A-Za-z0-9_])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}(?![A-Za-z0-9])/g,
    replace: whole("stripe_key"),
  },
  {
    kind: "google_api_key",
    hints: ["AIza"],
    pattern: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g,
    replace: whole("google_api_key"),
  },
  {
    // scheme://user:password@host — only the password goes.
    kind: "url_password",
    hints: ["://"],
    pattern: /(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]{1,20}:\/\/[^\s:/@?#[\]]{1,128}:)([^\s:/@?#[\]]{3,256})@/g,
    replace: (_match, [prefix, password = ""]) =>
      isPlaceholder(password) || PLACEHOLDER_WORDS.includes(password.toLowerCase()) ? undefined : `${prefix}${marker("url_password")}@`,
  },
  {
    kind: "bearer_token",
    hints: ["earer"],
    pattern: /(?<![A-Za-z0-9])([Bb]earer[ \t]+)([A-Za-z0-9._~+/-]{16,}=*)(?![A-Za-z0-9._~+/=-])/g,
    replace: (_match, [prefix, raw = ""]) => {
      const [token, trailing] = splitTrailing(raw);
      return token.length >= 16 && hasDigit(token) && hasLetter(token) && !isPlaceholder(token)
        ? `${prefix}${marker("bearer_token")}${trailing}`
        : undefined;
    },
  },
  {
    // name = value, name: value, "name": "value", name => value (quoted values may not contain spaces).
    // The regex finds a secret word right before the separator; the whole name (client_secret,
    // dbPassword, next_token) is read back from the text and checked by isSecretName.
    kind: "generic_secret",
    hints: [":", "="],
    pattern:
      /(password|passwd|passphrase|secret(?:[_.-]?key)?|api[_.-]?key|access[_.-]?key|private[_.-]?key|token)(\\?["']?[ \t]*(?::=|=>|=|:)[ \t]*)(?:(\\?["'])([^"'\s\\]{8,})(?=\\?["'])|([^\s"'`,;:&()[\]{}<>\\]{8,}))/gi,
    replace: (_match, [name = "", separator = "", quote, quotedValue, bareValue], index, text) => {
      if (!isSecretName(nameEndingAt(text, index) + name)) return undefined;
      if (quotedValue !== undefined) {
        return isSecretValue(quotedValue, true) ? `${name}${separator}${quote}${marker("generic_secret")}` : undefined;
      }
      const [value, trailing] = splitTrailing(bareValue ?? "");
      return isSecretValue(value, false) ? `${name}${separator}${marker("generic_secret")}${trailing}` : undefined;
    },
  },
];

/** Cheap pre-check: text without any of these characters cannot hold a match of any rule. */
const MAY_HOLD_SECRET = /[-:=_]|AKIA|ASIA|AIza|eyJ|[Bb]earer/;

/** Redacts every secret in `text`; the same text always gives the same result. */
export function redactSecrets(text: string): Redacted {
  if (text.length < 8 || !MAY_HOLD_SECRET.test(text)) return { text, findings: [] };
  const counts = new Map<SecretKind, number>();
  let out = text;
  for (const rule of RULES) {
    if (!rule.hints.some((hint) => out.includes(hint))) continue;
    const replaced = applyRule(rule, out);
    if (replaced.count > 0) {
      counts.set(rule.kind, (counts.get(rule.kind) ?? 0) + replaced.count);
      out = replaced.text;
    }
  }
  return { text: out, findings: sortedFindings(counts) };
}

/**
 * One rule over the text, left to right. A candidate the rule declines is not skipped whole: the scan
 * goes on from its next character, so a secret inside it (`config:password=…`) is still found.
 */
function applyRule(rule: Rule, text: string): { text: string; count: number } {
  const pattern = rule.pattern;
  let out = "";
  let copied = 0;
  let count = 0;
  pattern.lastIndex = 0;
  for (let found = pattern.exec(text); found !== null; found = pattern.exec(text)) {
    const replacement = rule.replace(found[0], found.slice(1), found.index, text);
    if (replacement === undefined) {
      pattern.lastIndex = found.index + 1;
      continue;
    }
    out += text.slice(copied, found.index) + replacement;
    copied = found.index + found[0].length;
    count++;
    // A match is never empty (every rule needs several characters), so lastIndex moved past it.
  }
  return count === 0 ? { text, count } : { text: out + text.slice(copied), count };
}

function sortedFindings(counts: Map<SecretKind, number>): RedactionFinding[] {
  return [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([kind, count]) => ({ kind, count }));
}

export interface RedactedArgs<T> {
  value: T;
  findings: RedactionFinding[];
}

/**
 * Redacts every string inside a JSON-like value (arrays and plain objects recursively; object keys are
 * left alone, but a string under a secret's name, such as `api_key`, is redacted whole when it looks like a
 * secret). Top-level fields named in `skip` are not scanned. Returns the input itself when nothing
 * was found, so an unchanged call costs no copy.
 */
export function redactArgs<T>(value: T, skip: readonly string[] = []): RedactedArgs<T> {
  const counts = new Map<SecretKind, number>();
  const walk = (node: unknown, top: boolean): unknown => {
    if (typeof node === "string") {
      const redacted = redactSecrets(node);
      for (const finding of redacted.findings) counts.set(finding.kind, (counts.get(finding.kind) ?? 0) + finding.count);
      return redacted.text;
    }
    if (Array.isArray(node)) {
      let changed = false;
      const out = node.map((item) => {
        const next = walk(item, false);
        if (next !== item) changed = true;
        return next;
      });
      return changed ? out : node;
    }
    if (node !== null && typeof node === "object" && Object.getPrototypeOf(node) === Object.prototype) {
      let changed = false;
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(node)) {
        const next = top && skip.includes(key) ? item : (byName(key, item) ?? walk(item, false));
        if (next !== item) changed = true;
        out[key] = next;
      }
      return changed ? out : node;
    }
    return node;
  };
  // A string under a secret's name ({"api_key": "…"}) is one, when it looks like one (like a quoted assignment).
  const byName = (key: string, item: unknown): string | undefined => {
    if (typeof item !== "string" || /\s/.test(item) || !isSecretName(key) || !isSecretValue(item, true)) return undefined;
    counts.set("generic_secret", (counts.get("generic_secret") ?? 0) + 1);
    return marker("generic_secret");
  };
  const walked = walk(value, true) as T;
  const findings = sortedFindings(counts);
  return { value: findings.length === 0 ? value : walked, findings };
}

/** The warning a write carries when something was redacted: kinds and counts, never the secret. */
export function redactionWarning(findings: RedactionFinding[], note?: string): Warning {
  const total = findings.reduce((sum, finding) => sum + finding.count, 0);
  const list = findings.map((finding) => `${finding.kind} x${finding.count}`).join(", ");
  return {
    code: "SECRET_REDACTED",
    message: `${total} secret${total === 1 ? " was" : "s were"} redacted before storing (${list}); the stored text says [REDACTED:<kind>] in ${total === 1 ? "its" : "their"} place.${note ? ` ${note}` : ""}`,
    recovery:
      "Keep credentials out of memory: refer to them by name (an environment variable or a vault entry). If one was real, consider rotating it. Operators can turn redaction off with REDACTION=off.",
  };
}
