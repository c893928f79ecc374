"""A small floor for the service tests of the recording issue: staff, a gaming session, tables
opened with players and a croupier on duty, and a `Croupier` that records through the services
the way a screen does (it reads the table's sequence number and posts `seq + 1`).

Also the two references every ledger check compares with: the engine's replay of the stored
journal (`tables.services.journal.journal_build`) and the books (`ledger_totals`).
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import Group, User
from django.db.models import Case, F, Sum, When

from establishment.models import GamingSession, Player
from establishment.roles import Role
from establishment.services import gaming_session_open
from ledger.models import Account, AccountKind, Entry, Side, Transaction
from tables.engine import results_of
from tables.models import AssignmentRole, Table, TableEvent, TableSession
from tables.postings import table_session_place
from tables.services import (
    Recorded,
    record,
    staff_assign,
    table_create,
    table_session_open,
    undo,
)
from tables.services.journal import Journal, journal_build, last_seq_get
from tests.factories import UserFactory

_numbers = itertools.count(1)

# A UK club's pontoon under a club gaming permit (docs/rules/levy.md, LV-4, LV-6): nothing
# levied on the play, a participation fee of 300 pence a player a day from midday, its cap.
UK_PONTOON: Mapping[str, Any] = {
    "min_stake": 100,
    "cagnotte_rate_bp": 0,
    "levy_model": "participation_fee",
    "fee_maximum": 300,
    "fee_amount": 300,
    "fee_day_start_hour": 12,
}


@dataclass
class Floor:
    """The staff of one gaming session."""

    gaming_session: GamingSession
    manager: User
    inspector: User
    inspector2: User
    croupier: User


def floor_open() -> Floor:
    # A transactional test's flush also empties the groups the migrations made.
    for role in Role:
        Group.objects.get_or_create(name=role)
    manager = UserFactory.create(roles=[Role.MANAGER])
    # One gaming session open at a time (establishment.services.gaming_session_open): a second
    # floor in the same test shares the night.
    night = GamingSession.objects.filter(closed_at__isnull=True).first()
    return Floor(
        gaming_session=night or gaming_session_open(opened_by=manager),
        manager=manager,
        inspector=UserFactory.create(roles=[Role.INSPECTOR]),
        inspector2=UserFactory.create(roles=[Role.INSPECTOR]),
        croupier=UserFactory.create(roles=[Role.CROUPIER]),
    )


def players_ensure(codes: Sequence[str]) -> None:
    for code in codes:
        Player.objects.get_or_create(member_number=code, defaults={"name": f"Player {code}"})


def table_open(
    floor: Floor,
    game: str,
    settings: Mapping[str, Any],
    seats: Mapping[int, str],
    standing: Sequence[str] = (),
    seat_count: int | None = None,
    croupier: User | None = None,
) -> TableSession:
    """A new table of `game`, opened in the floor's gaming session, a croupier on duty."""
    players_ensure([*seats.values(), *standing])
    number = next(_numbers)
    while Table.objects.filter(number=number, is_active=True).exists():
        number = next(_numbers)
    table = table_create(
        number=number,
        game=game,
        settings=settings,
        seat_count=seat_count,
        created_by=floor.manager,
    )
    opened = table_session_open(
        table=table,
        gaming_session=floor.gaming_session,
        opened_by=floor.manager,
        seats=dict(seats),
        standing=list(standing),
    )
    staff_assign(
        table_session=opened,
        staff=croupier or floor.croupier,
        role=AssignmentRole.CROUPIER,
        assigned_by=floor.manager,
    )
    return opened


@dataclass
class Croupier:
    """Records at one table as a screen would: the sequence number read fresh each time."""

    table_session: TableSession
    user: User
    # Wraps every service call: `django_capture_on_commit_callbacks(execute=True)` in a
    # `django_db` test, so the journal cache is filled after each action as after a commit.
    around: Callable[[], AbstractContextManager[Any]] = nullcontext

    def do(self, type_: str, actor: Any = "croupier", **params: Any) -> Recorded:
        expected = last_seq_get(self.table_session) + 1
        with self.around():
            return record(
                table_session=self.table_session,
                action={"type": type_, "actor": actor, **params},
                expected_seq=expected,
                user=self.user,
                idempotency_key=str(uuid.uuid4()),
                client="tests",
            )

    def play(self, actions: Sequence[tuple[Any, ...]]) -> list[Recorded]:
        """`(type, actor, params)` triples in order."""
        return [self.do(type_, actor, **params) for type_, actor, params in actions]

    def undo(self, reason: str = "slip of the finger", user: User | None = None) -> Recorded:
        expected = last_seq_get(self.table_session) + 1
        with self.around():
            return undo(
                table_session=self.table_session,
                expected_seq=expected,
                user=user or self.user,
                idempotency_key=str(uuid.uuid4()),
                reason=reason,
                client="tests",
            )


# -- references ------------------------------------------------------------------------------


def journal_replayed(table_session: TableSession) -> Journal:
    """The engine's state after replaying the stored, effective actions of the table."""
    rows = TableEvent.objects.filter(table_session=table_session).order_by("seq")
    return journal_build(
        table_session, rows.values_list("seq", "kind", "action", "sets_aside").iterator()
    )


def engine_totals(table_session: TableSession) -> dict[str, int]:
    """Each owner's result over the table session, as the engine computes it (COM-5.4)."""
    state = journal_replayed(table_session).state
    moved = [t for coup in state.coups for t in coup.transfers] + list(state.session_transfers)
    return results_of(moved)


def engine_levies(table_session: TableSession) -> int:
    state = journal_replayed(table_session).state
    return sum(t.amount for coup in state.coups for t in coup.transfers if t.reason == "cagnotte")


_SIGNED = Case(When(side=Side.CREDIT, then=F("amount")), default=-F("amount"))


def _owner(kind: str, member_number: str | None) -> str:
    if kind == AccountKind.CAGNOTTE:
        return "cagnotte"
    if kind == AccountKind.RESERVE_FUND:
        return "reserve_fund"
    assert member_number is not None
    return f"reliquat:{member_number}" if kind == AccountKind.RELIQUAT else member_number


def ledger_totals(table_session: TableSession, *, seating_fees: bool = False) -> dict[str, int]:
    """What the books say each owner received from the table session (its transactions,
    reversals included), named as the engine names owners; owners at 0 left out. The fees
    charged from the seating (docs/rules/levy.md, LV-3), which are the house's and no coup's,
    are left out too unless `seating_fees`."""
    entries = Entry.objects.filter(transaction__place=table_session_place(table_session.public_id))
    if not seating_fees:
        entries = entries.filter(transaction__levy_charge__isnull=True)
    rows = entries.values("account__kind", "account__player__member_number").annotate(
        total=Sum(_SIGNED)
    )
    totals = {
        _owner(row["account__kind"], row["account__player__member_number"]): int(row["total"])
        for row in rows
    }
    return {owner: amount for owner, amount in sorted(totals.items()) if amount != 0}


def unbalanced_transactions() -> list[int]:
    """Transactions whose entries do not sum to zero (always empty)."""
    rows = Entry.objects.values("transaction_id").annotate(total=Sum(_SIGNED)).exclude(total=0)
    return [row["transaction_id"] for row in rows]


def bounded_balances_negative() -> list[tuple[str, int]]:
    """INV-2 (COM-5.6): cagnotte, reliquat and reserve fund accounts never below zero."""
    rows = (
        Entry.objects.filter(
            account__kind__in=[
                AccountKind.CAGNOTTE,
                AccountKind.RELIQUAT,
                AccountKind.RESERVE_FUND,
                AccountKind.BANK_IN_PLAY,
            ]
        )
        .values("account_id", "account__kind")
        .annotate(total=Sum(_SIGNED))
        .filter(total__lt=0)
    )
    return [(row["account__kind"], row["total"]) for row in rows]


def session_transactions(table_session: TableSession) -> list[Transaction]:
    return list(
        Transaction.objects.filter(place=table_session_place(table_session.public_id)).order_by(
            "pk"
        )
    )


def account_count(**lookups: Any) -> int:
    return Account.objects.filter(**lookups).count()


# -- a chemin de fer table and its coups (docs/rules/chemin-de-fer.md) ------------------------

CF_SETTINGS: dict[str, Any] = {"decks": 3, "chip_unit": 10, "min_bank": 100, "min_stake": 10}


def cf_table(floor: Floor, prefix: str = "", croupier: User | None = None) -> TableSession:
    """Six seated players S1…S6 (S1 holds the bank), Y standing; the shoe not yet cut."""
    seats = {seat: f"{prefix}S{seat}" for seat in range(1, 7)}
    return table_open(floor, "chemin_de_fer", CF_SETTINGS, seats, [f"{prefix}Y"], croupier=croupier)


def cf_banker_wins(bank: int, ponte_seat: int = 3) -> list[tuple[Any, ...]]:
    """A banco by `ponte_seat`; ponte 4+2 = 6 stands, banker 5+2 = 7 stands: the banker wins."""
    return [
        ("announce_bank", 1, {"amount": bank}),
        ("banco_call", "croupier", {"claims": [{"player": ponte_seat, "kind": "banco"}]}),
        ("deal", "croupier", {"ponte": ["4", "2"], "banker": ["5", "2"]}),
        ("ponte_stand", ponte_seat, {}),
        ("banker_stand", 1, {}),
    ]


def cf_ponte_wins(bank: int, ponte_seat: int = 3) -> list[tuple[Any, ...]]:
    """A banco by `ponte_seat`; ponte 4+4 = 8, a natural shown: the ponte wins. The hand is
    then offered to seat 2 (CF-6.3)."""
    return [
        ("announce_bank", 1, {"amount": bank}),
        ("banco_call", "croupier", {"claims": [{"player": ponte_seat, "kind": "banco"}]}),
        ("deal", "croupier", {"ponte": ["4", "4"], "banker": ["5", "2"]}),
        ("ponte_show_natural", ponte_seat, {}),
    ]


def cf_tie(bank: int, ponte_seat: int = 3) -> list[tuple[Any, ...]]:
    """Ponte 4+3 = 7 stands, banker 5+2 = 7 stands: a tie, nothing changes hands."""
    return [
        ("announce_bank", 1, {"amount": bank}),
        ("banco_call", "croupier", {"claims": [{"player": ponte_seat, "kind": "banco"}]}),
        ("deal", "croupier", {"ponte": ["4", "3"], "banker": ["5", "2"]}),
        ("ponte_stand", ponte_seat, {}),
        ("banker_stand", 1, {}),
    ]
