-- 0015_journal_clock: a journal row moves the tick clock and the change count itself, so appending one
-- is a single statement (src/workspace/journal.ts reads the next tick from `clocks` in the INSERT).
-- A Durable Object pays a fixed cost per statement, and every journaled write paid three (docs/storage.md).

-- max(): rows restored from an export carry their own ticks, in any order; the clock never goes back.
-- change_count: see src/workspace/meta.ts (an export page refuses to continue once it moved).
CREATE TRIGGER journal_moves_clocks AFTER INSERT ON journal
BEGIN
  UPDATE clocks SET value = max(value, NEW.tick) WHERE name = 'tick';
  INSERT INTO workspace_meta (key, value) VALUES ('change_count', '1')
    ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT);
END;
