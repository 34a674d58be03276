/**
 * A task's steps as a table: state, checkpoints, the proof still missing, and the live lease (holder
 * and expiry on the workspace tick clock). The summary list comes with `tasks.resume_super`; each
 * step's detail is read with `open STEP-…`, a few at a time.
 */
import { badge, el, table } from "../dom";
import type { OpenedStep, Reader, StepDetail, StepSummary } from "./types";
import { missingProofInWords } from "./words";

/** Steps whose detail (checkpoints, lease) is read, a few calls at a time. */
const MAX_STEP_DETAILS = 100;
const STEP_BATCH = 10;

export async function readStepDetails(read: Reader, steps: StepSummary[]): Promise<Map<string, OpenedStep>> {
  const details = new Map<string, OpenedStep>();
  const wanted = steps.slice(0, MAX_STEP_DETAILS);
  for (let start = 0; start < wanted.length; start += STEP_BATCH) {
    const batch = await Promise.all(
      wanted
        .slice(start, start + STEP_BATCH)
        .map((step) => read<{ step: StepDetail; lease?: OpenedStep["lease"]; missing_proof?: string[] }>("open", { id: step.id })),
    );
    for (const opened of batch) {
      const { step, lease, missing_proof } = opened;
      details.set(step.id, { step, lease: lease ?? null, ...(missing_proof === undefined ? {} : { missing_proof }) });
    }
  }
  return details;
}

function proofModeNote(step: StepDetail, name: string): string {
  const mode = step.proof_modes?.[name];
  return mode && mode !== "off" ? ` (proof ${mode})` : "";
}

function checkpointCells(step: StepDetail | undefined): HTMLElement {
  if (!step) return el("span", { class: "muted" }, "—");
  return el(
    "span",
    { class: "checkpoints" },
    ...Object.entries(step.checkpoints).map(([name, done]) =>
      el(
        "span",
        { class: done ? "check done" : "check", title: `${name}: ${done ? "confirmed" : "not confirmed"}${proofModeNote(step, name)}` },
        `${done ? "✓" : "·"} ${name}`,
      ),
    ),
  );
}

function missingProofCell(detail: OpenedStep | undefined): HTMLElement {
  if (!detail) return el("span", { class: "muted", testid: "missing-proof" }, "not read");
  const words = missingProofInWords(detail.missing_proof);
  return el("span", { class: words === "none" ? "proof-met" : "proof-missing", testid: "missing-proof" }, words);
}

function stepState(step: StepSummary): string {
  return step.completed ? "done" : step.blocked ? "blocked" : "open";
}

/** The steps table (`steps`, one `step-row` per step); `nowTick` turns a lease's expiry into ticks left. */
export function stepsTable(steps: StepSummary[], details: Map<string, OpenedStep>, nowTick: number): HTMLTableElement {
  const rows = steps.map((step) => {
    const detail = details.get(step.id);
    const lease = detail?.lease ?? null;
    const state = stepState(step);
    return [
      step.path,
      step.title,
      badge(state, `status-${state}`),
      checkpointCells(detail?.step),
      missingProofCell(detail),
      lease ? el("span", { testid: "lease-holder" }, lease.holder) : el("span", { class: "muted" }, "no lease"),
      lease
        ? el("span", { testid: "lease-expiry" }, `tick ${lease.expires_tick} (${Math.max(0, lease.expires_tick - nowTick)} ticks left)`)
        : "",
    ];
  });
  return table(
    ["Path", "Step", "State", "Checkpoints", "Missing proof", "Lease holder", "Lease expires"],
    rows,
    { testid: "steps" },
    (index) => ({
      testid: "step-row",
      data: { step: steps[index]?.id ?? "" },
    }),
  );
}
