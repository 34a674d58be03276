/**
 * Checkpoints and proof (docs/tasks.md "Proof gates"): which checkpoints a step must have confirmed
 * before it closes, which need receipts, how check lines become receipts, and the warnings for weak
 * proof. Pure rules plus the one query that reads a step's proofs.
 *
 * - Close gate: `criteria` and `tests` must be confirmed; `security`, `perf` and `docs` join them once
 *   they carry proof or their proof mode is `require` (CHECKPOINTS_NOT_CONFIRMED names the missing).
 * - Proof gate: a checkpoint in `require` mode needs a receipt, a `CMD:` or a `LINK:` (PROOF_REQUIRED).
 * - Receipts: `CMD: …` and `LINK: …` lines, a bare URL (a link), command output (a command) and URL
 *   artifacts (a link). Lines holding a `<fill: …>` placeholder never count.
 * - A checkpoint in `warn` or `require` mode with one kind of receipt but not the other, or (`warn`)
 *   none at all, gets the warning PROOF_WEAK.
 */

import type { StepRow } from "../../place/targets.store";
import { fail } from "../../shared/errors";
import type { Warning } from "../../shared/result";
import { fill, holdsPlaceholder, suggest } from "../../shared/suggestion";
import type { Db } from "../../storage/db";
import { CHECKPOINTS, type Checkpoint, PROOF_CHECKPOINTS, type ProofCheckpoint } from "./tasks.schema";
import { proofCounts, proofCountsOfTask } from "./tasks.store";

export type Receipt = "CMD" | "LINK";

const URL_LINE = /^https?:\/\/\S+$/i;

/**
 * A `<fill: …>` placeholder: it never counts as proof. (Writes refuse one before they run, so stored
 * rows hold none; the check stays for rows stored before that rule.)
 */
export const isPlaceholder = holdsPlaceholder;

/** The receipt a check line carries, or null (a plain note, or a placeholder). */
export function receiptOf(line: string): Receipt | null {
  const text = line.trim();
  if (isPlaceholder(text)) return null;
  if (/^CMD:\s*\S/i.test(text)) return "CMD";
  if (/^LINK:\s*\S/i.test(text) || URL_LINE.test(text)) return "LINK";
  return null;
}

export function isConfirmed(step: StepRow, checkpoint: Checkpoint): boolean {
  return step[`${checkpoint}_confirmed`] === 1;
}

export function proofMode(step: StepRow, checkpoint: ProofCheckpoint) {
  return step[`proof_${checkpoint}_mode`];
}

/** Per checkpoint of a step: whether it has any proof row, and which receipts. */
export type ProofSummary = Record<Checkpoint, { proofs: number; receipts: Set<Receipt> }>;

function emptySummary(): ProofSummary {
  return Object.fromEntries(CHECKPOINTS.map((name) => [name, { proofs: 0, receipts: new Set<Receipt>() }])) as ProofSummary;
}

function addCount(summary: ProofSummary, row: { checkpoint: string; receipt: string | null; n: number }): void {
  const checkpoint = summary[row.checkpoint as Checkpoint];
  checkpoint.proofs += row.n;
  if (row.receipt !== null) checkpoint.receipts.add(row.receipt as Receipt);
}

export function proofSummary(db: Db, step: StepRow): ProofSummary {
  const summary = emptySummary();
  for (const row of proofCounts(db, step)) addCount(summary, row);
  return summary;
}

/** The proof summary of each of a task's steps (by step id), read in one statement; a step with no proofs has an empty one. */
export function proofSummariesOfTask(db: Db, taskId: string, steps: readonly StepRow[]): Map<string, ProofSummary> {
  const summaries = new Map(steps.map((step) => [step.id, emptySummary()]));
  for (const row of proofCountsOfTask(db, taskId)) {
    const summary = summaries.get(row.step_id);
    if (summary !== undefined) addCount(summary, row);
  }
  return summaries;
}

/** Checkpoints that must be confirmed before the step closes. */
export function requiredCheckpoints(step: StepRow, proofs: ProofSummary): Checkpoint[] {
  const required: Checkpoint[] = ["criteria", "tests"];
  for (const name of ["security", "perf", "docs"] as const) {
    if (proofs[name].proofs > 0 || proofMode(step, name) === "require") required.push(name);
  }
  return required;
}

export function missingCheckpoints(step: StepRow, proofs: ProofSummary): Checkpoint[] {
  return requiredCheckpoints(step, proofs).filter((name) => !isConfirmed(step, name));
}

/** Refuses to close a step whose gate is not met; returns the PROOF_WEAK warnings otherwise. */
export function checkCloseGates(step: StepRow, proofs: ProofSummary): Warning[] {
  const missing = missingCheckpoints(step, proofs);
  if (missing.length > 0) {
    fail(
      "CHECKPOINTS_NOT_CONFIRMED",
      `Step ${step.path} (${step.id}) cannot close: checkpoints not confirmed: ${missing.join(", ")}.`,
      `Confirm them with \`tasks_verify\` (or close with \`tasks_close_step\`, which verifies and closes at once).`,
      { step_id: step.id, path: step.path, missing },
      [
        suggest(
          "tasks_verify",
          {
            task: step.task_id,
            step_id: step.id,
            checkpoints: Object.fromEntries(missing.map((name) => [name, { confirmed: true }])),
          },
          "Confirm the missing checkpoints.",
        ),
      ],
    );
  }
  const unproven = PROOF_CHECKPOINTS.filter((name) => proofMode(step, name) === "require" && proofs[name].receipts.size === 0);
  if (unproven.length > 0) {
    fail(
      "PROOF_REQUIRED",
      `Step ${step.path} (${step.id}) requires proof for: ${unproven.join(", ")}; none of its receipts is a CMD: or LINK: line.`,
      "Attach CMD + LINK receipts with `tasks_evidence_capture`, then close again.",
      { step_id: step.id, path: step.path, checkpoints: unproven },
      [
        suggest(
          "tasks_evidence_capture",
          {
            task: step.task_id,
            step_id: step.id,
            checkpoint: unproven[0],
            checks: [`CMD: ${fill("command you ran")}`, `LINK: ${fill("url of the result")}`],
          },
          "Attach receipts.",
        ),
      ],
    );
  }
  return weakProofWarnings(step, proofs);
}

export function weakProofWarnings(step: StepRow, proofs: ProofSummary): Warning[] {
  const warnings: Warning[] = [];
  for (const name of PROOF_CHECKPOINTS) {
    const mode = proofMode(step, name);
    if (mode === "off") continue;
    const receipts = proofs[name].receipts;
    if (receipts.size === 2 || (receipts.size === 0 && mode === "require")) continue;
    const lacking = receipts.size === 0 ? "receipts" : receipts.has("CMD") ? "a LINK: receipt" : "a CMD: receipt";
    warnings.push({
      code: "PROOF_WEAK",
      message: `Step ${step.path}: the ${name} checkpoint has no ${lacking}.`,
      recovery: "Attach both a CMD: line (what you ran) and a LINK: line (where the result is) with `tasks_evidence_capture`.",
    });
  }
  return warnings;
}
