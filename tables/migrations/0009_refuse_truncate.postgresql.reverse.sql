-- TRUNCATE of the table's history allowed again; the voids' row triggers removed.

SELECT casino_history_unprotect(tbl, tbl IN ('tables_voidrequest', 'tables_voiddecision'))
FROM unnest(ARRAY[
    'tables_tableevent', 'tables_coup', 'tables_banktenure', 'tables_voidrequest',
    'tables_voiddecision'
]) AS tbl;
