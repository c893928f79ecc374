"""The levy charges (docs/rules/levy.md, LV-3) are history as the journal is: UPDATE, DELETE and
TRUNCATE refused in the database, by 0002's function, which names the statement and the table.

The SQL beside this file (0011_levy_charges_append_only.<vendor>[.reverse].sql) is run by
establishment.sql_scripts; docs/security.md says who may still write what.
"""

from __future__ import annotations

from establishment.sql_scripts import sql_script_migration

Migration = sql_script_migration(__file__, [("tables", "0010_levy_charges")])
