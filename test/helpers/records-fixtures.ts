/** Record-Sync test fixtures: create_record with empty defaults for the fields a test does not care about. */
import { ok, type RpcOptions } from "./mcp";

export type Args = Record<string, unknown>;

/** Creates a record in `session` (or a new one) and returns the answer. */
export async function create(workspace: string, fields: Args, options: RpcOptions = {}) {
  return ok("create_record", { workspace, type: "note", summary: "", body: "", ...fields }, options);
}
