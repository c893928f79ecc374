-- The table's history is append-only in the database too: UPDATE and DELETE are refused on the
-- journal, the settled coups and the register of bankers. A correction is a new row (an undo, a
-- void), never an edit.

DROP TRIGGER IF EXISTS tables_tableevent_no_update;

DROP TRIGGER IF EXISTS tables_tableevent_no_delete;

DROP TRIGGER IF EXISTS tables_coup_no_update;

DROP TRIGGER IF EXISTS tables_coup_no_delete;

DROP TRIGGER IF EXISTS tables_banktenure_no_update;

DROP TRIGGER IF EXISTS tables_banktenure_no_delete;
