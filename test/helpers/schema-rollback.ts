/**
 * Takes a workspace database back to schema version 16 for tests of an upgrade: drops what migrations
 * 17 (the term index), 18 (leases by holder), 19 (the index's open cards by tag, a new view), 20
 * (queued jobs by addressee), 21 (dependencies, claims and what makes a task ready, with their
 * triggers) and 22 (waiting tasks by plan) created and forgets that they ran, so the next `migrate`
 * applies them to the rows as an older workspace holds them.
 */
import type { Db } from "../../src/storage/db";

export function undoMigrationsAfter16(db: Db): void {
  for (const trigger of ["graph_terms_insert", "graph_terms_superseded", "graph_terms_branch_delete", "graph_terms_fixed"])
    db.run(`DROP TRIGGER ${trigger}`);
  db.run("DROP VIEW graph_version_terms");
  db.run("DROP TABLE graph_terms");
  db.run("DROP INDEX branches_by_base_seq");
  db.run("DROP INDEX step_leases_by_holder");
  db.run("DROP INDEX jobs_queue_by_addressee");
  for (const trigger of db.all<{ name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'trigger' AND (name LIKE 'task_readiness_%' OR name = 'task_claims_expire')",
  ))
    db.run(`DROP TRIGGER ${trigger.name}`);
  for (const table of ["task_readiness", "task_claims", "task_dependencies"]) db.run(`DROP TABLE ${table}`);
  db.run("DELETE FROM _migrations WHERE id > 16");
  db.run("DELETE FROM workspace_meta WHERE key = 'graph_terms_backfill'");
}
