-- SQLite has no TRUNCATE. The voids asked and decided are history as the journal is (0002):
-- UPDATE and DELETE refused.

CREATE TRIGGER tables_voidrequest_no_update BEFORE UPDATE ON tables_voidrequest
BEGIN
    SELECT RAISE(ABORT, 'UPDATE on tables_voidrequest refused: the table''s history is append-only');
END;

CREATE TRIGGER tables_voidrequest_no_delete BEFORE DELETE ON tables_voidrequest
BEGIN
    SELECT RAISE(ABORT, 'DELETE on tables_voidrequest refused: the table''s history is append-only');
END;

CREATE TRIGGER tables_voiddecision_no_update BEFORE UPDATE ON tables_voiddecision
BEGIN
    SELECT RAISE(ABORT, 'UPDATE on tables_voiddecision refused: the table''s history is append-only');
END;

CREATE TRIGGER tables_voiddecision_no_delete BEFORE DELETE ON tables_voiddecision
BEGIN
    SELECT RAISE(ABORT, 'DELETE on tables_voiddecision refused: the table''s history is append-only');
END;
