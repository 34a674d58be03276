/** The workspace schema, in order. Never edit a listed file: add the next one. */
import init from "../../migrations/0001_init.sql";
import graph from "../../migrations/0002_graph.sql";
import type { Migration } from "./migrate";

export const WORKSPACE_MIGRATIONS: readonly Migration[] = [
  { id: 1, name: "init", sql: init },
  { id: 2, name: "graph", sql: graph },
];
