-- The table's history (0002) holds against TRUNCATE too, even the owner's, and the voids asked
-- and decided are history as the journal is: UPDATE and DELETE refused on them, TRUNCATE on all
-- five (casino_history_protect, establishment 0008), by 0002's function, which names the
-- statement and the table. A TRUNCATE ... CASCADE from a table they refer to (tables_table,
-- auth_user) is refused as well.

SELECT casino_history_protect(
    tbl, 'tables_history_refuse_change', tbl IN ('tables_voidrequest', 'tables_voiddecision')
)
FROM unnest(ARRAY[
    'tables_tableevent', 'tables_coup', 'tables_banktenure', 'tables_voidrequest',
    'tables_voiddecision'
]) AS tbl;
