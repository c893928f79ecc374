"""The audit log's hash chain (establishment/chain.py, docs/security.md): the chains' heads,
each audit row's place and hash, the rows already written chained in the order they were
written (by key), and on SQLite the trigger that moves the head with each row (PostgreSQL's
writers move it in the statement that inserts the row): establishment/chain_migrations.py."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.db import migrations, models
from django.db.migrations.state import StateApps

from establishment.chain import AUDIT_CHAIN, audit_content
from establishment.chain_migrations import ChainRows, chain_operations, sqlite_head_follows


def _audit_rows(apps: StateApps) -> Iterator[ChainRows]:
    entries = apps.get_model("establishment", "AuditEntry")._base_manager.order_by("pk")

    def rows() -> Iterator[tuple[Any, int, str]]:
        for position, entry in enumerate(entries.iterator(), start=1):
            yield entry.pk, position, audit_content(entry)

    yield AUDIT_CHAIN, rows()


class Migration(migrations.Migration):
    dependencies = [("establishment", "0006_house_settings")]

    operations = [
        migrations.CreateModel(
            name="ChainHead",
            fields=[
                (
                    "name",
                    models.CharField(
                        max_length=100, primary_key=True, serialize=False, verbose_name="chain"
                    ),
                ),
                (
                    "position",
                    models.PositiveBigIntegerField(default=0, verbose_name="last position"),
                ),
                (
                    "last_hash",
                    models.CharField(
                        default="0000000000000000000000000000000000000000000000000000000000000000",
                        max_length=64,
                        verbose_name="last hash",
                    ),
                ),
            ],
            options={"verbose_name": "chain head", "verbose_name_plural": "chain heads"},
        ),
        *chain_operations(
            __file__,
            "0002_audit_append_only",
            "establishment.AuditEntry",
            _audit_rows,
            positioned=True,
            head=sqlite_head_follows("establishment_auditentry", AUDIT_CHAIN),
        ),
    ]
