/** The workspace schema, in order. Never edit a listed file: add the next one. */
import init from "../../migrations/0001_init.sql";
import graph from "../../migrations/0002_graph.sql";
import graphHeadsByKey from "../../migrations/0003_graph_heads_by_key.sql";
import tasks from "../../migrations/0004_tasks.sql";
import stepLeases from "../../migrations/0005_step_leases.sql";
import cards from "../../migrations/0006_cards.sql";
import snapshotBaselines from "../../migrations/0007_snapshot_baselines.sql";
import reasoningMode from "../../migrations/0008_reasoning_mode.sql";
import jobs from "../../migrations/0009_jobs.sql";
import knowledge from "../../migrations/0010_knowledge.sql";
import anchors from "../../migrations/0011_anchors.sql";
import codeRefs from "../../migrations/0012_code_refs.sql";
import records from "../../migrations/0013_records.sql";
import graphNodeText from "../../migrations/0014_graph_node_text.sql";
import journalClock from "../../migrations/0015_journal_clock.sql";
import cursorKey from "../../migrations/0016_cursor_key.sql";
import graphTerms from "../../migrations/0017_graph_terms.sql";
import stepLeasesByHolder from "../../migrations/0018_step_leases_by_holder.sql";
import graphTermsOpenTags from "../../migrations/0019_graph_terms_open_tags.sql";
import jobsQueueByAddressee from "../../migrations/0020_jobs_queue_by_addressee.sql";
import taskDependencies from "../../migrations/0021_task_dependencies.sql";
import taskReadinessWaitingByPlan from "../../migrations/0022_task_readiness_waiting_by_plan.sql";
import type { Migration } from "./migrate";

export const WORKSPACE_MIGRATIONS: readonly Migration[] = [
  { id: 1, name: "init", sql: init },
  { id: 2, name: "graph", sql: graph },
  { id: 3, name: "graph_heads_by_key", sql: graphHeadsByKey },
  { id: 4, name: "tasks", sql: tasks },
  { id: 5, name: "step_leases", sql: stepLeases },
  { id: 6, name: "cards", sql: cards },
  { id: 7, name: "snapshot_baselines", sql: snapshotBaselines },
  { id: 8, name: "reasoning_mode", sql: reasoningMode },
  { id: 9, name: "jobs", sql: jobs },
  { id: 10, name: "knowledge", sql: knowledge },
  { id: 11, name: "anchors", sql: anchors },
  { id: 12, name: "code_refs", sql: codeRefs },
  { id: 13, name: "records", sql: records },
  { id: 14, name: "graph_node_text", sql: graphNodeText },
  { id: 15, name: "journal_clock", sql: journalClock, keepsTables: true },
  { id: 16, name: "cursor_key", sql: cursorKey, keepsTables: true },
  { id: 17, name: "graph_terms", sql: graphTerms, keepsTables: true },
  { id: 18, name: "step_leases_by_holder", sql: stepLeasesByHolder, keepsTables: true },
  { id: 19, name: "graph_terms_open_tags", sql: graphTermsOpenTags, keepsTables: true },
  { id: 20, name: "jobs_queue_by_addressee", sql: jobsQueueByAddressee, keepsTables: true },
  { id: 21, name: "task_dependencies", sql: taskDependencies },
  { id: 22, name: "task_readiness_waiting_by_plan", sql: taskReadinessWaitingByPlan, keepsTables: true },
];
