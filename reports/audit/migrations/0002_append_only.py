"""The desk's alerts, acknowledgements and re-audits are append-only in the database too (the
SQL beside this file)."""

from __future__ import annotations

from django.db import migrations

from establishment.sql_scripts import sql_script_steps

triggers_on, triggers_off = sql_script_steps(__file__)


class Migration(migrations.Migration):
    dependencies = [("audit", "0001_initial")]

    operations = [migrations.RunPython(triggers_on, triggers_off)]
