-- The auditor's desk's rows are append-only in the database too: UPDATE and DELETE are refused
-- (an alert is closed by an acknowledgement, a row of its own).

CREATE OR REPLACE FUNCTION audit_desk_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% on % refused: the desk''s rows are never changed', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$;

CREATE TRIGGER audit_alert_no_update BEFORE UPDATE ON audit_alert
    FOR EACH ROW EXECUTE FUNCTION audit_desk_refuse_change();

CREATE TRIGGER audit_alert_no_delete BEFORE DELETE ON audit_alert
    FOR EACH ROW EXECUTE FUNCTION audit_desk_refuse_change();

CREATE TRIGGER audit_acknowledgement_no_update BEFORE UPDATE ON audit_acknowledgement
    FOR EACH ROW EXECUTE FUNCTION audit_desk_refuse_change();

CREATE TRIGGER audit_acknowledgement_no_delete BEFORE DELETE ON audit_acknowledgement
    FOR EACH ROW EXECUTE FUNCTION audit_desk_refuse_change();

CREATE TRIGGER audit_reaudit_no_update BEFORE UPDATE ON audit_reaudit
    FOR EACH ROW EXECUTE FUNCTION audit_desk_refuse_change();

CREATE TRIGGER audit_reaudit_no_delete BEFORE DELETE ON audit_reaudit
    FOR EACH ROW EXECUTE FUNCTION audit_desk_refuse_change();
