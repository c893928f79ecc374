"""The table's history is append-only in the database too: UPDATE and DELETE are refused on
the journal (`tables_tableevent`), the settled coups and the register of bankers, as on the
ledger (ledger/migrations/0002). A correction is a new row (an undo, a void), never an edit.
"""

from __future__ import annotations

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

TABLES = ("tables_tableevent", "tables_coup", "tables_banktenure", "casino_auditentry")

POSTGRESQL_FUNCTION = """
CREATE OR REPLACE FUNCTION tables_history_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% on % refused: the table''s history is append-only', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$
"""


def _statements(vendor: str, *, reverse: bool) -> list[str]:
    statements: list[str] = []
    if vendor == "postgresql" and not reverse:
        statements.append(POSTGRESQL_FUNCTION)
    for table in TABLES:
        for operation in ("UPDATE", "DELETE"):
            name = f"{table}_no_{operation.lower()}"
            if reverse:
                on = f" ON {table}" if vendor == "postgresql" else ""
                statements.append(f"DROP TRIGGER IF EXISTS {name}{on}")
            elif vendor == "postgresql":
                statements.append(
                    f"CREATE TRIGGER {name} BEFORE {operation} ON {table} "
                    "FOR EACH ROW EXECUTE FUNCTION tables_history_refuse_change()"
                )
            else:
                statements.append(
                    f"CREATE TRIGGER {name} BEFORE {operation} ON {table} BEGIN "
                    f"SELECT RAISE(ABORT, '{operation} on {table} refused: "
                    "the table''s history is append-only'); END"
                )
    if vendor == "postgresql" and reverse:
        statements.append("DROP FUNCTION IF EXISTS tables_history_refuse_change()")
    return statements


def _run(schema_editor: BaseDatabaseSchemaEditor, *, reverse: bool) -> None:
    vendor = schema_editor.connection.vendor
    if vendor not in ("postgresql", "sqlite"):
        raise RuntimeError(
            f"The history triggers are written for PostgreSQL and SQLite, not {vendor}."
        )
    for statement in _statements(vendor, reverse=reverse):
        schema_editor.execute(statement, params=None)


def forwards(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _run(schema_editor, reverse=False)


def backwards(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _run(schema_editor, reverse=True)


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0002_table_journal"),
        ("casino", "0003_audit_entry"),
    ]

    operations = [migrations.RunPython(forwards, backwards, elidable=False)]
