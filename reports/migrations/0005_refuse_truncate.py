"""TRUNCATE of the signed registers, their signatures, the counts of the cagnotte and the
reports' sign-offs is refused in the database too, and the counts and sign-offs refuse UPDATE
and DELETE as the registers do.

The SQL beside this file (0005_refuse_truncate.<vendor>[.reverse].sql) is run by
establishment.sql_scripts; docs/security.md says who may still write what.
"""

from __future__ import annotations

from establishment.sql_scripts import sql_script_migration

Migration = sql_script_migration(
    __file__, [("reports", "0004_register_archive"), ("establishment", "0008_refuse_truncate")]
)
