-- The house's settings are append-only in the database too: UPDATE and DELETE are refused (a
-- change is a new version).

CREATE TRIGGER establishment_housesettings_no_update BEFORE UPDATE ON establishment_housesettings
BEGIN
    SELECT RAISE(ABORT, 'UPDATE on establishment_housesettings refused: the house''s settings are append-only');
END;

CREATE TRIGGER establishment_housesettings_no_delete BEFORE DELETE ON establishment_housesettings
BEGIN
    SELECT RAISE(ABORT, 'DELETE on establishment_housesettings refused: the house''s settings are append-only');
END;
