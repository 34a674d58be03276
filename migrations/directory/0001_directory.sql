-- Directory 0001: the deployment's list of workspaces and the summaries they push (docs/storage.md).
CREATE TABLE workspaces (
  name TEXT PRIMARY KEY,
  registered_at_ms INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL,
  tick INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  branches INTEGER NOT NULL,
  as_of_tick INTEGER NOT NULL
) STRICT;
