-- Back to before the trigram search. The extensions stay: other objects (the administrator's)
-- may use them, and creating them again forwards is a no-op.

DROP INDEX IF EXISTS casino_exclusion_reference;
DROP INDEX IF EXISTS casino_exclusion_name_prefix;
DROP INDEX IF EXISTS casino_exclusion_name_trgm;
DROP INDEX IF EXISTS casino_player_document_trgm;
DROP INDEX IF EXISTS casino_player_member_trgm;
DROP INDEX IF EXISTS casino_player_name_prefix;
DROP INDEX IF EXISTS casino_player_name_trgm;
ALTER TABLE establishment_player DROP COLUMN IF EXISTS name_folded;
DROP FUNCTION IF EXISTS casino_fold(text);
