"""Sessions at a table: interruptions, closing a table, closing the night (issue: storing
coups, "Sessions"). Closing books the engine's `end_session`: reliquats back to their bankers
(COM-7.2, CF) and the reserve fund divided (COM-8.2, LR-2.6), compared with the engine.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest

from establishment.errors import DomainError, ErrorCode, InvalidStateError, PermissionDeniedError
from establishment.models import AuditEntry
from ledger.models import Account, AccountKind
from ledger.selectors import account_balance_get
from tables.models import (
    AssignmentRole,
    CroupierAssignment,
    EventKind,
    SeatOccupancy,
    TableEvent,
    TableSession,
)
from tables.postings import table_place, table_session_place
from tables.selectors import table_state_get
from tables.services import (
    TableClosedError,
    TableInterruptedError,
    gaming_session_close,
    open_coup_void,
    staff_assign,
    table_interrupt,
    table_resume,
    table_session_close,
    table_session_open,
)
from tables.services.journal import last_seq_get
from tables.services.sessions import CloseBlockedError
from tests.concurrency.kit import (
    Croupier,
    Floor,
    bounded_balances_negative,
    cf_banker_wins,
    cf_table,
    engine_totals,
    floor_open,
    ledger_totals,
    table_open,
    unbalanced_transactions,
)

pytestmark = pytest.mark.django_db

Around = Callable[[], AbstractContextManager[Any]]


def _pause(table_session: TableSession, user: Any, resume: bool = False) -> Any:
    service = table_resume if resume else table_interrupt
    return service(
        table_session=table_session,
        expected_seq=last_seq_get(table_session) + 1,
        user=user,
        idempotency_key=str(uuid.uuid4()),
        reason="dealer break",
    )


def _books_agree(table_session: TableSession) -> None:
    assert ledger_totals(table_session) == engine_totals(table_session)
    assert unbalanced_transactions() == []
    assert bounded_balances_negative() == []


# -- interruptions ----------------------------------------------------------------------------


def test_an_interruption_blocks_recording_until_restart(floor: Floor, around: Around) -> None:
    at = Croupier(cf_table(floor), floor.croupier, around)
    at.do("new_shoe", cut_by=1)
    with pytest.raises(PermissionDeniedError):
        _pause(at.table_session, floor.croupier)
    with around():
        _pause(at.table_session, floor.inspector)
    state = table_state_get(table_session=at.table_session)
    assert state.interrupted and state.legal == ()
    seq = last_seq_get(at.table_session)
    with pytest.raises(TableInterruptedError):
        at.do("announce_bank", 1, amount=1000)
    assert last_seq_get(at.table_session) == seq
    with pytest.raises(TableInterruptedError):  # already interrupted
        _pause(at.table_session, floor.inspector)
    with around():
        _pause(at.table_session, floor.manager, resume=True)
    with pytest.raises(InvalidStateError):  # not interrupted any more
        _pause(at.table_session, floor.inspector, resume=True)
    at.play(cf_banker_wins(1000))
    kinds = [e.kind for e in TableEvent.objects.filter(table_session=at.table_session)]
    assert kinds.count(EventKind.INTERRUPT) == 1 and kinds.count(EventKind.RESUME) == 1
    actions = AuditEntry.objects.filter(table_session_id=at.table_session.pk)
    assert list(actions.filter(action__in=["interrupt", "resume"]).values_list("action", flat=True))
    _books_agree(at.table_session)


# -- closing a table --------------------------------------------------------------------------


def test_close_refused_with_a_coup_in_progress_and_done_after(floor: Floor, around: Around) -> None:
    at = Croupier(cf_table(floor), floor.croupier, around)
    at.do("new_shoe", cut_by=1)
    at.do("announce_bank", 1, amount=1000)
    with pytest.raises(DomainError) as refused:
        table_session_close(table_session=at.table_session, user=floor.inspector)
    assert refused.value.code == ErrorCode.COUP_IN_PROGRESS
    assert refused.value.extra["state"] == "banco_call"
    with pytest.raises(PermissionDeniedError):
        table_session_close(table_session=at.table_session, user=floor.croupier)
    at.play(cf_banker_wins(1000)[1:])
    at.do("continue_bank", 1, reliquat=0)

    with around():
        closed = table_session_close(table_session=at.table_session, user=floor.inspector)

    assert closed.closed_at is not None and closed.closed_by == floor.inspector
    assert not SeatOccupancy.objects.filter(table_session=closed, left_at__isnull=True).exists()
    assert not CroupierAssignment.objects.filter(
        table_session=closed, released_at__isnull=True
    ).exists()
    assert table_state_get(table_session=closed).legal == ()
    with pytest.raises(PermissionDeniedError):  # the croupier's duty ended with the table
        at.do("announce_bank", 1, amount=1950)
    with pytest.raises(TableClosedError):
        Croupier(closed, floor.inspector).do("announce_bank", 1, amount=1950)
    with pytest.raises(InvalidStateError):
        table_session_close(table_session=closed, user=floor.inspector)
    assert AuditEntry.objects.filter(table_session_id=closed.pk, action="table_close").exists()
    _books_agree(closed)


def test_close_after_an_open_coup_void(floor: Floor, around: Around) -> None:
    at = Croupier(cf_table(floor), floor.croupier, around)
    at.do("new_shoe", cut_by=1)
    at.do("announce_bank", 1, amount=1000)
    with around():
        open_coup_void(
            table_session=at.table_session,
            expected_seq=last_seq_get(at.table_session) + 1,
            user=floor.inspector,
            idempotency_key="void-open",
            reason="the player left mid-coup",
        )
        table_session_close(table_session=at.table_session, user=floor.inspector)
    assert TableSession.objects.get(pk=at.table_session.pk).closed_at is not None


def test_close_returns_the_reliquats_cf(floor: Floor, around: Around) -> None:
    at = Croupier(cf_table(floor), floor.croupier, around)
    at.do("new_shoe", cut_by=1)
    at.play(cf_banker_wins(1000))
    at.do("continue_bank", 1, reliquat=500)  # CF-5.5: 500 set aside, the bank goes on at 1450
    reliquat = Account.objects.get(
        kind=AccountKind.RELIQUAT, place=table_session_place(at.table_session.public_id)
    )
    assert account_balance_get(account=reliquat) == 500
    _books_agree(at.table_session)

    with around():
        table_session_close(table_session=at.table_session, user=floor.inspector)

    assert account_balance_get(account=reliquat) == 0  # COM-7.2 back to its banker
    totals = ledger_totals(at.table_session)
    assert totals == engine_totals(at.table_session)
    assert totals == {"S1": 950, "S3": -1000, "cagnotte": 50}
    end = TableEvent.objects.filter(table_session=at.table_session).order_by("seq").last()
    assert end is not None and end.action["type"] == "end_session"
    assert end.outcome["postings"]
    _books_agree(at.table_session)


LR_SETTINGS = {"chip_unit": 1, "reserve_contribution": 25, "agreed_stake": 100}
LR_COUP: list[tuple[Any, ...]] = [  # tests/scenarios/landsknecht/LR-2-4-…, then S2 takes the bank
    ("set_first_banker", "croupier", {"seat": 1}),
    ("open_reserve", "croupier", {}),
    ("announce_bank", 1, {"amount": 100}),
    ("take", 2, {"amount": 25}),
    ("pass", 3, {}),
    ("turn_card", "croupier", {"rank": "J"}),
    ("turn_card", "croupier", {"rank": "Q"}),
    ("turn_card", "croupier", {"rank": "4"}),
    ("turn_card", "croupier", {"rank": "Q"}),
    ("accept_bank", 2, {}),
]


def test_close_divides_the_reserve_fund_lr(floor: Floor, around: Around) -> None:
    table = table_open(floor, "landsknecht", LR_SETTINGS, {1: "L1", 2: "L2", 3: "L3"})
    at = Croupier(table, floor.croupier, around)
    at.play(
        [
            (t, a, {k: (f"L{v}" if k == "player" else v) for k, v in p.items()})
            for t, a, p in LR_COUP
        ]
    )
    fund = Account.objects.get(
        kind=AccountKind.RESERVE_FUND, place=table_place(table.table.public_id)
    )
    assert account_balance_get(account=fund) == 150
    _books_agree(table)

    with around():
        table_session_close(table_session=table, user=floor.manager)

    assert account_balance_get(account=fund) == 0  # COM-8.2, LR-2.6 divided among members
    totals = ledger_totals(table)
    assert totals == engine_totals(table) == {"L1": -75, "L2": 50, "L3": 25}
    _books_agree(table)


# -- closing the night -------------------------------------------------------------------------


def test_the_gaming_session_closes_only_once_every_table_is_closed(
    floor: Floor, around: Around
) -> None:
    """The night does not close over an open table; each table closes on its own, refused while
    a coup is in progress there (`end_session` only where a new coup can start, COM-3.8), its
    reliquats returned (COM-7.2)."""
    first = Croupier(cf_table(floor, prefix="A"), floor.croupier, around)
    second_croupier = floor_open().croupier
    second = Croupier(
        cf_table(floor, prefix="B", croupier=second_croupier), second_croupier, around
    )
    first.do("new_shoe", cut_by=1)
    first.play(cf_banker_wins(1000))
    first.do("continue_bank", 1, reliquat=500)
    second.do("new_shoe", cut_by=1)
    second.do("announce_bank", 1, amount=300)
    numbers = sorted([first.table_session.table.number, second.table_session.table.number])

    with pytest.raises(PermissionDeniedError):
        gaming_session_close(gaming_session=floor.gaming_session, user=floor.croupier)
    with pytest.raises(CloseBlockedError) as refused:
        gaming_session_close(gaming_session=floor.gaming_session, user=floor.manager)
    assert refused.value.code == ErrorCode.CLOSE_BLOCKED
    assert refused.value.extra["left"] == [{"what": "table_open", "table": n} for n in numbers]
    assert all(str(n) in refused.value.message for n in numbers)
    assert TableSession.objects.filter(closed_at__isnull=True).count() == 2

    with around():
        table_session_close(table_session=first.table_session, user=floor.manager)
    with pytest.raises(DomainError) as busy:  # table B has a coup in progress
        table_session_close(table_session=second.table_session, user=floor.manager)
    assert busy.value.code == ErrorCode.COUP_IN_PROGRESS
    second.undo(reason="the banker changed his mind")
    with around():
        table_session_close(table_session=second.table_session, user=floor.manager)
        closed = gaming_session_close(gaming_session=floor.gaming_session, user=floor.manager)

    assert closed.closed_at is not None and closed.closed_by == floor.manager
    for at in (first, second):
        _books_agree(at.table_session)
    # The reliquat of 500 went back to its banker with the close (COM-7.2).
    assert ledger_totals(first.table_session) == {"AS1": 950, "AS3": -1000, "cagnotte": 50}
    assert AuditEntry.objects.filter(action="gaming_session_close", gaming_session=closed).exists()
    with pytest.raises(InvalidStateError):
        gaming_session_close(gaming_session=floor.gaming_session, user=floor.manager)


def test_every_change_writes_an_audit_row(floor: Floor, around: Around) -> None:
    at = Croupier(cf_table(floor), floor.croupier, around)
    at.do("new_shoe", cut_by=1)
    at.do("announce_bank", 1, amount=1000)
    at.undo()
    at.play(cf_banker_wins(1000))
    with around():
        _pause(at.table_session, floor.inspector)
        _pause(at.table_session, floor.inspector, resume=True)
    at.do("continue_bank", 1, reliquat=0)
    with around():
        table_session_close(table_session=at.table_session, user=floor.inspector)
    rows = AuditEntry.objects.filter(table_session_id=at.table_session.pk).order_by("pk")
    actions = list(rows.values_list("action", flat=True))
    assert actions == [
        "table_open",
        "staff_assign",
        "record",
        "record",
        "undo",
        *["record"] * 5,
        "interrupt",
        "resume",
        "record",
        "table_close",
    ]
    events = TableEvent.objects.filter(table_session=at.table_session).exclude(kind=EventKind.OPEN)
    # one audit row per journal line written by a user's request (close writes its own line;
    # putting the croupier on duty writes none)
    assert events.count() == len(actions) - 2
    for row in rows:
        assert row.actor_id is not None and row.at is not None


def test_a_table_opened_again_the_same_night_shows_the_whole_nights_cagnotte(
    floor: Floor, around: Around
) -> None:
    """The screen's cagnotte (COM-6.4, net per COM-5.4) comes from the replay of this table
    session plus what earlier sessions of the table booked in the gaming session: the books'
    balance of the account."""
    at = Croupier(cf_table(floor), floor.croupier, around)
    at.do("new_shoe", cut_by=1)
    at.play(cf_banker_wins(1000))
    at.do("continue_bank", 1, reliquat=0)
    first = table_state_get(table_session=at.table_session).cagnotte_chips
    assert first > 0
    with around():
        table_session_close(table_session=at.table_session, user=floor.inspector)
    again = table_session_open(
        table=at.table_session.table,
        gaming_session=floor.gaming_session,
        opened_by=floor.manager,
        seats={seat: f"S{seat}" for seat in range(1, 7)},
    )
    staff_assign(
        table_session=again,
        staff=floor.croupier,
        role=AssignmentRole.CROUPIER,
        assigned_by=floor.manager,
    )
    assert table_state_get(table_session=again).cagnotte_chips == first
    later = Croupier(again, floor.croupier, around)
    later.do("new_shoe", cut_by=1)
    later.play(cf_banker_wins(2000))
    shown = table_state_get(table_session=again).cagnotte_chips
    booked = account_balance_get(
        account=Account.objects.get(
            kind=AccountKind.CAGNOTTE,
            place=table_place(again.table.public_id),
            gaming_session=floor.gaming_session,
        )
    )
    assert shown == booked > first
