-- The audit log is append-only in the database too: UPDATE and DELETE are refused.

CREATE OR REPLACE FUNCTION establishment_audit_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% on % refused: the audit log is append-only', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$;

CREATE TRIGGER establishment_auditentry_no_update BEFORE UPDATE ON establishment_auditentry
    FOR EACH ROW EXECUTE FUNCTION establishment_audit_refuse_change();

CREATE TRIGGER establishment_auditentry_no_delete BEFORE DELETE ON establishment_auditentry
    FOR EACH ROW EXECUTE FUNCTION establishment_audit_refuse_change();
