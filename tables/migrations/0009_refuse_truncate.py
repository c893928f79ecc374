"""TRUNCATE of the table's history (the journal, the coups, the register of bankers, the voids
asked and decided) is refused in the database too, and the voids asked and decided refuse
UPDATE and DELETE as the rest of the history does.

The SQL beside this file (0009_refuse_truncate.<vendor>[.reverse].sql) is run by
establishment.sql_scripts; docs/security.md says who may still write what.
"""

from __future__ import annotations

from establishment.sql_scripts import sql_script_migration

Migration = sql_script_migration(
    __file__, [("tables", "0008_journal_chain"), ("establishment", "0008_refuse_truncate")]
)
