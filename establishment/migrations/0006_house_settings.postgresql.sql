-- The house's settings are append-only in the database too: UPDATE and DELETE are refused (a
-- change is a new version).

CREATE OR REPLACE FUNCTION establishment_house_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% on % refused: the house''s settings are append-only', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$;

CREATE TRIGGER establishment_housesettings_no_update BEFORE UPDATE ON establishment_housesettings
    FOR EACH ROW EXECUTE FUNCTION establishment_house_refuse_change();

CREATE TRIGGER establishment_housesettings_no_delete BEFORE DELETE ON establishment_housesettings
    FOR EACH ROW EXECUTE FUNCTION establishment_house_refuse_change();
