"""Database triggers for the ledger's invariants (docs/ledger.md).

The SQL lives beside this file, one script per database and direction:
0002_ledger_triggers.<vendor>[.reverse].sql. Other databases are not supported.
"""

from __future__ import annotations

from pathlib import Path

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

HERE = Path(__file__).resolve().parent
SUPPORTED_VENDORS = {"postgresql", "sqlite"}


def _run_script(schema_editor: BaseDatabaseSchemaEditor, *, reverse: bool) -> None:
    vendor = schema_editor.connection.vendor
    if vendor not in SUPPORTED_VENDORS:
        raise RuntimeError(
            f"The ledger's triggers are written for PostgreSQL and SQLite, not {vendor}."
        )
    suffix = ".reverse.sql" if reverse else ".sql"
    script = (HERE / f"0002_ledger_triggers.{vendor}{suffix}").read_text(encoding="utf-8")
    for statement in schema_editor.connection.ops.prepare_sql_script(script):
        schema_editor.execute(statement, params=None)


def forwards(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _run_script(schema_editor, reverse=False)


def backwards(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _run_script(schema_editor, reverse=True)


class Migration(migrations.Migration):
    dependencies = [("ledger", "0001_initial")]

    operations = [migrations.RunPython(forwards, backwards, elidable=False)]
