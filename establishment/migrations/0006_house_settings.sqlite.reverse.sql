-- The house's settings: the append-only triggers removed.

DROP TRIGGER IF EXISTS establishment_housesettings_no_update;

DROP TRIGGER IF EXISTS establishment_housesettings_no_delete;
