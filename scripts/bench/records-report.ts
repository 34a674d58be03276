/**
 * The records suite's report: its seeding tables (the big project, the small projects and how long
 * their summaries took to reach the Directory), what the checked answers held (the measured words and
 * their matches, the bundle's shape, the list_projects page), the shared latency and growth tables,
 * its verdict lines (ratio ≤ TARGET_MAX_RATIO for search_records and activate; list_projects ≥
 * LISTED_PROJECTS projects in one call; growth when two sizes run) and its JSON section (`records`).
 */
import type { Json } from "../lib/mcp-http.ts";
import {
  BIG_CHILDREN,
  COMMON_SHARE,
  GRANDCHILD_EVERY,
  GRANDCHILDREN_EACH,
  LISTED_PROJECTS,
  MAX_FANOUT,
  MAX_SPREAD_DEPTH,
  PARENT_WINDOW,
  PROJECT_PREFIX,
  RARE_RECORDS,
  RARE_WORD,
  ROOT_EVERY,
} from "./records-layout.ts";
import type { RecordOpName } from "./records-measure.ts";
import { BUNDLE_CHARS, type BundleShape, LIST_PROJECTS_ARGS, type ProjectsSeeding, type RecordsSeeding } from "./records-seed.ts";
import {
  fmtInt,
  type Growth,
  growthLines,
  latencyLines,
  type Misses,
  pad,
  padEnd,
  type SuiteSize,
  TARGET_MAX_RATIO,
  targetLines,
  targetsMetJson,
} from "./report.ts";
import type { OpSet } from "./sampling.ts";

/** Growth is reported over this range when the run covers it (the issue sets no growth target). */
const GROWTH_RANGE: [number, number] = [5_000, 50_000];

export type RecordsAnswers = Record<RecordOpName, { chars: number; bundle?: BundleShape; projects?: number }>;

export interface RecordsSizeResult extends SuiteSize<RecordOpName> {
  workspace: string;
  seeding: RecordsSeeding;
  words: { common: { word: string; records: number }; rare: { word: string; records: number } };
  /** One checked answer of every op before measuring: characters of structuredContent, and more. */
  answers: RecordsAnswers;
}

export interface RecordsRun {
  projects: ProjectsSeeding;
  results: RecordsSizeResult[];
}

/** The list_projects target: at least LISTED_PROJECTS projects in one call, at every size. */
export function listProjectsMet(run: RecordsRun): boolean {
  return run.results.every((result) => (result.answers.list_projects.projects ?? 0) >= LISTED_PROJECTS);
}

export function recordsLines(run: RecordsRun, growth: Growth<RecordOpName> | undefined, set: OpSet<RecordOpName>): string[] {
  const out = ["", "== Records suite ==", "", "Seeding (workspace_import record ops, ≤ 2000 ops and 900 kB per call)"];
  out.push(
    `${padEnd("records", 10)}${pad("roots", 7)}${pad("depth", 7)}${pad("OPEN", 8)}${pad("calls", 7)}${pad("time s", 9)}` +
      `${pad("records/s", 11)}${pad("max call s", 12)}`,
  );
  for (const { seeding: s } of run.results) {
    out.push(
      `${padEnd(fmtInt(s.records), 10)}${pad(fmtInt(s.roots), 7)}${pad(String(s.max_depth), 7)}${pad(fmtInt(s.states.OPEN ?? 0), 8)}` +
        `${pad(String(s.calls), 7)}${pad((s.ms / 1000).toFixed(1), 9)}${pad(fmtInt(Math.round(s.records_per_s)), 11)}` +
        `${pad((s.max_call_ms / 1000).toFixed(2), 12)}`,
    );
  }
  const p = run.projects;
  out.push(
    `Small projects for list_projects: ${p.projects} (${PROJECT_PREFIX}…, create_project and an import each), ${p.calls} calls in ` +
      `${(p.ms / 1000).toFixed(1)} s; every summary in the Directory ${(p.summary_wait_ms / 1000).toFixed(1)} s after the last write (${p.polls} polls)`,
    "",
    "Checked answers before measuring: words searched (records holding them), answer sizes (chars of structuredContent),",
    `the bundle of activate (budget ${fmtInt(BUNDLE_CHARS)}: OPEN children full / as refs, other children, grandchildren, omitted)`,
  );
  for (const result of run.results) {
    const { words, answers } = result;
    const b = answers.activate.bundle;
    out.push(
      `${fmtInt(result.size)}: common "${words.common.word}" (${fmtInt(words.common.records)} records) ${fmtInt(answers.search_common.chars)} chars; ` +
        `rare "${words.rare.word}" (${words.rare.records}) ${fmtInt(answers.search_rare.chars)} chars; ` +
        `activate ${fmtInt(answers.activate.chars)} chars, bundle ${fmtInt(b?.chars ?? 0)}: ${b?.open_full ?? 0} / ${b?.open_refs ?? 0}, ` +
        `${b?.other ?? 0}, ${b?.grandchildren ?? 0}, ${fmtInt(b?.omitted ?? 0)} omitted; ` +
        `list_projects ${answers.list_projects.projects ?? 0} projects in ${fmtInt(answers.list_projects.chars)} chars`,
    );
  }
  out.push("", ...latencyLines(set, run.results), "", ...growthLines(set, run.results, growth, "records", GROWTH_RANGE));
  return out;
}

export function recordsTargetLines(run: RecordsRun, misses: Misses, growth: Growth | undefined): string[] {
  const listed = run.results.map((result) => `${fmtInt(result.size)}: ${result.answers.list_projects.projects ?? 0}`).join("; ");
  return [
    `Records: target ratio ≤ ${TARGET_MAX_RATIO} for search_records and activate: ` +
      (misses.ratio.length === 0 ? "met" : `MISSED (${misses.ratio.join("; ")})`),
    `Records: list_projects returns ≥ ${LISTED_PROJECTS} projects in one call: ${listProjectsMet(run) ? "met" : "MISSED"} (${listed})`,
    targetLines("Records", misses, growth)[1] ?? "",
  ];
}

export function recordsJson(
  options: { recordSizes: number[] },
  set: OpSet<RecordOpName>,
  run: RecordsRun,
  growth: Growth<RecordOpName> | undefined,
  misses: Misses,
): Json {
  return {
    config: {
      sizes: options.recordSizes,
      ops: set.labels,
      ratio_targets: set.ops.filter((op) => op !== set.floor && !set.reference.includes(op)),
      list_projects_args: LIST_PROJECTS_ARGS,
      bundle_chars: BUNDLE_CHARS,
      activation: "activate {id} without session_id (a new session each sample), close_session after it outside the timing",
      layout: {
        big_record: `R002 (child of R001): ${BIG_CHILDREN} children, every other OPEN; every ${GRANDCHILD_EVERY}th child has ${GRANDCHILDREN_EACH} children`,
        spread: `one root in ${ROOT_EVERY}; else a child of one of the ${PARENT_WINDOW} records before it with depth < ${MAX_SPREAD_DEPTH} and < ${MAX_FANOUT} children; 6/10 OPEN, 2 RESOLVED, 1 LATER, 1 DISCARDED`,
        text: "titles 4-8 words, summaries 1-2 sentences, bodies 3-6 sentences, Zipf over a 220-word design vocabulary",
        common_word: `the vocabulary word in closest to ${COMMON_SHARE * 100} % of the records`,
        rare_word: `"${RARE_WORD}", in ${RARE_RECORDS} records`,
        projects: `${LISTED_PROJECTS} projects ${PROJECT_PREFIX}p000…, 1-3 records each`,
      },
      growth_range: GROWTH_RANGE,
    },
    projects: run.projects,
    results: run.results,
    growth: growth ?? null,
    targets_met: { ...targetsMetJson(misses, growth), list_projects_one_call: listProjectsMet(run), list_projects_min: LISTED_PROJECTS },
  };
}
