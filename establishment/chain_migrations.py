"""What the migrations that add the hash chains share (establishment 0007, ledger 0004, tables
0008; docs/security.md, "The history's hash chains"): the rows already written are chained in
the order they were written, and the append-only triggers are lifted meanwhile.

SQLite rebuilds a table to add a column with a constraint, and the rebuilt table has lost its
triggers: each migration drops the append-only triggers of its tables first (the reverse script
of the migration that made them), fills the chain, and makes them again after (its script).
On SQLite the heads of the audit log and of the books follow their rows by a trigger
(`sqlite_head_follows`); PostgreSQL's writers move them in the INSERT itself
(`establishment.rows`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.operations.base import Operation
from django.db.migrations.state import StateApps

from establishment.chain import GENESIS, HASH_LENGTH, chain_hash_valid, chain_position_field, link
from establishment.sql_scripts import Step, sql_script_steps


def triggers_lifted(
    migration_file: str, earlier: str
) -> tuple[migrations.RunPython, migrations.RunPython]:
    """The operations that drop the triggers of the migration `earlier` (beside
    `migration_file`) and that make them again: put the rest of the migration between them."""
    made, dropped = sql_script_steps(str(Path(migration_file).with_name(f"{earlier}.py")))
    return (
        migrations.RunPython(dropped, made, elidable=False),
        migrations.RunPython(made, dropped, elidable=False),
    )


# A chain to fill: (its name, its rows in order, each as (key, position, content)).
ChainRows = tuple[str, Iterable[tuple[Any, int, str]]]


def chains_backfill(
    app: str, model: str, chains: Callable[[StateApps], Iterable[ChainRows]], *, positioned: bool
) -> Step:
    """A `RunPython` step that hashes the rows of `app.model` already written, chain by chain
    (`chains` gives each chain's rows in order), sets each row's hash (and its position when
    `positioned`), and stores each chain's head."""

    def forwards(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
        rows = apps.get_model(app, model)._base_manager
        heads = apps.get_model("establishment", "ChainHead")._base_manager
        for name, ordered in chains(apps):
            position, previous = 0, GENESIS
            for key, position, content in ordered:
                previous = link(previous, content)
                values: dict[str, Any] = {"chain_hash": previous}
                if positioned:
                    values["chain_position"] = position
                rows.filter(pk=key).update(**values)
            heads.update_or_create(
                name=name, defaults={"position": position, "last_hash": previous}
            )

    return forwards


def sqlite_head_follows(table: str, chain: str) -> tuple[Step, Step]:
    """The steps that make (and drop) the SQLite trigger leaving each new row's position and
    hash of `table` in the head of `chain`; nothing on PostgreSQL."""
    trigger = f"{table}_chain_head"
    made = (
        f"CREATE TRIGGER {trigger} AFTER INSERT ON {table} BEGIN "
        "INSERT INTO establishment_chainhead (name, position, last_hash) "
        f"VALUES ('{chain}', NEW.chain_position, NEW.chain_hash) ON CONFLICT (name) "
        "DO UPDATE SET position = excluded.position, last_hash = excluded.last_hash; END"
    )

    def forwards(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
        if schema_editor.connection.vendor == "sqlite":
            schema_editor.execute(made, params=None)

    def backwards(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
        if schema_editor.connection.vendor == "sqlite":
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {trigger}", params=None)

    return forwards, backwards


def chain_operations(
    migration_file: str,
    earlier: str,
    label: str,
    chains: Callable[[StateApps], Iterable[ChainRows]],
    *,
    positioned: bool,
    head: tuple[Step, Step],
) -> list[Operation]:
    """The operations of a migration that chains the model `label` (`app.Model`): the
    append-only triggers of the migration `earlier` lifted, `chain_hash` (and `chain_position`
    when `positioned`) added, the rows written so far chained (`chains`), the fields made
    required, the triggers made again, and the steps that make the head follow the rows
    (`head`)."""
    lifted, restored = triggers_lifted(migration_file, earlier)
    app, model = label.split(".")
    name = model.lower()
    position: models.PositiveBigIntegerField[int | None, int | None] = (
        models.PositiveBigIntegerField(editable=False, null=True, verbose_name="chain position")
    )
    hashed: models.CharField[str, str] = models.CharField(
        default="", editable=False, max_length=HASH_LENGTH, verbose_name="chain hash"
    )
    filled = migrations.RunPython(
        chains_backfill(app, model, chains, positioned=positioned),
        migrations.RunPython.noop,
        elidable=False,
    )
    return [
        lifted,
        *([migrations.AddField(name, "chain_position", position)] if positioned else []),
        migrations.AddField(name, "chain_hash", hashed, preserve_default=False),
        filled,
        *(
            [migrations.AlterField(name, "chain_position", chain_position_field())]
            if positioned
            else []
        ),
        migrations.AddConstraint(name, chain_hash_valid(f"{app}_{name}")),
        restored,
        migrations.RunPython(*head, elidable=False),
    ]
