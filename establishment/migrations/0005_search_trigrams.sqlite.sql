-- SQLite has no trigrams: the search falls back to prefix and contains matches
-- (establishment.selectors), helped by a case-insensitive index on the name.

CREATE INDEX casino_player_name_nocase ON establishment_player (name COLLATE NOCASE);
