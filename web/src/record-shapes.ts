/**
 * The shapes of the Record-Sync reads the viewer's records view and the app's session view both make
 * (records.list, records.activity, records.sessions), as the server answers them: one place, so the
 * two surfaces read the same fields the same way.
 */

/** A record as records.list answers it: a ref with its depth in the tree. */
export interface RecordRef {
  id: string;
  type: string;
  title: string;
  summary?: string;
  state: string;
  parent_id: string | null;
  children_count: number;
  open_children_count: number;
  depth: number;
}

/** An entry of records.activity. */
export interface ActivityEntry {
  id: number;
  timestamp: string;
  at_tick: number;
  type: string;
  session_id?: string;
  agent_id?: string;
  record_id?: string;
  summary: string;
}

/** An open session as records.sessions lists it. */
export interface OpenSession {
  session_id: string;
  agent_id: string;
  status: string;
  last_activity: string;
  last_sync_tick: number;
  tick_gap: number;
  active_records_count: number;
}
