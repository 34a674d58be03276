-- 0011_anchors: the meaning map (docs/knowledge.md "Anchors", docs/storage.md "Anchor tables").
-- An anchor `a:<slug>` names a meaning, not a path. Slugs are stored without the `a:` prefix.

-- Registered anchors. `depends_on_json` is a sorted JSON array of slugs; `refs_json` a sorted JSON array
-- of refs (`path:<repo-relative>` refs are also bindings in anchor_paths).
CREATE TABLE anchors (
  slug TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('boundary', 'component', 'contract', 'data', 'test-surface', 'ops')),
  description TEXT,
  refs_json TEXT NOT NULL,
  parent TEXT,
  depends_on_json TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active', 'deprecated')),
  origin TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL,
  updated_at_ms INTEGER NOT NULL,
  created_by TEXT NOT NULL
) STRICT, WITHOUT ROWID;
-- Children of an anchor (rename and merge rewrite `parent`).
CREATE INDEX anchors_by_parent ON anchors (parent) WHERE parent IS NOT NULL;

-- Old ids (renamed or merged anchors, declared aliases) and the anchor each now stands for.
CREATE TABLE anchor_aliases (
  alias TEXT PRIMARY KEY,
  anchor TEXT NOT NULL,
  origin TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX anchor_aliases_by_anchor ON anchor_aliases (anchor, alias);

-- `path:<repo-relative>` bindings: which anchor a repository path (or directory prefix) belongs to.
CREATE TABLE anchor_paths (
  path TEXT NOT NULL,
  anchor TEXT NOT NULL,
  PRIMARY KEY (path, anchor)
) STRICT, WITHOUT ROWID;
CREATE INDEX anchor_paths_by_anchor ON anchor_paths (anchor, path);

-- One row per card tagged `a:<slug>` (any branch, any graph doc), written by every card write. The slug
-- is the tag as written (renames keep old tags: reads expand an anchor to its aliases).
CREATE TABLE anchor_links (
  anchor TEXT NOT NULL,
  branch_id TEXT NOT NULL,
  graph_doc TEXT NOT NULL,
  card_id TEXT NOT NULL,
  card_type TEXT NOT NULL,
  lane TEXT NOT NULL,
  last_seq INTEGER NOT NULL,
  last_ts_ms INTEGER NOT NULL,
  PRIMARY KEY (anchor, branch_id, graph_doc, card_id)
) STRICT, WITHOUT ROWID;
-- An anchor's cards, newest first (snapshot).
CREATE INDEX anchor_links_recent ON anchor_links (anchor, last_seq);
-- The links of one card (rewritten on each write of the card).
CREATE INDEX anchor_links_by_card ON anchor_links (branch_id, graph_doc, card_id);
