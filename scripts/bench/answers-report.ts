/**
 * The answers suite's report: per read, the characters under the audit profile, the ids it names and
 * the ids the default budget keeps, on this checkout and (when compared) the earlier revision, with
 * the change in characters; then latency medians at the default budget side by side, and the JSON
 * section (`answers`). The issue's goal (at least 30% fewer characters for context_pack,
 * tasks_snapshot and tasks_resume_super under audit) is reported, not asserted.
 */
import type { Json } from "../lib/mcp-http.ts";
import { READS, type ReadName } from "./answers-measure.ts";
import type { AnswersResult } from "./answers-suite.ts";
import { fmtInt, fmtMs, pad, padEnd } from "./report.ts";

/** Reads whose audit answer should be at least GOAL_CUT smaller than before leaner items. */
const GOAL_READS: readonly ReadName[] = ["context_pack", "tasks_snapshot", "tasks_resume_super"];
const GOAL_CUT = 0.3;

const pct = (now: number, before: number): string => `${(((now - before) / before) * 100).toFixed(1)}%`;

export function answersLines(result: AnswersResult): string[] {
  const { now, before } = result.answers;
  const out = ["", `## Answers suite (${result.workspace}: a modest task)`, ""];
  out.push(
    `${padEnd("read", 20)}${pad("audit chars", 12)}${pad("ids", 6)}${pad("default ids", 13)}${pad("default used", 14)}` +
      (before ? `${pad("before chars", 14)}${pad("before ids", 12)}${pad("before def.", 13)}${pad("chars", 9)}` : ""),
  );
  for (const read of READS) {
    const a = now?.[read];
    if (a === undefined) continue;
    const b = before?.[read];
    out.push(
      `${padEnd(read, 20)}${pad(fmtInt(a.audit_chars), 12)}${pad(String(a.audit_ids.length), 6)}${pad(String(a.default_ids), 13)}` +
        `${pad(`${fmtInt(a.default_used_chars)}${a.default_truncated ? "*" : ""}`, 14)}` +
        (b
          ? `${pad(fmtInt(b.audit_chars), 14)}${pad(String(b.audit_ids.length), 12)}${pad(`${b.default_ids}${b.default_truncated ? "*" : ""}`, 13)}${pad(pct(a.audit_chars, b.audit_chars), 9)}`
          : ""),
    );
  }
  out.push("(* the default answer was cut to its budget)", "");
  out.push(`${padEnd("op (default budget)", 28)}${pad("median ms", 11)}${pad("p95 ms", 9)}${pad("× floor", 9)}`);
  for (const [op, stats] of Object.entries(result.ops)) {
    out.push(`${padEnd(op, 28)}${pad(fmtMs(stats.median_ms), 11)}${pad(fmtMs(stats.p95_ms), 9)}${pad(stats.ratio_to_floor.toFixed(2), 9)}`);
  }
  if (before && now) {
    const misses = GOAL_READS.filter((read) => now[read].audit_chars > before[read].audit_chars * (1 - GOAL_CUT));
    out.push(
      "",
      misses.length === 0
        ? `Goal met: ${GOAL_READS.join(", ")} carry the same ids in at least ${GOAL_CUT * 100}% fewer characters under audit.`
        : `Goal missed for ${misses.join(", ")}: under ${GOAL_CUT * 100}% fewer characters under audit.`,
    );
  }
  return out;
}

export function answersJson(result: AnswersResult): Json {
  const answers: Json = {};
  for (const [side, reads] of Object.entries(result.answers)) {
    answers[side] = Object.fromEntries(
      Object.entries(reads ?? {}).map(([read, measure]) => [read, { ...measure, audit_ids: measure.audit_ids.length }]),
    );
  }
  const ops = Object.fromEntries(Object.entries(result.ops).map(([op, { samples_ms: _samples, ...stats }]) => [op, stats]));
  return { workspace: result.workspace, sides: result.sides, answers, ops };
}
