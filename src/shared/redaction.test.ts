// Unit tests of the secret scanner (pure). Its behaviour through MCP is in test/redaction.test.ts.
// Fake secrets are assembled from pieces so that no credential-shaped literal sits in the source.
import { describe, expect, it } from "vitest";
import { marker, redactArgs, redactionEnabled, redactionWarning, redactSecrets, SECRET_KINDS, type SecretKind } from "./redaction";

const join = (...parts: string[]) => parts.join("");
const ALNUM = "aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0zC";
/** A deterministic mixed-case alphanumeric run of `length` characters. */
const run = (length: number) => ALNUM.repeat(Math.ceil(length / ALNUM.length)).slice(0, length);

const PEM_BODY = [run(64), run(64), "AbCdEf0123=="].join("\n");
const pem = (label: string) => join("-----BEGIN ", label, "PRIVATE KEY-----\n", PEM_BODY, "\n-----END ", label, "PRIVATE KEY-----");
const JWT = join(
  "eyJ",
  "hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9",
  ".",
  "eyJ",
  "zdWIiOiIxMjM0NTY3ODkwIn0",
  ".",
  "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlF",
);
const AWS_ID = join("AKIA", "IOSFODNN7", "EXAMPLE");
const AWS_SECRET = join("wJalrXUtnFEMI/K7MDENG/", "bPxRfiCYEXAMPLEKEY");

/** For each kind: texts that must be redacted, and what they become. */
const POSITIVES: [SecretKind, string, string][] = [
  ["private_key", pem("RSA "), `${marker("private_key")}\n\n\n\n`],
  ["private_key", `key:\n${pem("")}\nend`, `key:\n${marker("private_key")}\n\n\n\n\nend`],
  ["private_key", pem("OPENSSH "), `${marker("private_key")}\n\n\n\n`],
  [
    "private_key",
    join(
      "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0A1B\n\n",
      run(40),
      "\n-----END RSA PRIVATE KEY-----",
    ),
    `${marker("private_key")}\n\n\n\n\n`,
  ],
  ["jwt", `session ${JWT} expires`, `session ${marker("jwt")} expires`],
  ["aws_access_key_id", `key id ${AWS_ID}.`, `key id ${marker("aws_access_key_id")}.`],
  ["aws_access_key_id", join("ASIA", "Y34FZKBOKMUTVV7A"), marker("aws_access_key_id")],
  ["aws_secret_access_key", `aws_secret_access_key = ${AWS_SECRET}`, `aws_secret_access_key = ${marker("aws_secret_access_key")}`],
  ["aws_secret_access_key", `AWS_SECRET_ACCESS_KEY="${AWS_SECRET}"`, `AWS_SECRET_ACCESS_KEY="${marker("aws_secret_access_key")}"`],
  ["github_token", `export GH=${join("ghp", "_", run(36))}`, `export GH=${marker("github_token")}`],
  ["github_token", join("gho", "_", run(36)), marker("github_token")],
  ["github_token", join("github", "_pat_", run(22), "_", run(59)), marker("github_token")],
  ["slack_token", `slack ${join("xox", "b-", "123456789012-1234567890123-", run(24))}`, `slack ${marker("slack_token")}`],
  ["anthropic_key", join("sk-", "ant-", "api03-", run(90), "-AA"), marker("anthropic_key")],
  ["openai_key", join("sk-", "proj-", run(100)), marker("openai_key")],
  ["openai_key", `OPENAI ${join("sk-", run(48))}`, `OPENAI ${marker("openai_key")}`],
  ["stripe_key", join("sk", "_live_", run(24)), marker("stripe_key")],
  ["stripe_key", join("rk", "_live_", run(24)), marker("stripe_key")],
  ["google_api_key", `maps ${join("AIza", "SyD", run(32))}`, `maps ${marker("google_api_key")}`],
  ["url_password", "postgres://app:s3cr3tPass@db.internal:5432/app", `postgres://app:${marker("url_password")}@db.internal:5432/app`],
  ["bearer_token", `Authorization: Bearer ${run(32)}.`, `Authorization: Bearer ${marker("bearer_token")}.`],
  ["bearer_token", `curl -H "authorization: bearer ${run(20)}"`, `curl -H "authorization: bearer ${marker("bearer_token")}"`],
  ["generic_secret", "password=hunter22a", `password=${marker("generic_secret")}`],
  ["generic_secret", 'api_key: "correcthorse"', `api_key: "${marker("generic_secret")}"`],
  ["generic_secret", '{"client_secret":"abc123def456"}', `{"client_secret":"${marker("generic_secret")}"}`],
  ["generic_secret", "const dbPassword = 'Tr0ub4dor&3';", `const dbPassword = '${marker("generic_secret")}';`],
  ["generic_secret", "GET /cb?access_token=abc123def456&state=1", `GET /cb?access_token=${marker("generic_secret")}&state=1`],
  ["generic_secret", "config:password=abc12345", `config:password=${marker("generic_secret")}`],
  ["generic_secret", "The secret: s3cr3t-v4lue.", `The secret: ${marker("generic_secret")}.`],
  ["generic_secret", '{\\"token\\":\\"abc123def456\\"}', `{\\"token\\":\\"${marker("generic_secret")}\\"}`],
];

/** Ordinary text, hashes, ids and code that must come back unchanged. */
const SHA256 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
const NEGATIVES = [
  "",
  "short",
  SHA256,
  `code:src/math.ts#L10-L12@sha256:${SHA256}`,
  `sha256: ${SHA256}`,
  `content_hash = ${SHA256}`,
  "commit 3b18e512dba79e4c8300dd08aeb37f8e728b8dad",
  "550e8400-e29b-41d4-a716-446655440000",
  "CARD-12 CARD-PUB-3 STEP-0000000A TASK-001 PLAN-001 R001 R001.2 BR-0001 JOB-12@3 notes@12 S001",
  "CONFLICT-9f86d081884c7d65 evt_0000000000000001 CARD-KN-0a1b2c3d",
  "The token expired; rotate the secret and update the password policy before Friday.",
  "Bearer tokens are sent in the Authorization header: Bearer authentication-is-required.",
  "sk-learn pipelines and a task-force-without-any-digits-at-all-in-it-long-enough",
  "token: string; secret: Uint8Array; password?: string",
  "const apiKey = process.env.API_KEY;",
  ["password: $", "{DB_PASSWORD}"].join(""),
  "token = GITHUB_TOKEN",
  'api_key: "YOUR_API_KEY"',
  'password = "********"',
  "max_tokens: 4096, token_count: 12345678",
  "next_token: abc123def456 page_token=abc123def456",
  "token: STEP-0000000A",
  "if (token === undefined) return;",
  "postgres://user:password@localhost/db and https://example.com:8080/a?b=c",
  "Proof: CMD: npm test\nLINK: https://ci.example/run/12",
  "Claim: the cache key is sha256(path); Scope: src/cache.ts; Expiry: 2027-01-31",
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC KEY-----",
  "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBa\n-----END CERTIFICATE-----",
];

describe("redactSecrets", () => {
  it.each(POSITIVES)("redacts %s: %j", (kind, text, expected) => {
    const out = redactSecrets(text);
    expect(out.text).toBe(expected);
    expect(out.findings).toEqual([{ kind, count: 1 }]);
  });

  it("covers every kind with a positive case", () => {
    expect(new Set(POSITIVES.map(([kind]) => kind))).toEqual(new Set(SECRET_KINDS));
  });

  it.each(NEGATIVES)("leaves ordinary text alone: %j", (text) => {
    expect(redactSecrets(text)).toEqual({ text, findings: [] });
  });

  it("is idempotent: redacted text redacts to itself with no findings", () => {
    for (const [, text] of POSITIVES) {
      const once = redactSecrets(text).text;
      expect(redactSecrets(once)).toEqual({ text: once, findings: [] });
    }
  });

  it("is deterministic and counts per kind, sorted by kind", () => {
    const text = [`b ${AWS_ID}`, `a ${AWS_ID}`, `password=hunter22a`, JWT, `aws_secret_access_key=${AWS_SECRET}`].join("\n");
    const first = redactSecrets(text);
    expect(redactSecrets(text)).toEqual(first);
    expect(first.findings).toEqual([
      { kind: "aws_access_key_id", count: 2 },
      { kind: "aws_secret_access_key", count: 1 },
      { kind: "generic_secret", count: 1 },
      { kind: "jwt", count: 1 },
    ]);
    expect(first.text).not.toContain(AWS_ID);
    expect(first.text).not.toContain(AWS_SECRET);
  });

  it("keeps the line count of text holding a private key block", () => {
    const text = `line 1\n${pem("EC ")}\nline 7`;
    const out = redactSecrets(text).text;
    expect(out.split("\n")).toEqual(["line 1", marker("private_key"), "", "", "", "", "line 7"]);
  });

  it("stays linear on large inputs with many near-misses", () => {
    const text = `${"password: x ".repeat(20_000)}${"-----BEGIN RSA PRIVATE KEY----- ".repeat(2_000)}${run(200_000)}`;
    expect(redactSecrets(text).findings).toEqual([]);
  });
});

describe("redactArgs", () => {
  it("redacts strings at any depth, leaves keys, numbers and skipped fields alone, and counts everything", () => {
    const args = {
      content: `key ${AWS_ID}`,
      idempotency_key: `k-${AWS_ID}`,
      n: 3,
      flag: true,
      none: null,
      list: ["plain", `again ${AWS_ID}`],
      metadata: { nested: { deep: [`password=hunter22a`] }, [AWS_ID]: "key stays" },
    };
    const out = redactArgs(args, ["idempotency_key"]);
    expect(out.value).toEqual({
      content: `key ${marker("aws_access_key_id")}`,
      idempotency_key: `k-${AWS_ID}`,
      n: 3,
      flag: true,
      none: null,
      list: ["plain", `again ${marker("aws_access_key_id")}`],
      metadata: { nested: { deep: [`password=${marker("generic_secret")}`] }, [AWS_ID]: "key stays" },
    });
    expect(out.findings).toEqual([
      { kind: "aws_access_key_id", count: 2 },
      { kind: "generic_secret", count: 1 },
    ]);
    expect(args.content).toBe(`key ${AWS_ID}`);
  });

  it("redacts a whole value under a secret's name when it looks like a secret", () => {
    const out = redactArgs({
      metadata: {
        api_key: "abc123def456",
        clientSecret: "plainwords",
        token: "STEP-0000000A",
        note: "abc123def456",
        secret: "the answer is caching",
      },
    });
    expect(out.value).toEqual({
      metadata: {
        api_key: marker("generic_secret"),
        clientSecret: marker("generic_secret"),
        token: "STEP-0000000A",
        note: "abc123def456",
        secret: "the answer is caching",
      },
    });
    expect(out.findings).toEqual([{ kind: "generic_secret", count: 2 }]);
    expect(redactArgs(out.value).findings).toEqual([]);
  });

  it("returns the very same value when nothing is found", () => {
    const args = { content: `hash ${SHA256}`, list: ["CARD-1"], meta: { token_count: 12 } };
    const out = redactArgs(args);
    expect(out.value).toBe(args);
    expect(out.findings).toEqual([]);
  });
});

describe("redactionWarning and the switch", () => {
  it("names kinds and counts, never the secret", () => {
    const warning = redactionWarning(redactSecrets(`${AWS_ID} ${AWS_ID} ${JWT}`).findings);
    expect(warning.code).toBe("SECRET_REDACTED");
    expect(warning.message).toContain("3 secrets were redacted");
    expect(warning.message).toContain("aws_access_key_id x2, jwt x1");
    expect(warning.message).not.toContain(AWS_ID);
    expect(warning.recovery).toContain("REDACTION=off");
  });

  it("is on unless REDACTION is off", () => {
    expect(redactionEnabled(undefined)).toBe(true);
    expect(redactionEnabled("on")).toBe(true);
    expect(redactionEnabled("false")).toBe(true);
    expect(redactionEnabled("off")).toBe(false);
    expect(redactionEnabled(" OFF ")).toBe(false);
  });
});
