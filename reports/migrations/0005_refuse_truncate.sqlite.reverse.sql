-- The counts' and sign-offs' row triggers removed.

DROP TRIGGER IF EXISTS reports_countedcagnotte_no_update;

DROP TRIGGER IF EXISTS reports_countedcagnotte_no_delete;

DROP TRIGGER IF EXISTS reports_reportsignoff_no_update;

DROP TRIGGER IF EXISTS reports_reportsignoff_no_delete;
