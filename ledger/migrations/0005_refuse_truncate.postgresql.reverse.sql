-- TRUNCATE of the books allowed again (the row triggers of 0002 stay).

SELECT casino_history_unprotect(tbl, false)
FROM unnest(ARRAY['ledger_transaction', 'ledger_entry']) AS tbl;
