/** A command context for store-level tests run inside a workspace object (no journal, fixed clock). */
import type { CommandContext } from "../../src/commands/context";
import type { Db } from "../../src/storage/db";

export function storeContext(db: Db, workspace = "store/test"): CommandContext {
  return {
    db,
    principal: { agent_id: "tester", workspaces: ["**"], role: "admin", key_id: "test" },
    workspace,
    nowMs: 1_000,
    readLimitChars: undefined,
    journal: () => undefined,
    event: () => {
      throw new Error("store-level tests emit no task events");
    },
    warn: () => undefined,
    forgetBranch: () => {
      throw new Error("store-level tests delete no branches");
    },
    memo: new Map(),
  };
}
