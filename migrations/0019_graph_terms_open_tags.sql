-- 0019_graph_terms_open_tags: the term index (0017) gains `og:<tag>`, an open card with that tag, so
-- "the open cards of a step" (a task's resume view, its strict checks) is one range however many closed
-- cards carry the step's tag (docs/storage.md "graph_terms"). The view that names every version's terms
-- gets the new term; the writes' triggers read the view, so every write from here on indexes it. The
-- versions written before are indexed again by the object's backfill (graph-terms-backfill.store.ts):
-- its mark is set to the newest seq, so until it is done the reads serve what lies below the mark by
-- the graph's own scans, exactly, as after 0017. Terms a version has already are kept (INSERT OR IGNORE).
DROP VIEW graph_version_terms;

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
  WHERE v.kind = 'node' AND v.deleted = 0 AND v.tags_json IS NOT NULL AND t.type = 'text'
  UNION ALL
  SELECT v.seq, v.branch_id, v.doc, v.superseded_seq, 'og:' || t.value || s.value
  FROM graph_versions v, json_each(v.tags_json) t,
    json_each(CASE WHEN json_type(v.meta_json, '$.lane') = 'text' AND v.meta_json ->> '$.lane' <> 'shared'
      THEN json_array('@' || (v.meta_json ->> '$.lane'), '~') ELSE '[""]' END) s
  WHERE v.kind = 'node' AND v.deleted = 0 AND v.tags_json IS NOT NULL AND t.type = 'text'
    AND v.node_type IN ('frame', 'hypothesis', 'question', 'test', 'evidence', 'decision', 'note', 'update')
    AND (v.status IS NULL OR v.status NOT IN ('done', 'closed', 'resolved', 'rejected', 'canceled', 'superseded'));

DELETE FROM workspace_meta WHERE key = 'graph_terms_backfill';
INSERT INTO workspace_meta (key, value)
  SELECT 'graph_terms_backfill', CAST(max(seq) AS TEXT) FROM graph_versions HAVING max(seq) IS NOT NULL;
