-- The audit log is append-only in the database too: UPDATE and DELETE are refused.

DROP TRIGGER IF EXISTS establishment_auditentry_no_update;

DROP TRIGGER IF EXISTS establishment_auditentry_no_delete;
