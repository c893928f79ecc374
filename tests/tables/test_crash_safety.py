"""INV-7 crash safety (docs/conventions.md, invariant 7), PostgreSQL.

A process recording coups is killed with SIGKILL in the middle of a transaction: nothing of
the coup it was booking remains (no journal line, no coup row, no ledger entry, no audit
row), the journal, the coups and the books agree, and another process resumes recording
where the killed one stopped. First at a chosen point (inside the transaction of the action
that settles a coup, the ledger written and not yet committed), then at random moments.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

import pytest
from django.db import connection

from establishment.models import AuditEntry
from ledger.models import Transaction
from tables.models import Coup, EventKind, TableEvent, TableSession
from tables.postings import table_session_place
from tables.services.journal import last_seq_get
from tests.concurrency.kit import (
    engine_totals,
    floor_open,
    ledger_totals,
    table_open,
    unbalanced_transactions,
)
from tests.subprocess_env import ROOT, clean_env

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
    pytest.mark.slow,
]

SETTINGS = {"decks": 8, "chip_unit": 10, "min_bank": 100, "min_stake": 10}


def _database_url() -> str:
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return (
        f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
        f"/{db['NAME']}"
    )


def _child(table: TableSession, user_pk: int, coups: int, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.concurrency.crash_child",
            str(table.pk),
            str(user_pk),
            str(coups),
        ],
        cwd=ROOT,
        env=clean_env({"DATABASE_URL": _database_url(), "PYTHONPATH": str(ROOT), **env}),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _finish(child: subprocess.Popen[str], timeout: float = 120) -> str:
    out, err = child.communicate(timeout=timeout)
    assert child.returncode == 0, err[-3000:]
    return out


def _kill(child: subprocess.Popen[str]) -> None:
    child.send_signal(signal.SIGKILL)
    child.communicate(timeout=30)  # reaps it and closes its pipes


def _table() -> tuple[TableSession, int]:
    floor = floor_open()
    seats = {seat: f"S{seat}" for seat in range(1, 7)}
    table = table_open(floor, "chemin_de_fer", SETTINGS, seats)
    return table, floor.croupier.pk


def _consistent(table: TableSession) -> None:
    """The journal, the coups, the books and the audit trail agree."""
    events = list(TableEvent.objects.filter(table_session=table).order_by("seq"))
    assert [e.seq for e in events] == list(range(1, len(events) + 1))  # no hole
    by_seq = {e.seq: e for e in events}
    for coup in Coup.objects.filter(table_session=table):
        assert coup.number in by_seq[coup.settled_seq].outcome["coups"]
    posted = {key for e in events for key in e.outcome.get("postings", [])}
    booked = set(
        Transaction.objects.filter(place=table_session_place(table.public_id)).values_list(
            "idempotency_key", flat=True
        )
    )
    assert booked == posted
    assert ledger_totals(table) == engine_totals(table)
    assert unbalanced_transactions() == []
    actions = sum(1 for e in events if e.kind == EventKind.ACTION)
    assert AuditEntry.objects.filter(table_session_id=table.pk, action="record").count() == actions


def test_inv7_killed_inside_the_settling_transaction_leaves_no_partial_coup() -> None:
    table, user_pk = _table()
    child = _child(table, user_pk, coups=3, CRASH_INSIDE="1")
    assert child.stdout is not None
    line = ""
    while not line.startswith("INSIDE"):
        line = child.stdout.readline()
        assert line, child.stderr.read() if child.stderr else "the child ended"
    seq = int(line.split()[1])
    _kill(child)

    # The settling action and everything it wrote are gone; what came before is intact.
    assert last_seq_get(table) == seq - 1
    assert not Coup.objects.filter(table_session=table).exists()
    assert not Transaction.objects.filter(place=table_session_place(table.public_id)).exists()
    _consistent(table)

    out = _finish(_child(table, user_pk, coups=2))
    assert out.splitlines()[0] == f"RECORDED {seq}"  # resumed with the very action lost
    assert Coup.objects.filter(table_session=table).count() == 2
    _consistent(table)


def test_inv7_killed_at_random_moments_recording_resumes() -> None:
    table, user_pk = _table()
    rng = random.Random(int(os.environ.get("INV7_SEED", "7")))
    for _ in range(4):
        child = _child(table, user_pk, coups=10_000)
        assert child.stdout is not None
        assert child.stdout.readline().startswith("RECORDED")  # started, then at random:
        time.sleep(rng.uniform(0.05, 0.6))
        _kill(child)
        _consistent(table)
    before = Coup.objects.filter(table_session=table).count()
    _finish(_child(table, user_pk, coups=2))
    assert Coup.objects.filter(table_session=table).count() >= before + 2
    _consistent(table)
