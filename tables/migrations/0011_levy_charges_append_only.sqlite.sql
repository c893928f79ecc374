-- SQLite has no TRUNCATE. The levy charges refuse UPDATE and DELETE as the journal does (0002).

CREATE TRIGGER tables_levycharge_no_update BEFORE UPDATE ON tables_levycharge
BEGIN
    SELECT RAISE(ABORT, 'UPDATE on tables_levycharge refused: the table''s history is append-only');
END;

CREATE TRIGGER tables_levycharge_no_delete BEFORE DELETE ON tables_levycharge
BEGIN
    SELECT RAISE(ABORT, 'DELETE on tables_levycharge refused: the table''s history is append-only');
END;
