"""The audit log is append-only in the database too (UPDATE and DELETE refused).

The SQL lives beside this file, one script per database and direction
(0002_audit_append_only.<vendor>[.reverse].sql, run by establishment.sql_scripts).
"""

from __future__ import annotations

from django.db import migrations

from establishment.sql_scripts import sql_script_steps

forwards, backwards = sql_script_steps(__file__)


class Migration(migrations.Migration):
    dependencies = [("establishment", "0001_initial")]

    operations = [migrations.RunPython(forwards, backwards, elidable=False)]
