-- 0006_cards: the counter behind automatic card ids (CARD-1, CARD-2, …). Cards themselves are graph
-- nodes and trace notes (docs/think.md); they need no table of their own.
INSERT INTO clocks (name, value) VALUES ('card', 0);
