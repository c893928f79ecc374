"""TRUNCATE of the desk's alerts, acknowledgements and re-audits is refused in the database
too, as the row triggers of 0002 refuse UPDATE and DELETE (docs/security.md).

The SQL beside this file (0003_refuse_truncate.<vendor>[.reverse].sql) is run by
establishment.sql_scripts.
"""

from __future__ import annotations

from establishment.sql_scripts import sql_script_migration

Migration = sql_script_migration(
    __file__, [("audit", "0002_append_only"), ("establishment", "0008_refuse_truncate")]
)
