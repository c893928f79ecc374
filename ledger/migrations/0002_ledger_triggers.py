"""Database triggers for the ledger's invariants (docs/ledger.md): the zero sum of every
transaction, append-only entries and transactions.

The SQL lives beside this file, one script per database and direction
(0002_ledger_triggers.<vendor>[.reverse].sql, run by establishment.sql_scripts).
"""

from __future__ import annotations

from django.db import migrations

from establishment.sql_scripts import sql_script_steps

forwards, backwards = sql_script_steps(__file__)


class Migration(migrations.Migration):
    dependencies = [("ledger", "0001_initial")]

    operations = [migrations.RunPython(forwards, backwards, elidable=False)]
