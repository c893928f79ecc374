-- TRUNCATE of the audit log and of the house's settings allowed again (their row triggers stay).

SELECT casino_history_unprotect(tbl, false)
FROM unnest(ARRAY['establishment_auditentry', 'establishment_housesettings']) AS tbl;

DROP FUNCTION IF EXISTS casino_history_unprotect(text, boolean);

DROP FUNCTION IF EXISTS casino_history_protect(text, text, boolean);
