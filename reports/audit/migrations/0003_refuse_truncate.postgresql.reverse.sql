-- TRUNCATE of the desk's rows allowed again (the row triggers of 0002 stay).

SELECT casino_history_unprotect(tbl, false)
FROM unnest(ARRAY['audit_alert', 'audit_acknowledgement', 'audit_reaudit']) AS tbl;
