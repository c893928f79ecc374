-- The table's history is append-only in the database too: UPDATE and DELETE are refused on the
-- journal, the settled coups and the register of bankers. A correction is a new row (an undo, a
-- void), never an edit.

CREATE TRIGGER tables_tableevent_no_update BEFORE UPDATE ON tables_tableevent
BEGIN
    SELECT RAISE(ABORT, 'UPDATE on tables_tableevent refused: the table''s history is append-only');
END;

CREATE TRIGGER tables_tableevent_no_delete BEFORE DELETE ON tables_tableevent
BEGIN
    SELECT RAISE(ABORT, 'DELETE on tables_tableevent refused: the table''s history is append-only');
END;

CREATE TRIGGER tables_coup_no_update BEFORE UPDATE ON tables_coup
BEGIN
    SELECT RAISE(ABORT, 'UPDATE on tables_coup refused: the table''s history is append-only');
END;

CREATE TRIGGER tables_coup_no_delete BEFORE DELETE ON tables_coup
BEGIN
    SELECT RAISE(ABORT, 'DELETE on tables_coup refused: the table''s history is append-only');
END;

CREATE TRIGGER tables_banktenure_no_update BEFORE UPDATE ON tables_banktenure
BEGIN
    SELECT RAISE(ABORT, 'UPDATE on tables_banktenure refused: the table''s history is append-only');
END;

CREATE TRIGGER tables_banktenure_no_delete BEFORE DELETE ON tables_banktenure
BEGIN
    SELECT RAISE(ABORT, 'DELETE on tables_banktenure refused: the table''s history is append-only');
END;
