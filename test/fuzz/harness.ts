// Fuzzing harness (issue 11), shared by test/fuzz-tools.test.ts and test/fuzz-protocol.test.ts: the run
// knobs and shares, the statistics and violations, and the fast-check group runner. The fuzz files send
// property-based calls through the real Worker, built from each command's zod schema
// (test/fuzz/arbitraries.ts). Every call is checked for: no HTTP 5xx; a JSON-RPC answer that is a
// result or a protocol error, never -32603; a tool error typed (code in ERROR_CODES, never
// INTERNAL_ERROR, non-empty message and recovery_hint); a flat tool's answer valid against its
// advertised outputSchema and the whole answer contract; and a rejected call (or a read) changing
// nothing: every clock (tick, seq, …) and the row count of every table of the workspace and of the
// Directory are the same after it (test/fuzz/checks.ts).
//
// `npm test` runs a short, fixed-seed run (every command reached); `npm run fuzz` runs 10,000 calls.
// Knobs (Vite's import.meta.env carries VITE_* variables into workerd): VITE_FUZZ_RUNS (total calls),
// VITE_FUZZ_SEED (base seed), VITE_FUZZ_ONLY (comma list of tool names, "portals", "jsonrpc", "body").
// A failure prints the group's seed, fast-check's path and the shrunk counterexample. See docs/ci.md.

import fc from "fast-check";
import { COMMANDS } from "../../src/catalog/catalog";

const fuzzEnv = (import.meta as unknown as { env?: Record<string, string | undefined> }).env ?? {};
/** The short run of `npm test`: 2 calls per command plus the protocol groups (~420 calls). */
const SHORT_RUNS = 400;
export const TOTAL_RUNS = Number(fuzzEnv.VITE_FUZZ_RUNS ?? "") || SHORT_RUNS;
export const BASE_SEED = Number(fuzzEnv.VITE_FUZZ_SEED ?? "") || 20_261_101;
export const ONLY = new Set((fuzzEnv.VITE_FUZZ_ONLY ?? "").split(",").filter((name) => name !== ""));
export const selected = (group: string) => ONLY.size === 0 || ONLY.has(group);

/** Shares of the total: 70% flat tools (every command, at least 2 each), 20% portals, 0.5% body sizes, the rest JSON-RPC. */
export const PER_COMMAND = Math.max(2, Math.ceil((TOTAL_RUNS * 0.7) / COMMANDS.length));
export const PORTAL_RUNS = Math.max(60, Math.round(TOTAL_RUNS * 0.2));
export const BODY_RUNS = Math.max(8, Math.round(TOTAL_RUNS * 0.005));
export const JSONRPC_RUNS = Math.max(30, TOTAL_RUNS - PER_COMMAND * COMMANDS.length - PORTAL_RUNS - BODY_RUNS);
/** Generous: a call takes a few ms, but a loaded machine is slower; a hung call still ends the test. */
export const timeoutFor = (calls: number) => 30_000 + calls * 100;

/**
 * What the current fuzz file works on, set by `setUpFuzzing` (test/fuzz/workspace.ts): its own
 * workspace (names stay unique across test files) and its path, for the reproduce line of a failure.
 */
export const target = { workspace: "", file: "" };

// ---------------------------------------------------------------------------------------------------
// Statistics and violations

export type Violation =
  | "5xx"
  | "internal"
  | "untyped"
  | "state-change"
  | "output-schema"
  | "malformed-answer"
  | "nondeterministic"
  | "replay";
export type Outcome = "ok" | "tool-error" | "protocol-error" | "http-error";

export const stats = {
  calls: 0,
  /** Second sends: a successful read again (determinism), a write with idempotency_key again (replay). */
  repeats: 0,
  outcomes: { ok: 0, "tool-error": 0, "protocol-error": 0, "http-error": 0 } as Record<Outcome, number>,
  violations: {
    "5xx": 0,
    internal: 0,
    untyped: 0,
    "state-change": 0,
    "output-schema": 0,
    "malformed-answer": 0,
    nondeterministic: 0,
    replay: 0,
  } as Record<Violation, number>,
  groups: { flat: 0, portal: 0, jsonrpc: 0, body: 0 },
  /** Tool error codes by how often they came back (how deep the valid calls got). */
  codes: {} as Record<string, number>,
  failures: [] as string[],
  startedAt: 0,
};

/** What the server wrote to console.error: during the current call (shown with a violation), and how many lines in all. */
export const serverLog = { errors: [] as string[], count: 0 };

export class FuzzViolation extends Error {
  constructor(
    readonly kind: Violation,
    message: string,
  ) {
    super(`[${kind}] ${message}`);
  }
}

export function violation(kind: Violation, message: string): never {
  throw new FuzzViolation(kind, message);
}

export const abbreviate = (text: string, max = 600) => (text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text);

/** JSON with long strings cut, for reports (a counterexample may carry a 300 KB string). */
export function show(value: unknown): string {
  return abbreviate(
    JSON.stringify(value, (_key, item) =>
      typeof item === "string" && item.length > 120 ? `${item.slice(0, 60)}…(${item.length} chars)` : item,
    ) ?? String(value),
    4_000,
  );
}

/**
 * Runs one property group with fast-check; a failure is recorded (seed, path, shrunk counterexample,
 * the violation) rather than thrown, so the other groups still run and the summary counts them all.
 */
export async function runGroup<T>(
  label: string,
  seed: number,
  numRuns: number,
  arbitrary: fc.Arbitrary<T>,
  check: (value: T) => Promise<void>,
) {
  const details = await fc.check(fc.asyncProperty(arbitrary, check), { seed, numRuns, endOnFailure: false });
  if (!details.failed) return;
  const error = details.errorInstance;
  if (error instanceof FuzzViolation) stats.violations[error.kind]++;
  stats.failures.push(
    [
      `${label}: ${error instanceof Error ? error.message : String(error)}`,
      `  seed ${details.seed}, path "${abbreviate(details.counterexamplePath ?? "", 120)}", after ${details.numRuns} runs and ${details.numShrinks} shrinks`,
      `  counterexample: ${show(details.counterexample?.[0])}`,
      `  reproduce: VITE_FUZZ_SEED=${BASE_SEED} VITE_FUZZ_RUNS=${TOTAL_RUNS}${ONLY.size > 0 ? ` VITE_FUZZ_ONLY=${[...ONLY].join(",")}` : ""} npx vitest run ${target.file}`,
    ].join("\n"),
  );
}
