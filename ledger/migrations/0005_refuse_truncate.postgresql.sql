-- Invariant 3 (docs/ledger.md), append-only, holds against TRUNCATE too, even the owner's
-- (casino_history_protect, establishment 0008): the function of the row triggers (0002) names
-- the statement and the table. A TRUNCATE ... CASCADE from a table the books refer to
-- (auth_user, ledger_account) is refused as well.

SELECT casino_history_protect(tbl, 'ledger_refuse_change', false)
FROM unnest(ARRAY['ledger_transaction', 'ledger_entry']) AS tbl;
