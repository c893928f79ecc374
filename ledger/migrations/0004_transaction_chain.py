"""The books' hash chain (ledger/chain.py, docs/security.md): each transaction's place and
hash over it and its entries, the transactions already posted chained in the order they were
posted (by key), and on SQLite the trigger that moves the head with each one (PostgreSQL's
`ledger.services.post` moves it in the statement that inserts the transaction):
establishment/chain_migrations.py."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from django.db import migrations
from django.db.migrations.state import StateApps

from establishment.chain_migrations import ChainRows, chain_operations, sqlite_head_follows
from ledger.chain import LEDGER_CHAIN, EntryLine, transaction_content


def _transaction_rows(apps: StateApps) -> Iterator[ChainRows]:
    entries: dict[int, list[EntryLine]] = defaultdict(list)
    for txn, *line in apps.get_model("ledger", "Entry")._base_manager.values_list(
        "transaction_id", "account_id", "side", "amount", "reason"
    ):
        entries[txn].append(tuple(line))
    posted = apps.get_model("ledger", "Transaction")._base_manager.order_by("pk")

    def rows() -> Iterator[tuple[Any, int, str]]:
        for position, txn in enumerate(posted.iterator(), start=1):
            yield txn.pk, position, transaction_content(txn, entries[txn.pk])

    yield LEDGER_CHAIN, rows()


class Migration(migrations.Migration):
    dependencies = [
        ("establishment", "0007_audit_chain"),
        ("ledger", "0003_count_accounts"),
    ]

    operations = [
        *chain_operations(
            __file__,
            "0002_ledger_triggers",
            "ledger.Transaction",
            _transaction_rows,
            positioned=True,
            head=sqlite_head_follows("ledger_transaction", LEDGER_CHAIN),
        ),
    ]
