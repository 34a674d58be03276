-- 0014_graph_node_text: a trigram index over the id, title and text of live node versions, for
-- graph_query's `text` filter (docs/storage.md, "Graph"; src/capabilities/graph/graph-text-search.store.ts).

-- One row per live node version (rowid = its seq): edges and tombstones are not indexed. External
-- content: the text stays in graph_versions and only the index is stored. The trigram tokenizer folds
-- case and finds any substring of 3 or more characters, so a text search asks the index for the versions
-- that contain the text, keeps those that are their key's effective version in the branch's view, and
-- checks the text again on them. No column sizes: nothing ranks the matches.
CREATE VIRTUAL TABLE graph_node_text USING fts5(
  key, title, text,
  content = 'graph_versions', content_rowid = 'seq',
  tokenize = 'trigram', columnsize = 0
);

-- Kept in step inside the transaction of the write, as graph_heads is: no writer can forget it.
CREATE TRIGGER graph_node_text_insert AFTER INSERT ON graph_versions
  WHEN NEW.kind = 'node' AND NEW.deleted = 0
BEGIN
  INSERT INTO graph_node_text (rowid, key, title, text) VALUES (NEW.seq, NEW.key, NEW.title, NEW.text);
END;

-- Versions are deleted only with their branch (branch_delete) or by an abandoned restore.
CREATE TRIGGER graph_node_text_delete AFTER DELETE ON graph_versions
  WHEN OLD.kind = 'node' AND OLD.deleted = 0
BEGIN
  INSERT INTO graph_node_text (graph_node_text, rowid, key, title, text) VALUES ('delete', OLD.seq, OLD.key, OLD.title, OLD.text);
END;

-- An external-content index removes a row by the values it was indexed with, so those never change
-- (no writer changes them: a new state is a new version; only superseded_seq is ever updated).
CREATE TRIGGER graph_node_text_fixed BEFORE UPDATE OF kind, key, title, text, deleted ON graph_versions
BEGIN
  SELECT RAISE(ABORT, 'a graph version''s kind, key, title, text and deleted flag never change');
END;

-- The versions written before this migration.
INSERT INTO graph_node_text (rowid, key, title, text)
  SELECT seq, key, title, text FROM graph_versions WHERE kind = 'node' AND deleted = 0;
