"""TRUNCATE of the audit log and of the house's settings is refused in the database too: a
statement trigger, as the row triggers refuse UPDATE and DELETE; and the two functions that
the other apps' migrations protect their history with (casino_history_protect).

The SQL beside this file (0008_refuse_truncate.<vendor>[.reverse].sql) is run by
establishment.sql_scripts; docs/security.md says who may still write what.
"""

from __future__ import annotations

from establishment.sql_scripts import sql_script_migration

Migration = sql_script_migration(__file__, [("establishment", "0007_audit_chain")])
