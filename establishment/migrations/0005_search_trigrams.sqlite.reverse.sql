-- Back to before the search's index.

DROP INDEX IF EXISTS casino_player_name_nocase;
