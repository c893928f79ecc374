"""Each table session's journal as a hash chain (tables/chain.py, docs/security.md): each
line's hash after the line before it, the lines already recorded chained in order, and the
trigger that moves the journal's head with every line (the SQL beside this file)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import groupby
from typing import Any

from django.db import migrations
from django.db.migrations.state import StateApps

from establishment.chain_migrations import ChainRows, chain_operations
from establishment.sql_scripts import sql_script_steps
from tables.chain import journal_chain, journal_content


def _journal_rows(apps: StateApps) -> Iterator[ChainRows]:
    lines = apps.get_model("tables", "TableEvent")._base_manager.order_by("table_session", "seq")
    for table_session, chain in groupby(lines.iterator(), key=lambda line: line.table_session_id):
        rows: list[tuple[Any, int, str]] = [
            (line.pk, line.seq, journal_content(line)) for line in chain
        ]
        yield journal_chain(table_session), rows


class Migration(migrations.Migration):
    dependencies = [
        ("establishment", "0007_audit_chain"),
        ("tables", "0007_ticket_books"),
    ]

    operations = [
        *chain_operations(
            __file__,
            "0002_history_append_only",
            "tables.TableEvent",
            _journal_rows,
            positioned=False,
            head=sql_script_steps(__file__),
        ),
    ]
