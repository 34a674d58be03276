-- 0003_graph_heads_by_key: the branches that hold a key, found from the key (docs/storage.md, "Graph").

-- One seek per key answers "does a nearer source see this key?" (instead of one primary-key probe per
-- nearer source), and a key-prefix range lists the edges leaving a node (edge keys are `from|rel|to`)
-- with one row per branch and key, however many versions the edge has.
CREATE INDEX graph_heads_by_key ON graph_heads (doc, kind, key, branch_id, first_seq);
