-- 0017_graph_terms: the term index of live node versions, which makes every read that selects nodes by
-- type, status, "open", tags or lane exact at any size (docs/storage.md, "Graph: the term index";
-- src/capabilities/graph/graph-terms.store.ts reads it).

-- The terms of a live node version (kind 'node', not deleted): what a filter asks of it, one row each.
--   card | node        every version: a card type (frame … update) or any other node type
--   t:<type>           its type
--   s:<status>         its status, when it has one
--   o:<type>, open     a card that is open (no status, or one not in the closed list below)
--   blocker            a card marked blocked, or a question whose status is 'open'
--   cg:<tag>, ng:<tag> each tag of a card, of another node
-- A version in an agent's lane (meta.lane a text other than 'shared') has each term twice, suffixed
-- '@<lane>' and '~'; a version in the shared lane has it bare. So "the shared lane and mine" is the
-- ranges `term` and `term@agent/<me>`, and "every lane" is `term` and `term~`: two ranges either way.
-- The card types and the closed statuses are those of src/capabilities/think/cards.parse.ts and
-- engine.model.ts; test/graph-terms.test.ts fails while they differ from this list.
CREATE VIEW graph_version_terms (seq, branch_id, doc, superseded_seq, term) AS
  SELECT v.seq, v.branch_id, v.doc, v.superseded_seq, t.value || s.value
  FROM graph_versions v,
    json_each(json_array(
      CASE WHEN v.node_type IN ('frame', 'hypothesis', 'question', 'test', 'evidence', 'decision', 'note', 'update') THEN 'card' ELSE 'node' END,
      't:' || v.node_type,
      's:' || v.status,
      CASE WHEN v.node_type IN ('frame', 'hypothesis', 'question', 'test', 'evidence', 'decision', 'note', 'update')
        AND (v.status IS NULL OR v.status NOT IN ('done', 'closed', 'resolved', 'rejected', 'canceled', 'superseded')) THEN 'o:' || v.node_type END,
      CASE WHEN v.node_type IN ('frame', 'hypothesis', 'question', 'test', 'evidence', 'decision', 'note', 'update')
        AND (v.status IS NULL OR v.status NOT IN ('done', 'closed', 'resolved', 'rejected', 'canceled', 'superseded')) THEN 'open' END,
      CASE WHEN v.node_type IN ('frame', 'hypothesis', 'question', 'test', 'evidence', 'decision', 'note', 'update')
        AND (v.status = 'blocked' OR (v.node_type = 'question' AND v.status = 'open')) THEN 'blocker' END)) t,
    json_each(CASE WHEN json_type(v.meta_json, '$.lane') = 'text' AND v.meta_json ->> '$.lane' <> 'shared'
      THEN json_array('@' || (v.meta_json ->> '$.lane'), '~') ELSE '[""]' END) s
  WHERE v.kind = 'node' AND v.deleted = 0 AND t.type = 'text'
  UNION ALL
  SELECT v.seq, v.branch_id, v.doc, v.superseded_seq,
    CASE WHEN v.node_type IN ('frame', 'hypothesis', 'question', 'test', 'evidence', 'decision', 'note', 'update') THEN 'cg:' ELSE 'ng:' END
      || t.value || s.value
  FROM graph_versions v, json_each(v.tags_json) t,
    json_each(CASE WHEN json_type(v.meta_json, '$.lane') = 'text' AND v.meta_json ->> '$.lane' <> 'shared'
      THEN json_array('@' || (v.meta_json ->> '$.lane'), '~') ELSE '[""]' END) s
  WHERE v.kind = 'node' AND v.deleted = 0 AND v.tags_json IS NOT NULL AND t.type = 'text';

-- One row per term of each version a view may need, by who holds it:
--   part 0, holder = the version's branch: the branch's current versions (superseded_seq IS NULL);
--   part 1, holder = a child branch C of the version's branch: a version of C's base that was current
--     at C's fork (seq <= C.base_seq < superseded_seq), kept when the base superseded it.
-- So a source (branch B as of cutoff c, seen through its child C on the chain) is exactly
-- (part 0 of B, seq <= c) + (part 1 of C), and each is a range per term, newest first. Rows of
-- superseded versions no fork saw are not kept: the index holds what some view can see.
CREATE TABLE graph_terms (
  holder TEXT NOT NULL,
  part INTEGER NOT NULL CHECK (part IN (0, 1)),
  doc TEXT NOT NULL,
  term TEXT NOT NULL,
  seq INTEGER NOT NULL,
  PRIMARY KEY (holder, part, doc, term, seq)
) STRICT, WITHOUT ROWID;

-- The children of a branch forked at or after a seq (which forks saw a version that is superseded now).
CREATE INDEX branches_by_base_seq ON branches (base_id, base_seq);

-- Kept in step inside the transaction of each write, as graph_heads is: no writer can forget it.
CREATE TRIGGER graph_terms_insert AFTER INSERT ON graph_versions
  WHEN NEW.kind = 'node' AND NEW.deleted = 0
BEGIN
  INSERT OR IGNORE INTO graph_terms (holder, part, doc, term, seq)
    SELECT NEW.branch_id, 0, NEW.doc, t.term, NEW.seq FROM graph_version_terms t
    WHERE t.seq = NEW.seq AND NEW.superseded_seq IS NULL;
  -- A restored version arrives superseded already: the forks of its branch that saw it keep it.
  INSERT OR IGNORE INTO graph_terms (holder, part, doc, term, seq)
    SELECT c.id, 1, NEW.doc, t.term, NEW.seq FROM branches c INDEXED BY branches_by_base_seq CROSS JOIN graph_version_terms t
    WHERE NEW.superseded_seq IS NOT NULL AND c.base_id = NEW.branch_id AND c.base_seq >= NEW.seq
      AND c.base_seq < NEW.superseded_seq AND t.seq = NEW.seq;
END;

-- A version stops being current (the head trigger of 0002 sets superseded_seq): its branch's rows go,
-- and each fork of the branch made while it was current keeps it.
CREATE TRIGGER graph_terms_superseded AFTER UPDATE OF superseded_seq ON graph_versions
  WHEN OLD.superseded_seq IS NULL AND NEW.superseded_seq IS NOT NULL AND NEW.kind = 'node' AND NEW.deleted = 0
BEGIN
  DELETE FROM graph_terms WHERE holder = NEW.branch_id AND part = 0 AND doc = NEW.doc AND seq = NEW.seq
    AND term IN (SELECT t.term FROM graph_version_terms t WHERE t.seq = NEW.seq);
  INSERT OR IGNORE INTO graph_terms (holder, part, doc, term, seq)
    SELECT c.id, 1, NEW.doc, t.term, NEW.seq FROM branches c INDEXED BY branches_by_base_seq CROSS JOIN graph_version_terms t
    WHERE c.base_id = NEW.branch_id AND c.base_seq >= NEW.seq AND c.base_seq < NEW.superseded_seq AND t.seq = NEW.seq;
END;

-- Versions are deleted only with their branch (branch_delete) or by an abandoned restore, which deletes
-- the branch too: its rows of both parts go with it.
CREATE TRIGGER graph_terms_branch_delete AFTER DELETE ON branches
BEGIN
  DELETE FROM graph_terms WHERE holder = OLD.id;
END;

-- The terms are read from these columns, so they never change (a new state is a new version).
CREATE TRIGGER graph_terms_fixed BEFORE UPDATE OF seq, branch_id, doc, node_type, status, tags_json, meta_json ON graph_versions
BEGIN
  SELECT RAISE(ABORT, 'a graph version''s branch, doc, type, status, tags and meta never change');
END;

-- The versions written before this migration are indexed after the object starts, a batch at a time
-- (src/capabilities/graph/graph-terms-backfill.store.ts): this mark is the highest seq not indexed yet.
-- Until a batch passes a version, reads find it by scanning the graph instead, so they are exact from
-- the first call.
INSERT INTO workspace_meta (key, value)
  SELECT 'graph_terms_backfill', CAST(max(seq) AS TEXT) FROM graph_versions HAVING max(seq) IS NOT NULL;
