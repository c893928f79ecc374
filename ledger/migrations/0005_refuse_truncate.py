"""TRUNCATE of the books (transactions and entries) is refused in the database too: a statement
trigger, as the row triggers refuse UPDATE and DELETE (docs/ledger.md, invariant 3).

The SQL beside this file (0005_refuse_truncate.<vendor>[.reverse].sql) is run by
establishment.sql_scripts; docs/security.md says who may still write what.
"""

from __future__ import annotations

from establishment.sql_scripts import sql_script_migration

Migration = sql_script_migration(
    __file__, [("ledger", "0004_transaction_chain"), ("establishment", "0008_refuse_truncate")]
)
