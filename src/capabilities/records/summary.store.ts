/**
 * The Record-Sync summary a workspace pushes to the Directory (list_projects): the project tick, how
 * many records are OPEN and how many sessions are not closed. Both counts are bounded: they stop at
 * MAX_COUNTED_RECORDS (a summary is a hint, not a scan of a huge project).
 */
import { read } from "../../storage/clocks";
import type { Db } from "../../storage/db";
import { MAX_COUNTED_RECORDS } from "./records.schema";
import { countBy } from "./records.store";
import { countOpenSessions } from "./sessions.store";

export function recordSyncSummary(db: Db): { project_tick: number; open_records: number; open_sessions: number } {
  return {
    project_tick: read(db, "project_tick"),
    open_records: Math.min(countBy(db, { state: "OPEN" }, MAX_COUNTED_RECORDS), MAX_COUNTED_RECORDS),
    open_sessions: Math.min(countOpenSessions(db, MAX_COUNTED_RECORDS), MAX_COUNTED_RECORDS),
  };
}
