"""INV-4 idempotency under concurrency (docs/conventions.md, invariant 4), PostgreSQL.

The very action that settles a coup, posted from 8 threads at once with the same idempotency
key (a double click, a browser retry, two tabs): exactly one journal line, one coup, one ledger
transaction, and the same answer to all. The same key with a different action is refused.

The CONTROL runs the same race without the table session's row lock: the threads that lose
the race fail with a database error instead of getting the earlier answer.
"""

from __future__ import annotations

import pytest
from django.db import IntegrityError

from ledger.models import Transaction
from tables import sql as sql_module
from tables.models import Coup, TableEvent, TableSession
from tables.postings import table_session_place
from tables.services import (
    IdempotencyConflictError,
    Recorded,
    record,
    recording as recording_module,
)
from tables.services.journal import journal_get, last_seq_get
from tests.concurrency.kit import (
    Croupier,
    cf_banker_wins,
    cf_table,
    floor_open,
    unbalanced_transactions,
)
from tests.concurrency.threads import slowed, together

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]

THREADS = 8
SETTLING = {"type": "banker_stand", "actor": 1}


def _table_one_action_from_settling() -> tuple[Croupier, int]:
    floor = floor_open()
    at = Croupier(cf_table(floor), floor.croupier)
    at.do("new_shoe", cut_by=1)
    at.play(cf_banker_wins(1000)[:-1])
    return at, last_seq_get(at.table_session) + 1


def _post_from_threads(at: Croupier, seq: int, key: str) -> list[Recorded | BaseException]:
    def post() -> Recorded:
        return record(
            table_session=TableSession.objects.get(pk=at.table_session.pk),
            action=SETTLING,
            expected_seq=seq,
            user=at.user,
            idempotency_key=key,
            client="tab",
        )

    outcomes = together([post] * THREADS)
    return [o.error if o.error is not None else o.value for o in outcomes]


def test_inv4_the_same_action_from_8_threads_is_recorded_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    at, seq = _table_one_action_from_settling()
    # The same widened window as the control: the lock must hold it.
    monkeypatch.setattr(recording_module, "journal_get", slowed(journal_get, 0.05))

    answers = _post_from_threads(at, seq, "double-click")

    assert all(isinstance(a, Recorded) for a in answers), answers
    recorded = [a for a in answers if isinstance(a, Recorded)]
    assert all((a.seq, a.outcome) == (seq, recorded[0].outcome) for a in recorded)
    assert sorted(a.replayed for a in recorded) == [False] + [True] * (THREADS - 1)
    ts = at.table_session
    assert TableEvent.objects.filter(table_session=ts, idempotency_key="double-click").count() == 1
    assert last_seq_get(ts) == seq
    assert Coup.objects.filter(table_session=ts).count() == 1
    assert Transaction.objects.filter(place=table_session_place(ts.public_id)).count() == 1
    assert recorded[0].outcome["coups"] == [1] and len(recorded[0].outcome["postings"]) == 1
    assert unbalanced_transactions() == []


def test_inv4_the_same_key_with_another_action_is_refused() -> None:
    at, seq = _table_one_action_from_settling()
    first = record(
        table_session=at.table_session,
        action=SETTLING,
        expected_seq=seq,
        user=at.user,
        idempotency_key="k1",
    )
    with pytest.raises(IdempotencyConflictError):
        record(
            table_session=at.table_session,
            action={"type": "banker_draw", "actor": 1, "rank": "5"},
            expected_seq=seq,
            user=at.user,
            idempotency_key="k1",
        )
    again = record(
        table_session=at.table_session,
        action=dict(SETTLING),
        expected_seq=seq,  # stale by now, and still the earlier answer
        user=at.user,
        idempotency_key="k1",
    )
    assert again.replayed and (again.seq, again.outcome) == (first.seq, first.outcome)
    assert (
        Transaction.objects.filter(place=table_session_place(at.table_session.public_id)).count()
        == 1
    )


def test_inv4_control_without_the_row_lock_the_race_shows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    at, seq = _table_one_action_from_settling()
    # The service's locking statement without its FOR UPDATE (the form it takes on SQLite).
    unlocked = sql_module.lock_sql("sqlite")
    assert "FOR UPDATE" not in unlocked[0] and "FOR UPDATE" in sql_module.lock_sql("postgresql")[0]
    monkeypatch.setattr(sql_module, "lock_sql", lambda vendor: unlocked)
    monkeypatch.setattr(recording_module, "journal_get", slowed(journal_get, 0.05))

    answers = _post_from_threads(at, seq, "double-click")

    failures = [a for a in answers if isinstance(a, BaseException)]
    assert failures, "without the lock every thread got an answer: the race did not happen"
    assert all(isinstance(f, IntegrityError) for f in failures), failures
    # The unique constraints are the last line: still one line, one coup, one transaction.
    ts = at.table_session
    assert TableEvent.objects.filter(table_session=ts, idempotency_key="double-click").count() == 1
    assert Transaction.objects.filter(place=table_session_place(ts.public_id)).count() == 1
