-- SQLite has no TRUNCATE. The counts of the cagnotte and the reports' sign-offs are append-only
-- as the registers are (0003): UPDATE and DELETE refused.

CREATE TRIGGER reports_countedcagnotte_no_update BEFORE UPDATE ON reports_countedcagnotte
BEGIN
    SELECT RAISE(ABORT, 'UPDATE on reports_countedcagnotte refused: the counts and sign-offs of a report are append-only');
END;

CREATE TRIGGER reports_countedcagnotte_no_delete BEFORE DELETE ON reports_countedcagnotte
BEGIN
    SELECT RAISE(ABORT, 'DELETE on reports_countedcagnotte refused: the counts and sign-offs of a report are append-only');
END;

CREATE TRIGGER reports_reportsignoff_no_update BEFORE UPDATE ON reports_reportsignoff
BEGIN
    SELECT RAISE(ABORT, 'UPDATE on reports_reportsignoff refused: the counts and sign-offs of a report are append-only');
END;

CREATE TRIGGER reports_reportsignoff_no_delete BEFORE DELETE ON reports_reportsignoff
BEGIN
    SELECT RAISE(ABORT, 'DELETE on reports_reportsignoff refused: the counts and sign-offs of a report are append-only');
END;
