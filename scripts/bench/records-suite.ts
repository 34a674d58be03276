/**
 * The records suite (issue 10's targets): seeds LISTED_PROJECTS small projects once (the Directory is
 * shared by every size), then for each size builds the layout, seeds a fresh project `bench/r<size>`
 * through `workspace_import` record ops, checks the overview, the big record's children, and one
 * answer of every op against the model, and samples the ops of `records-measure.ts` in rotated rounds
 * with every answer checked.
 */
import { log } from "../lib/dev-server.ts";
import type { McpClient } from "../lib/mcp-http.ts";
import {
  buildRecordsLayout,
  expectedBundle,
  expectedSearch,
  LISTED_PROJECTS,
  PROJECT_PREFIX,
  recordId,
  smallProjects,
} from "./records-layout.ts";
import { callRecordOp, measureRecords, RECORD_OPS, type RecordsWorld, recordsOpSet } from "./records-measure.ts";
import type { RecordsAnswers, RecordsRun, RecordsSizeResult } from "./records-report.ts";
import { checkLayout, seedProjects, seedRecords } from "./records-seed.ts";
import { fmtInt } from "./report.ts";
import { summarize } from "./sampling.ts";

export interface RecordsSuiteOptions {
  recordSizes: number[];
  warmup: number;
  samples: number;
}

export async function runRecordsSuite(client: McpClient, options: RecordsSuiteOptions): Promise<RecordsRun> {
  const projects = smallProjects(LISTED_PROJECTS);
  log(`seeding ${projects.length} small projects ${PROJECT_PREFIX}… for list_projects (create_project and an import each)`);
  const projectSeeding = await seedProjects(client, projects);
  log(
    `  ${(projectSeeding.ms / 1000).toFixed(1)} s in ${projectSeeding.calls} calls; every summary in the Directory ` +
      `${(projectSeeding.summary_wait_ms / 1000).toFixed(1)} s after the last write`,
  );
  const results: RecordsSizeResult[] = [];
  for (const size of options.recordSizes) {
    const workspace = `bench/r${size}`;
    const layout = buildRecordsLayout(size);
    log(`seeding ${workspace}: ${fmtInt(size)} records, ${fmtInt(layout.roots)} roots, depth ≤ ${layout.maxDepth}`);
    const seeding = await seedRecords(client, workspace, layout);
    log(`  ${(seeding.ms / 1000).toFixed(1)} s in ${seeding.calls} calls`);
    const world: RecordsWorld = {
      workspace,
      common: expectedSearch(layout, layout.commonWord),
      rare: expectedSearch(layout, layout.rareWord),
      bundle: expectedBundle(layout),
      leaf: { target: recordId(layout.leafNum), parent: recordId(layout.parent[layout.leafNum] as number) },
      projects,
    };
    await checkLayout(client, workspace, layout, world.bundle);
    const answers = {} as RecordsAnswers;
    for (const op of RECORD_OPS) {
      const { value, bundle } = await callRecordOp(client, world, op);
      answers[op] = { chars: JSON.stringify(value).length, ...(bundle ? { bundle } : {}) };
      if (op === "list_projects") answers[op].projects = (value.projects as unknown[]).length;
    }
    log(
      `  checked: "${world.common.word}" ${fmtInt(world.common.total)} matches, "${world.rare.word}" ${world.rare.total}; ` +
        `bundle ${fmtInt(answers.activate.bundle?.chars ?? 0)} chars; list_projects ${answers.list_projects.projects} projects in one call`,
    );
    log(`measuring ${workspace}: ${options.warmup} warmup + ${options.samples} sample rounds of ${RECORD_OPS.length} ops`);
    const times = await measureRecords(client, world, options.warmup, options.samples);
    results.push({
      size,
      workspace,
      seeding,
      words: {
        common: { word: world.common.word, records: world.common.matches.size },
        rare: { word: world.rare.word, records: world.rare.matches.size },
      },
      answers,
      ops: summarize(recordsOpSet(), times),
    });
  }
  return { projects: projectSeeding, results };
}
