-- The house's settings: the append-only triggers removed.

DROP TRIGGER IF EXISTS establishment_housesettings_no_update ON establishment_housesettings;

DROP TRIGGER IF EXISTS establishment_housesettings_no_delete ON establishment_housesettings;

DROP FUNCTION IF EXISTS establishment_house_refuse_change();
