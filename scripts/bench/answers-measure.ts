/**
 * What the answers suite measures: for the reads an agent resumes with (context_pack, tasks_snapshot,
 * tasks_resume_super, think_watch, open TASK-…) the characters of the whole answer under the audit
 * profile, the ids it names, the ids the default budget (20,000) keeps, and latency at the default
 * budget. With a second server (an earlier revision, `--compare-root`) both are sampled in the same
 * rotated rounds, so their medians and ratios come from one run.
 */
import type { Call, Json, McpClient } from "../lib/mcp-http.ts";
import type { AnswersWorld } from "./answers-seed.ts";
import { type OpSet, sampleRounds } from "./sampling.ts";

export const READS = ["context_pack", "tasks_snapshot", "tasks_resume_super", "think_watch", "open_task"] as const;
export type ReadName = (typeof READS)[number];

/** A server the suite measures: `now` (this checkout) and, when comparing, `before`. */
export interface Side {
  label: "now" | "before";
  client: McpClient;
  world: AnswersWorld;
}

export function readCall(read: ReadName, world: AnswersWorld): { tool: string; args: Json } {
  const args = { workspace: world.workspace };
  return read === "open_task" ? { tool: "open", args: { ...args, id: world.task } } : { tool: read, args };
}

/** Keys that name an item: the ids a larger budget must keep, and the answer's item count. */
const ID_KEYS = new Set(["id", "seq", "card_id", "event_id", "step_id", "record_id", "session_id", "job", "conflict_id"]);

/** The ids an answer names outside its warnings, budget and capsule (the items it carries). */
export function idsOf(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) idsOf(item, out);
  else if (value !== null && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (key === "warnings" || key === "budget" || key === "capsule" || key === "watch_capsule") continue;
      if (ID_KEYS.has(key) && (typeof inner === "string" || typeof inner === "number")) out.add(`${key}:${inner}`);
      else idsOf(inner, out);
    }
  }
  return out;
}

export interface AnswerMeasure {
  /** Under `budget_profile: "audit"`: the answer's characters (compact JSON without `budget`) and ids. */
  audit_chars: number;
  audit_ids: string[];
  /** At the default budget: the ids kept, the characters used, whether it was cut. */
  default_ids: number;
  default_used_chars: number;
  default_truncated: boolean;
}

function charsOf(answer: Json): number {
  const { budget: _budget, ...rest } = answer;
  return JSON.stringify(rest).length;
}

export async function measureAnswers(side: Side): Promise<Record<ReadName, AnswerMeasure>> {
  const out = {} as Record<ReadName, AnswerMeasure>;
  for (const read of READS) {
    const { tool, args } = readCall(read, side.world);
    const audit = (await side.client.callTool(tool, { ...args, budget_profile: "audit" })).value;
    const whole = (await side.client.callTool(tool, args)).value;
    if (audit.truncated === true) throw new Error(`${side.label} ${read}: the audit answer was cut; the working set is too large for it`);
    const budget = whole.budget as { used_chars: number } | undefined;
    out[read] = {
      audit_chars: charsOf(audit),
      audit_ids: [...idsOf(audit)].sort(),
      default_ids: idsOf(whole).size,
      default_used_chars: budget?.used_chars ?? charsOf(whole),
      default_truncated: whole.truncated === true,
    };
  }
  return out;
}

export type AnswersOp = `${Side["label"]}:${ReadName | "ping"}`;

export function answersOpSet(sides: readonly Side[]): OpSet<AnswersOp> {
  const ops = sides.flatMap((side) => (["ping", ...READS] as const).map((read) => `${side.label}:${read}` as AnswersOp));
  const labels = Object.fromEntries(ops.map((op) => [op, op])) as Record<AnswersOp, string>;
  return { ops, floor: "now:ping", reference: ops.filter((op) => op.endsWith(":ping")), labels };
}

/** Latency at the default budget, every side's reads in the same rotated rounds. */
export function sampleAnswers(sides: readonly Side[], warmup: number, samples: number): Promise<Record<AnswersOp, number[]>> {
  const set = answersOpSet(sides);
  const byLabel = new Map(sides.map((side) => [side.label, side]));
  return sampleRounds(
    set.ops,
    (op): Promise<Call> => {
      const [label, read] = op.split(":") as [Side["label"], ReadName | "ping"];
      const side = byLabel.get(label);
      if (side === undefined) throw new Error(`no side ${label}`);
      if (read === "ping") return side.client.callTool("ping", { workspace: side.world.workspace });
      const { tool, args } = readCall(read, side.world);
      return side.client.callTool(tool, args);
    },
    warmup,
    samples,
  );
}
