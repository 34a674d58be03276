-- 0008_reasoning_mode: strict reasoning per plan or task (docs/tasks.md "Strict reasoning"). In strict
-- mode a step closes only with a tested hypothesis and a counter-argument among its cards, or with an
-- explicit, journaled override.
ALTER TABLE tasks ADD COLUMN reasoning_mode TEXT NOT NULL DEFAULT 'normal' CHECK (reasoning_mode IN ('normal', 'strict'));
