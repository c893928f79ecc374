-- TRUNCATE of the registers allowed again; the counts' and sign-offs' triggers removed.

SELECT casino_history_unprotect(tbl, tbl IN ('reports_countedcagnotte', 'reports_reportsignoff'))
FROM unnest(ARRAY[
    'reports_register', 'reports_registersignature', 'reports_countedcagnotte',
    'reports_reportsignoff'
]) AS tbl;

DROP FUNCTION IF EXISTS reports_history_refuse_change();
