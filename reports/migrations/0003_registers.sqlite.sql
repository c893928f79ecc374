-- Signed registers and their signatures are append-only in the database too: UPDATE and DELETE
-- are refused (a correction is a rectification, a new version).

CREATE TRIGGER reports_register_no_update BEFORE UPDATE ON reports_register
BEGIN
    SELECT RAISE(ABORT, 'UPDATE on reports_register refused: a signed register is never changed');
END;

CREATE TRIGGER reports_register_no_delete BEFORE DELETE ON reports_register
BEGIN
    SELECT RAISE(ABORT, 'DELETE on reports_register refused: a signed register is never changed');
END;

CREATE TRIGGER reports_registersignature_no_update BEFORE UPDATE ON reports_registersignature
BEGIN
    SELECT RAISE(ABORT, 'UPDATE on reports_registersignature refused: a signed register is never changed');
END;

CREATE TRIGGER reports_registersignature_no_delete BEFORE DELETE ON reports_registersignature
BEGIN
    SELECT RAISE(ABORT, 'DELETE on reports_registersignature refused: a signed register is never changed');
END;
