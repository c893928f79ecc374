-- The auditor's desk's rows are append-only in the database too: UPDATE and DELETE are refused.

CREATE TRIGGER audit_alert_no_update BEFORE UPDATE ON audit_alert
BEGIN
    SELECT RAISE(ABORT, 'UPDATE on audit_alert refused: the desk''s rows are never changed');
END;

CREATE TRIGGER audit_alert_no_delete BEFORE DELETE ON audit_alert
BEGIN
    SELECT RAISE(ABORT, 'DELETE on audit_alert refused: the desk''s rows are never changed');
END;

CREATE TRIGGER audit_acknowledgement_no_update BEFORE UPDATE ON audit_acknowledgement
BEGIN
    SELECT RAISE(ABORT, 'UPDATE on audit_acknowledgement refused: the desk''s rows are never changed');
END;

CREATE TRIGGER audit_acknowledgement_no_delete BEFORE DELETE ON audit_acknowledgement
BEGIN
    SELECT RAISE(ABORT, 'DELETE on audit_acknowledgement refused: the desk''s rows are never changed');
END;

CREATE TRIGGER audit_reaudit_no_update BEFORE UPDATE ON audit_reaudit
BEGIN
    SELECT RAISE(ABORT, 'UPDATE on audit_reaudit refused: the desk''s rows are never changed');
END;

CREATE TRIGGER audit_reaudit_no_delete BEFORE DELETE ON audit_reaudit
BEGIN
    SELECT RAISE(ABORT, 'DELETE on audit_reaudit refused: the desk''s rows are never changed');
END;
