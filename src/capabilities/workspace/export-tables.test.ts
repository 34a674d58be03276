// Every table the workspace migrations create is exported or deliberately left out, each exported
// table once; a new migration without its entry fails here before any backup could miss it.
import { describe, expect, it } from "vitest";
import { WORKSPACE_MIGRATIONS } from "../../storage/migrations";
import { EXCLUDED_TABLES, EXPORT_TABLES, migrationTables, uncoveredTables } from "./export-tables.store";

describe("export tables", () => {
  it("cover every table of the migrations, each once", () => {
    const created = migrationTables(WORKSPACE_MIGRATIONS);
    expect(created).toContain("records_fts");
    expect(created).toContain("graph_heads");
    expect(uncoveredTables([...created, "_migrations"])).toEqual([]);
    const exported = EXPORT_TABLES.map((table) => table.name);
    expect(new Set(exported).size).toBe(exported.length);
    expect([...exported, ...Object.keys(EXCLUDED_TABLES)].sort()).toEqual([...created, "_migrations"].sort());
    expect(uncoveredTables(["a_new_table"])).toEqual(["a_new_table"]);
  });
});
