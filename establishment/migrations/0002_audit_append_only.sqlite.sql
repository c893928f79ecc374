-- The audit log is append-only in the database too: UPDATE and DELETE are refused.

CREATE TRIGGER establishment_auditentry_no_update BEFORE UPDATE ON establishment_auditentry
BEGIN
    SELECT RAISE(ABORT, 'UPDATE on establishment_auditentry refused: the audit log is append-only');
END;

CREATE TRIGGER establishment_auditentry_no_delete BEFORE DELETE ON establishment_auditentry
BEGIN
    SELECT RAISE(ABORT, 'DELETE on establishment_auditentry refused: the audit log is append-only');
END;
