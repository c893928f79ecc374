"""SQL statements per recorded action do not grow with the players at the table, and stay
at most 12 (docs/conventions.md, P2).

Lansquenet moderne with `n` players: the banker, the pontes seated on up to the 30 seats a
table may have, the rest standing and completing the bank (LM-4.4). Every ponte stakes, so the
card that settles the coup books one entry per player. The measured coup is the second of the
night (the accounts exist, as for every coup but a player's first), with the journal cache warm
as in production.

Counted: every statement the service sends, savepoints included, but not the BEGIN and COMMIT
around it (in a `django_db` test, the savepoint and release that stand for them). The
PostgreSQL test runs with real commits.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from functools import partial
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables.engine.lansquenet_moderne.state import LMState
from tables.models import Coup
from tables.services import record
from tables.services.journal import last_seq_get
from tests.concurrency.kit import Croupier, floor_open, journal_replayed, table_open

MAX_STATEMENTS = 12
PLAYERS = (2, 7, 15, 31)
SETTINGS = {"decks": 2, "chip_unit": 1, "min_bank": 1, "min_stake": 1}


def _coup_up_to_the_last_card(croupier: Croupier, players: int, first: bool) -> None:
    """Bank, stakes from every ponte (seated, then standing to complete), two cards."""
    seated = min(players, 30)
    if first:
        croupier.do("set_first_banker", seat=1)
        bank = 20 * (players - 1)
    else:  # LM-6.2 the banker stayed: the bank is doubled, less the cagnotte
        state = journal_replayed(croupier.table_session).state
        assert isinstance(state, LMState) and state.bank_rule is not None
        bank = state.bank_rule.amount
    croupier.do("announce_bank", 1, amount=bank)
    pontes: list[Any] = [*range(2, seated + 1), *(f"W{players}-{i}" for i in range(players - 30))]
    stake = bank // (players - 1)
    amounts = [stake] * (len(pontes) - 1) + [bank - stake * (len(pontes) - 1)]
    for ponte, amount in zip(pontes[: seated - 1], amounts, strict=False):
        croupier.do("stake", ponte, amount=amount)
    if players > seated:
        for seat in range(2, seated + 1):
            croupier.do("pass", seat)  # the second speaking round
        for ponte, amount in zip(pontes[seated - 1 :], amounts[seated - 1 :], strict=True):
            croupier.do("stake", ponte, amount=amount)  # LM-4.4 completion
    croupier.do("turn_card", rank="K")  # the banker's card
    croupier.do("turn_card", rank="Q")  # the pontes' card


def _counted(queries: list[dict[str, Any]]) -> list[str]:
    """The statements of one service call, without the two that open and close its
    transaction (BEGIN/COMMIT, or the test transaction's savepoint and its release)."""
    sql = [q["sql"] for q in queries]
    assert sql[0] == "BEGIN" or sql[0].startswith("SAVEPOINT"), sql[0]
    assert sql[-1] == "COMMIT" or sql[-1].startswith("RELEASE SAVEPOINT"), sql[-1]
    return sql[1:-1]


def _statements(
    players: int, around: Callable[[], AbstractContextManager[Any]]
) -> tuple[list[str], list[str]]:
    floor = floor_open()
    seated = min(players, 30)
    table_session = table_open(
        floor,
        "lansquenet_moderne",
        SETTINGS,
        {seat: f"P{players}-{seat}" for seat in range(1, seated + 1)},
        standing=[f"W{players}-{i}" for i in range(players - seated)],
        seat_count=30,
    )
    croupier = Croupier(table_session, floor.croupier, around)
    _coup_up_to_the_last_card(croupier, players, first=True)
    croupier.do("turn_card", rank="K")
    croupier.do("stay", 1)
    _coup_up_to_the_last_card(croupier, players, first=False)

    def measured(rank: str) -> list[str]:
        expected = last_seq_get(table_session) + 1  # what the screen read
        with around(), CaptureQueriesContext(connection) as captured:
            record(
                table_session=table_session,
                action={"type": "turn_card", "actor": "croupier", "rank": rank},
                expected_seq=expected,
                user=floor.croupier,
                idempotency_key=str(uuid.uuid4()),
            )
        return _counted(captured.captured_queries)

    quiet = measured("5")  # a middle card: nothing settles
    settling = measured("K")  # the banker's rank again: he wins
    last = Coup.objects.filter(table_session=table_session).order_by("number").last()
    assert last is not None and last.number == 2
    assert len(last.transfers) >= players - 1  # every ponte pays
    return quiet, settling


def _check(counts: dict[int, tuple[list[str], list[str]]], settling_bound: int) -> None:
    quiet = {n: len(c[0]) for n, c in counts.items()}
    settling = {n: len(c[1]) for n, c in counts.items()}
    detail = "\n".join(sql[:100] for sql in counts[PLAYERS[-1]][1])
    assert len(set(quiet.values())) == 1, quiet
    assert len(set(settling.values())) == 1, (settling, detail)
    assert max(quiet.values()) <= MAX_STATEMENTS, quiet
    assert max(settling.values()) <= settling_bound, (settling, detail)


# The settling action sends 12 statements: lock (with the permission check), journal position
# and idempotency key, accounts, the coup, the journal line, the audit row, and the 6 of
# `ledger.services.post` (2 savepoints with their releases, the transaction, the entries; a
# repeated idempotency key is caught by the INSERT's unique constraint, not looked up first).


@pytest.mark.django_db
def test_p2_statements_per_action_do_not_grow_with_players(
    django_capture_on_commit_callbacks: Callable[..., AbstractContextManager[Any]],
) -> None:
    around = partial(django_capture_on_commit_callbacks, execute=True)
    counts = {n: _statements(n, around) for n in PLAYERS}
    _check(counts, MAX_STATEMENTS)


@pytest.mark.django_db
def test_p2_settling_action_at_most_12_statements(
    django_capture_on_commit_callbacks: Callable[..., AbstractContextManager[Any]],
) -> None:
    around = partial(django_capture_on_commit_callbacks, execute=True)
    _check({n: _statements(n, around) for n in (2, 31)}, MAX_STATEMENTS)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_p2_statements_per_action_on_postgresql_with_real_commits() -> None:
    counts = {n: _statements(n, nullcontext) for n in PLAYERS}
    _check(counts, MAX_STATEMENTS)
