-- Signed registers and their signatures are append-only in the database too: UPDATE and DELETE
-- are refused (a correction is a rectification, a new version).

CREATE OR REPLACE FUNCTION reports_register_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% on % refused: a signed register is never changed', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$;

CREATE TRIGGER reports_register_no_update BEFORE UPDATE ON reports_register
    FOR EACH ROW EXECUTE FUNCTION reports_register_refuse_change();

CREATE TRIGGER reports_register_no_delete BEFORE DELETE ON reports_register
    FOR EACH ROW EXECUTE FUNCTION reports_register_refuse_change();

CREATE TRIGGER reports_registersignature_no_update BEFORE UPDATE ON reports_registersignature
    FOR EACH ROW EXECUTE FUNCTION reports_register_refuse_change();

CREATE TRIGGER reports_registersignature_no_delete BEFORE DELETE ON reports_registersignature
    FOR EACH ROW EXECUTE FUNCTION reports_register_refuse_change();
