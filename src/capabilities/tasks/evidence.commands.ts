/**
 * `tasks_evidence_capture`: attach proof to a task or step checkpoint — check lines (`CMD:` / `LINK:`
 * receipts, bare URLs, plain notes) and artifacts (command output, diff, URL). It never closes a step;
 * a checkpoint with proof becomes part of the step's close gate (docs/tasks.md "Proof gates").
 */
import { z } from "zod";
import { defineCommand } from "../../commands/registry";
import { stepSelectorFields, targetFields } from "../../place/target.schema";
import { resolveStep, resolveTask } from "../../place/targets";
import { findStep } from "../../place/targets.store";
import { fail } from "../../shared/errors";
import { utf8Bytes } from "../../shared/json";
import { emitEvent } from "./ingest";
import { requireLeaseFree } from "./leases.store";
import { isPlaceholder, proofSummary, type Receipt, receiptOf, weakProofWarnings } from "./proof";
import { CHECKPOINTS, type Checkpoint, eventSchema, MAX_STEP_ITEM_CHARS } from "./tasks.schema";
import { insertProofs, updateEntity } from "./tasks.store";

/** Items (check lines + artifacts) in one call, and the size of one artifact (the original's limits). */
export const MAX_EVIDENCE_ITEMS = 20;
export const MAX_ARTIFACT_BYTES = 256_000;

const artifactSchema = z.strictObject({
  kind: z.enum(["cmd_output", "diff", "url"]),
  command: z.string().max(MAX_STEP_ITEM_CHARS).optional(),
  stdout: z.string().optional(),
  stderr: z.string().optional(),
  exit_code: z.number().int().optional(),
  diff: z.string().optional(),
  content: z.string().optional(),
  url: z.string().url().max(2048).optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
});
type Artifact = z.infer<typeof artifactSchema>;

function artifactReceipt(artifact: Artifact): Receipt | null {
  if (artifact.kind === "cmd_output" && artifact.command !== undefined && !isPlaceholder(artifact.command)) return "CMD";
  if (artifact.kind === "url" && artifact.url !== undefined && !isPlaceholder(artifact.url)) return "LINK";
  return null;
}

export const tasksEvidenceCapture = defineCommand({
  name: "tasks.evidence_capture",
  tool: "tasks_evidence_capture",
  aliases: ["tasks.evidence.capture"],
  title: "Attach proof",
  description: `Attach proof to a checkpoint (default tests) of a step (step_id, path or "focus") or of the task: checks (lines; "CMD: …" and "LINK: …" or a bare URL are receipts, "<fill: …>" placeholders never count) and artifacts (cmd_output, diff, url; each at most ${MAX_ARTIFACT_BYTES} bytes). At most ${MAX_EVIDENCE_ITEMS} items per call. Never closes the step.`,
  kind: "write",
  example: { target: "TASK-001", step: "focus", checks: ["CMD: npm test"] },
  input: {
    ...targetFields,
    ...stepSelectorFields,
    checkpoint: z.union([z.enum(CHECKPOINTS), z.array(z.enum(CHECKPOINTS)).min(1).max(CHECKPOINTS.length)]).default("tests"),
    checks: z.array(z.string().min(1).max(MAX_STEP_ITEM_CHARS)).max(MAX_EVIDENCE_ITEMS).optional(),
    artifacts: z.array(artifactSchema).max(MAX_EVIDENCE_ITEMS).optional(),
  },
  output: {
    task: z.string(),
    revision: z.number(),
    step_id: z.string().optional(),
    checkpoints: z.array(z.string()),
    captured: z.object({
      checks: z.number(),
      artifacts: z.number(),
      receipts: z.object({ CMD: z.number(), LINK: z.number() }),
      placeholders: z.number(),
    }),
    events: z.array(eventSchema),
  },
  handler: (ctx, args) => {
    const task = resolveTask(ctx, args, "tasks_evidence_capture");
    const named = args.step !== undefined || args.step_id !== undefined || args.path !== undefined;
    const step = named ? resolveStep(ctx.db, task, args) : undefined;
    if (step) requireLeaseFree(ctx, step);
    const checks = args.checks ?? [];
    const artifacts = args.artifacts ?? [];
    if (checks.length + artifacts.length === 0) {
      fail(
        "INVALID_INPUT",
        "Nothing to capture: pass checks or artifacts.",
        'Pass e.g. checks: ["CMD: npm test", "LINK: https://ci.example/run/1"].',
        { fields: ["checks", "artifacts"] },
      );
    }
    if (checks.length + artifacts.length > MAX_EVIDENCE_ITEMS) {
      fail(
        "INVALID_INPUT",
        `At most ${MAX_EVIDENCE_ITEMS} items per call (got ${checks.length + artifacts.length}).`,
        "Split the evidence over several calls.",
        {
          max_items: MAX_EVIDENCE_ITEMS,
        },
      );
    }
    artifacts.forEach((artifact, index) => {
      const bytes = utf8Bytes(JSON.stringify(artifact));
      if (bytes > MAX_ARTIFACT_BYTES) {
        fail(
          "PAYLOAD_TOO_LARGE",
          `artifacts[${index}] is ${bytes} bytes; the limit is ${MAX_ARTIFACT_BYTES}.`,
          "Trim the output (keep the tail), or link to it instead.",
          {
            index,
            bytes,
            max_bytes: MAX_ARTIFACT_BYTES,
          },
        );
      }
    });
    const checkpoints: Checkpoint[] = Array.isArray(args.checkpoint) ? [...new Set(args.checkpoint)] : [args.checkpoint];
    const items = [
      ...checks.map((line) => ({ kind: "check" as const, receipt: receiptOf(line), body: { line }, placeholder: isPlaceholder(line) })),
      ...artifacts.map((artifact) => ({
        kind: "artifact" as const,
        receipt: artifactReceipt(artifact),
        body: artifact,
        placeholder: isPlaceholder(artifact.command ?? "") || isPlaceholder(artifact.url ?? ""),
      })),
    ];
    const next = updateEntity(ctx, task, {});
    const receipts = {
      CMD: items.filter((item) => item.receipt === "CMD").length,
      LINK: items.filter((item) => item.receipt === "LINK").length,
    };
    const event = emitEvent(ctx, next, {
      type: "evidence_captured",
      ...(step ? { path: step.path } : {}),
      payload: { ...(step ? { step_id: step.id } : {}), checkpoints, checks: checks.length, artifacts: artifacts.length, receipts },
      summary: `${items.length} item(s) for ${checkpoints.join(", ")}`,
    });
    insertProofs(
      ctx,
      task.id,
      step?.id ?? null,
      event.event_id,
      checkpoints.flatMap((checkpoint) => items.map((item) => ({ checkpoint, kind: item.kind, receipt: item.receipt, body: item.body }))),
    );
    if (step) {
      const fresh = findStep(ctx.db, task.id, { id: step.id });
      if (fresh) for (const warning of weakProofWarnings(fresh, proofSummary(ctx.db, fresh))) ctx.warn(warning);
    }
    return {
      task: next.id,
      revision: next.revision,
      ...(step ? { step_id: step.id } : {}),
      checkpoints,
      captured: {
        checks: checks.length,
        artifacts: artifacts.length,
        receipts,
        placeholders: items.filter((item) => item.placeholder).length,
      },
      events: [event],
    };
  },
});
