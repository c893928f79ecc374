-- The table's history is append-only in the database too: UPDATE and DELETE are refused on the
-- journal, the settled coups and the register of bankers. A correction is a new row (an undo, a
-- void), never an edit.

CREATE OR REPLACE FUNCTION tables_history_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% on % refused: the table''s history is append-only', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$;

CREATE TRIGGER tables_tableevent_no_update BEFORE UPDATE ON tables_tableevent
    FOR EACH ROW EXECUTE FUNCTION tables_history_refuse_change();

CREATE TRIGGER tables_tableevent_no_delete BEFORE DELETE ON tables_tableevent
    FOR EACH ROW EXECUTE FUNCTION tables_history_refuse_change();

CREATE TRIGGER tables_coup_no_update BEFORE UPDATE ON tables_coup
    FOR EACH ROW EXECUTE FUNCTION tables_history_refuse_change();

CREATE TRIGGER tables_coup_no_delete BEFORE DELETE ON tables_coup
    FOR EACH ROW EXECUTE FUNCTION tables_history_refuse_change();

CREATE TRIGGER tables_banktenure_no_update BEFORE UPDATE ON tables_banktenure
    FOR EACH ROW EXECUTE FUNCTION tables_history_refuse_change();

CREATE TRIGGER tables_banktenure_no_delete BEFORE DELETE ON tables_banktenure
    FOR EACH ROW EXECUTE FUNCTION tables_history_refuse_change();
