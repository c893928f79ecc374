"""Hand-written SQL run by migrations: one script per database and direction, beside the
migration that runs it (`<migration>.<vendor>.sql` and `<migration>.<vendor>.reverse.sql`).

The append-only triggers of the audit log, the table's history and the books are written this
way (docs/ledger.md); other databases than PostgreSQL and SQLite are refused.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

SUPPORTED_VENDORS = frozenset({"postgresql", "sqlite"})

Step = Callable[[StateApps, BaseDatabaseSchemaEditor], None]


def sql_script_run(
    migration_file: str, schema_editor: BaseDatabaseSchemaEditor, *, reverse: bool
) -> None:
    """Run the script of ``migration_file`` (its ``__file__``) for this database and direction."""
    vendor = schema_editor.connection.vendor
    if vendor not in SUPPORTED_VENDORS:
        raise RuntimeError(f"This SQL is written for PostgreSQL and SQLite, not {vendor}.")
    path = Path(migration_file).resolve()
    suffix = ".reverse.sql" if reverse else ".sql"
    script = path.with_name(f"{path.stem}.{vendor}{suffix}").read_text(encoding="utf-8")
    for statement in schema_editor.connection.ops.prepare_sql_script(script):
        schema_editor.execute(statement, params=None)


def sql_script_steps(migration_file: str) -> tuple[Step, Step]:
    """The forwards and backwards steps of a `RunPython` that runs the migration's scripts."""

    def forwards(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
        sql_script_run(migration_file, schema_editor, reverse=False)

    def backwards(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
        sql_script_run(migration_file, schema_editor, reverse=True)

    return forwards, backwards


def sql_script_migration(
    migration_file: str, dependencies: list[tuple[str, str]]
) -> type[migrations.Migration]:
    """A migration that only runs its scripts, forwards and backwards, after `dependencies`:
    its module says `Migration = sql_script_migration(__file__, [...])`."""
    forwards, backwards = sql_script_steps(migration_file)
    step = migrations.RunPython(forwards, backwards, elidable=False)
    return type(
        "Migration", (migrations.Migration,), {"dependencies": dependencies, "operations": [step]}
    )
