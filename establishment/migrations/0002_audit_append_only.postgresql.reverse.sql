-- The audit log is append-only in the database too: UPDATE and DELETE are refused.

DROP TRIGGER IF EXISTS establishment_auditentry_no_update ON establishment_auditentry;

DROP TRIGGER IF EXISTS establishment_auditentry_no_delete ON establishment_auditentry;

DROP FUNCTION IF EXISTS establishment_audit_refuse_change();
