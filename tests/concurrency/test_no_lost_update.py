"""INV-5 no lost update (docs/conventions.md, invariant 5), PostgreSQL.

What is shared between tables. Each table has its own cagnotte, reserve fund and reliquats
(per table and gaming session, COM-6 to COM-8), and its own row lock, which serialises the
writers at that table. What tables share are the players' position accounts: one per player
and gaming session, whatever table he plays at. To make that sharing as hot as it can be, the
16 tables of this test seat the same two players — H1 holds every bank, H3 bancos every coup —
so every coup of every table books to the same two accounts at the same moments (a player is
at one table at a time in a casino; the books must not depend on it). Their accounts do not
exist yet: the 16 first coups race to create them.

With balances derived from append-only entries, no update can be lost on a balance; what can
go wrong is an account created twice, a creation race that kills a coup, or an entry missing
or doubled. After 16 threads × 6 coups, each shared account exists once and its balance and
entry count equal the sum, over the 16 tables, of the engine's replay of each table's journal.

The CONTROL runs the same workload with a naive get-or-create of the accounts (no recovery
from the unique violation when another table created the account first): coups fail. Its race
is forced, not hoped for: every first coup reads the missing accounts before any creates them.
"""

from __future__ import annotations

import contextlib
import threading
from functools import partial
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.models import Q

from ledger.models import Account, AccountKind, Entry, Transaction
from ledger.selectors import account_balance_get
from tables.models import Coup, TableSession
from tables.postings import AccountKey, table_session_place
from tables.services import books
from tables.services.books import _account_key, _lookup_key, players_by_code
from tests.concurrency.kit import (
    CF_SETTINGS,
    Croupier,
    Floor,
    bounded_balances_negative,
    cf_banker_wins,
    engine_totals,
    floor_open,
    journal_replayed,
    ledger_totals,
    table_open,
    unbalanced_transactions,
)
from tests.concurrency.threads import Outcome, slowed, together
from tests.factories import UserFactory

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]

TABLES = 16
COUPS = 6
SHARED = ("H1", "H3")


def _tables(floor: Floor) -> list[Croupier]:
    croupiers = []
    for index in range(TABLES):
        seats = {seat: f"T{index}-S{seat}" for seat in range(1, 7)}
        seats[1], seats[3] = SHARED
        user = UserFactory.create(roles=["croupier"])
        table = table_open(floor, "chemin_de_fer", CF_SETTINGS, seats, croupier=user)
        croupiers.append(Croupier(table, user))
    return croupiers


def _night(at: Croupier) -> int:
    at.table_session = TableSession.objects.get(pk=at.table_session.pk)
    at.do("new_shoe", cut_by=1)
    for _ in range(COUPS):
        at.play(cf_banker_wins(1000))  # H3 pays 1000 to H1, H1 pays 50 to the cagnotte
        at.do("continue_bank", 1, reliquat=950)  # CF-5.5: the bank stays at 1000
    return COUPS


def _run(floor: Floor) -> tuple[list[Croupier], list[Outcome]]:
    croupiers = _tables(floor)
    outcomes = together([partial(_night, at) for at in croupiers], timeout=300)
    connection.close()
    return croupiers, outcomes


def test_inv5_sixteen_tables_booking_to_shared_accounts_lose_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    floor = floor_open()
    # Widen the window between "the account is not there" and creating it.
    monkeypatch.setattr(books, "players_by_code", slowed(books.players_by_code, 0.1))

    croupiers, outcomes = _run(floor)

    assert [o.error for o in outcomes] == [None] * TABLES
    tables = [at.table_session for at in croupiers]
    assert Coup.objects.filter(table_session__in=tables).count() == TABLES * COUPS
    assert (
        Transaction.objects.filter(
            place__in=[table_session_place(t.public_id) for t in tables]
        ).count()
        == TABLES * COUPS * 2
    )
    assert unbalanced_transactions() == []
    assert bounded_balances_negative() == []
    expected: dict[str, int] = {}
    transfers: dict[str, int] = {}
    for table in tables:
        assert ledger_totals(table) == engine_totals(table)
        state = journal_replayed(table).state
        for coup in state.coups:
            for t in coup.transfers:
                for owner in (t.source, t.target):
                    transfers[owner] = transfers.get(owner, 0) + 1
        for owner, amount in engine_totals(table).items():
            expected[owner] = expected.get(owner, 0) + amount
    for code in SHARED:
        accounts = Account.objects.filter(
            kind=AccountKind.PLAYER_POSITION,
            player__member_number=code,
            gaming_session=floor.gaming_session,
        )
        assert accounts.count() == 1  # created once, by one of the 16 racing first coups
        account = accounts.get()
        assert account_balance_get(account=account) == expected.get(code, 0)
        assert Entry.objects.filter(account=account).count() == transfers[code]
    assert expected["H3"] == -1000 * TABLES * COUPS


# The control's race, forced: every table's first coup reads the missing accounts, then waits
# here until all of them have read, so that they all try to create the shared ones.
FIRST_READS = threading.Barrier(TABLES, timeout=60)


def _naive_accounts_create(owners: Any, keys: dict[str, AccountKey]) -> dict[str, Account]:
    """get-or-create without recovering from the unique violation (what the control removes)."""
    codes = [key.member_number for key in keys.values() if key.member_number is not None]
    player_ids = {code: p.pk for code, p in players_by_code(codes).items()} if codes else {}
    lookups = {owner: key.lookup(player_ids) for owner, key in keys.items()}
    condition = Q()
    for fields in lookups.values():
        condition |= Q(**fields)
    found = {_account_key(a): a for a in Account.objects.filter(condition)}
    with contextlib.suppress(threading.BrokenBarrierError):
        FIRST_READS.wait()
    with transaction.atomic():
        for fields in lookups.values():
            if _lookup_key(fields) not in found:
                found[_lookup_key(fields)] = Account.objects.create(**fields)
    return {owner: found[_lookup_key(lookups[owner])] for owner in owners}


def test_inv5_control_without_the_recovery_the_race_kills_coups(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    floor = floor_open()
    monkeypatch.setattr(books, "_accounts_create", _naive_accounts_create)
    FIRST_READS.reset()

    _croupiers, outcomes = _run(floor)

    failed = [o.error for o in outcomes if o.error is not None]
    assert failed, "every table went through: the race on the shared accounts did not happen"
    assert all("unique" in str(error).lower() for error in failed), failed
    # The unique constraint still holds: one account per player, whatever the race.
    for code in SHARED:
        assert (
            Account.objects.filter(
                kind=AccountKind.PLAYER_POSITION, player__member_number=code
            ).count()
            == 1
        )
