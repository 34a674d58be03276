-- 0016_cursor_key: the workspace's own key for signing the opaque cursors it hands out (workspace_export),
-- made here from SQLite's randomblob so that it exists in every mode, dev included. It describes this
-- database, not its contents: never exported, never restored (INSTANCE_META_KEYS).
INSERT OR IGNORE INTO workspace_meta (key, value) VALUES ('cursor_key', lower(hex(randomblob(32))));
