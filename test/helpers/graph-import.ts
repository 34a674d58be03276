/**
 * Graph ops written in bulk through `workspace_import` (an admin's call): 500 ops per graph item and
 * 5,000 per call, its limits (docs/export.md), in the order given.
 */
import { as, ok, type RpcOptions } from "./mcp";

const OPS_PER_ITEM = 500;
const OPS_PER_CALL = 5_000;

export async function importGraphOps(
  workspace: string,
  ops: Record<string, unknown>[],
  options: { branch?: string | undefined; admin?: RpcOptions } = {},
): Promise<void> {
  const admin = options.admin ?? (await as("root", { role: "admin" }));
  for (let start = 0; start < ops.length; start += OPS_PER_CALL) {
    const items = [];
    for (let at = start; at < Math.min(ops.length, start + OPS_PER_CALL); at += OPS_PER_ITEM)
      items.push({
        op: "graph",
        ...(options.branch === undefined ? {} : { branch: options.branch }),
        ops: ops.slice(at, at + OPS_PER_ITEM),
      });
    await ok("workspace_import", { workspace, ops: items }, admin);
  }
}
