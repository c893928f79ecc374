"""Corrections: nothing is edited in place (issue: storing coups, "Corrections").

An undo is an event of its own with who and why; a void is asked for by one person and
approved by a second, an inspector, and posts reversals linked to the originals; the voided
coup and the coup recorded again both stay visible.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager
from functools import partial
from typing import Any

import pytest

from establishment.confirmation import ConfirmationError
from establishment.errors import DomainError, ErrorCode, PermissionDeniedError
from establishment.models import AuditEntry
from ledger.models import Transaction
from tables.models import Coup, EventKind, TableEvent, TableSession, VoidDecision
from tables.selectors import (
    cagnotte_balance_get,
    coup_events_get,
    coup_list,
    event_list,
    recent_coup_list,
    table_state_get,
)
from tables.services import (
    RuleRefusedError,
    open_coup_void,
    void_decide,
    void_request,
)
from tables.services.corrections import CorrectionError
from tables.services.journal import last_seq_get
from tests.concurrency.kit import (
    Croupier,
    Floor,
    bounded_balances_negative,
    cf_banker_wins,
    cf_ponte_wins,
    cf_table,
    cf_tie,
    engine_totals,
    ledger_totals,
    players_ensure,
    session_transactions,
    unbalanced_transactions,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def around(
    django_capture_on_commit_callbacks: Callable[..., AbstractContextManager[Any]],
) -> Callable[[], AbstractContextManager[Any]]:
    return partial(django_capture_on_commit_callbacks, execute=True)


@pytest.fixture
def croupier(floor: Floor, around: Callable[[], AbstractContextManager[Any]]) -> Croupier:
    table = cf_table(floor)
    at = Croupier(table, floor.croupier, around)
    at.do("new_shoe", cut_by=1)
    return at


def _books_agree(table_session: TableSession) -> None:
    """The ledger equals the engine's replay of the stored journal; INV-1 and INV-2 hold; the
    cagnotte the screen shows (from the replay) is the books' balance."""
    assert ledger_totals(table_session) == engine_totals(table_session)
    assert unbalanced_transactions() == []
    assert bounded_balances_negative() == []
    shown = table_state_get(table_session=table_session).cagnotte_chips
    assert shown == cagnotte_balance_get(
        table=table_session.table, gaming_session=table_session.gaming_session
    )


def _audited(table_session: TableSession) -> list[str]:
    return list(
        AuditEntry.objects.filter(table_session_id=table_session.pk)
        .order_by("pk")
        .values_list("action", flat=True)
    )


# -- undo ------------------------------------------------------------------------------------


def test_undo_is_an_event_of_its_own_with_who_and_why(croupier: Croupier, floor: Floor) -> None:
    croupier.do("announce_bank", 1, amount=1000)
    before = last_seq_get(croupier.table_session)

    done = croupier.undo(reason="announced 1000, meant 500")

    ts = croupier.table_session
    event = TableEvent.objects.get(table_session=ts, seq=done.seq)
    assert (event.kind, event.sets_aside, event.recorded_by) == (
        EventKind.UNDO,
        [before],
        floor.croupier,
    )
    assert event.reason == "announced 1000, meant 500"
    assert done.outcome["undone"] == before
    assert done.outcome["undone_action"]["amount"] == 1000
    state = table_state_get(table_session=ts)
    assert state.phase == "bank_pending" and "announce_bank" in state.legal_types
    # the undone action stays in the journal, after it the undo
    kinds = [(e.seq, e.kind) for e in event_list(table_session=ts)]
    assert kinds[-2:] == [(before, EventKind.ACTION), (done.seq, EventKind.UNDO)]
    assert _audited(ts)[-1] == "undo"
    audit = AuditEntry.objects.filter(table_session_id=ts.pk, action="undo").get()
    assert audit.actor == floor.croupier
    assert audit.data["reason"] == "announced 1000, meant 500"

    croupier.do("announce_bank", 1, amount=500)
    assert table_state_get(table_session=ts).view["bank"] == 500


def test_undo_twice_walks_back_and_nothing_left_is_refused(
    floor: Floor, around: Callable[[], AbstractContextManager[Any]]
) -> None:
    at = Croupier(cf_table(floor), floor.croupier, around)
    at.do("new_shoe", cut_by=1)
    at.do("announce_bank", 1, amount=1000)
    at.undo()
    at.undo()  # the new shoe too
    assert table_state_get(table_session=at.table_session).view["pack"] is None
    with pytest.raises(CorrectionError) as refused:
        at.undo()
    assert refused.value.code == ErrorCode.NOTHING_TO_UNDO


def test_undo_refused_when_the_last_action_settled_a_coup(croupier: Croupier) -> None:
    croupier.play(cf_banker_wins(1000))
    seq = last_seq_get(croupier.table_session)
    with pytest.raises(CorrectionError) as refused:
        croupier.undo()
    assert refused.value.code == ErrorCode.CANNOT_UNDO
    assert last_seq_get(croupier.table_session) == seq  # nothing written


def test_undo_refused_when_the_last_action_settled_a_coup_that_moved_no_money(
    croupier: Croupier,
) -> None:
    # A tie settles coup 2 with no transfer: there is a coup row, and no posting.
    croupier.play(cf_banker_wins(1000))
    croupier.do("continue_bank", 1, reliquat=0)
    croupier.play(cf_tie(1950))
    assert Coup.objects.filter(table_session=croupier.table_session).count() == 2
    with pytest.raises(CorrectionError) as refused:
        croupier.undo()
    assert refused.value.code == ErrorCode.CANNOT_UNDO


def test_undo_refused_after_money_moved_on_a_settled_coup(croupier: Croupier) -> None:
    croupier.play(cf_banker_wins(1000))
    croupier.do("continue_bank", 1, reliquat=500)  # CF-5.5 a reliquat set aside, booked
    with pytest.raises(CorrectionError):
        croupier.undo()
    _books_agree(croupier.table_session)


# -- void of a settled coup --------------------------------------------------------------------


def test_void_requested_by_the_croupier_approved_by_an_inspector(
    croupier: Croupier, floor: Floor
) -> None:
    ts = croupier.table_session
    croupier.play(cf_banker_wins(1000))
    croupier.do("continue_bank", 1, reliquat=500)
    booked = session_transactions(ts)
    assert len(booked) == 2  # the coup, then the reliquat set aside after it
    assert ledger_totals(ts) == {"S1": 450, "S3": -1000, "cagnotte": 50, "reliquat:S1": 500}
    coup = Coup.objects.get(table_session=ts, number=1)

    request = void_request(coup=coup, user=floor.croupier, reason="wrong ponte card keyed")
    decision = void_decide(
        password="password", request=request, user=floor.inspector, approve=True, note="seen"
    )

    assert decision.approved and decision.event is not None
    assert decision.event.kind == EventKind.VOID
    reversals = [t for t in session_transactions(ts) if t.reverses_id is not None]
    assert sorted(t.reverses_id or 0 for t in reversals) == sorted(t.pk for t in booked)
    for reversal in reversals:
        original = reversal.reverses
        assert original is not None
        mirrored = sorted((e.account_id, e.side, e.amount) for e in original.entries.all())
        assert (
            sorted(
                (e.account_id, "credit" if e.side == "debit" else "debit", e.amount)
                for e in reversal.entries.all()
            )
            == mirrored
        )
    assert ledger_totals(ts) == {}  # every balance back to before the coup
    _books_agree(ts)
    state = table_state_get(table_session=ts)
    assert state.phase == "bank_pending" and state.banker == "S1"

    # The coup recorded again (a ponte win this time) is booked; both stay visible.
    croupier.play(cf_ponte_wins(1000))
    _books_agree(ts)
    assert ledger_totals(ts) == {"S1": -1000, "S3": 1000}
    listed = [(c.number, c.outcome, c.is_voided) for c in coup_list(table_session=ts)]  # type: ignore[attr-defined]
    assert listed == [(1, "ponte_wins", False), (1, "banker_wins", True)]
    history = [e.kind for e in coup_events_get(coup=coup)]
    assert history[-1] == EventKind.ACTION and len(history) == 5
    assert [e.kind for e in event_list(table_session=ts)].count(EventKind.VOID) == 1
    assert _audited(ts).count("void_request") == 1
    approved = AuditEntry.objects.get(table_session_id=ts.pk, action="void_approved")
    assert approved.actor == floor.inspector
    assert approved.data["requested_by"] == floor.croupier.get_username()
    assert len(approved.data["reversed"]) == 2


def test_void_refused_when_the_approver_is_the_requester(croupier: Croupier, floor: Floor) -> None:
    croupier.play(cf_banker_wins(1000))
    coup = Coup.objects.get(table_session=croupier.table_session, number=1)
    request = void_request(coup=coup, user=floor.inspector, reason="dispute")
    with pytest.raises(CorrectionError) as refused:
        void_decide(password="password", request=request, user=floor.inspector, approve=True)
    assert refused.value.code == ErrorCode.SECOND_PERSON_REQUIRED
    with pytest.raises(PermissionDeniedError):
        void_decide(password="password", request=request, user=floor.croupier, approve=True)
    assert not VoidDecision.objects.exists()
    # The second person proves who he is: a wrong or missing password decides nothing.
    for wrong in ("not-his", ""):
        with pytest.raises(ConfirmationError):
            void_decide(password=wrong, request=request, user=floor.inspector2, approve=True)
    assert not VoidDecision.objects.exists()
    void_decide(password="password", request=request, user=floor.inspector2, approve=True)
    assert ledger_totals(croupier.table_session) == {}


def test_void_refused_for_a_coup_that_is_not_the_last(croupier: Croupier, floor: Floor) -> None:
    croupier.play(cf_banker_wins(1000))
    croupier.do("continue_bank", 1, reliquat=0)
    croupier.play(cf_ponte_wins(1950))
    first = Coup.objects.get(table_session=croupier.table_session, number=1)
    request = void_request(coup=first, user=floor.croupier, reason="late complaint")
    before = ledger_totals(croupier.table_session)
    with pytest.raises(CorrectionError) as refused:
        void_decide(password="password", request=request, user=floor.inspector, approve=True)
    assert refused.value.code == ErrorCode.VOID_NOT_LAST
    assert ledger_totals(croupier.table_session) == before
    assert not Transaction.objects.filter(reverses__isnull=False).exists()


def test_void_refused_by_the_inspector_changes_nothing(croupier: Croupier, floor: Floor) -> None:
    croupier.play(cf_banker_wins(1000))
    coup = Coup.objects.get(table_session=croupier.table_session, number=1)
    request = void_request(coup=coup, user=floor.croupier, reason="dispute")
    with pytest.raises(CorrectionError):  # one pending request per coup
        void_request(coup=coup, user=floor.inspector, reason="again")
    decision = void_decide(
        password="password", request=request, user=floor.inspector, approve=False, note="no"
    )
    assert not decision.approved and decision.event is None
    with pytest.raises(CorrectionError) as decided:
        void_decide(password="password", request=request, user=floor.inspector2, approve=True)
    assert decided.value.code == ErrorCode.VOID_DECIDED
    assert ledger_totals(croupier.table_session)["S3"] == -1000
    assert _audited(croupier.table_session)[-1] == "void_refused"
    void_request(coup=coup, user=floor.croupier, reason="new evidence")  # may ask again


def test_void_request_needs_a_reason(croupier: Croupier, floor: Floor) -> None:
    croupier.play(cf_banker_wins(1000))
    coup = Coup.objects.get(table_session=croupier.table_session, number=1)
    with pytest.raises(DomainError):
        void_request(coup=coup, user=floor.croupier, reason="  ")


def test_a_voided_coup_cannot_be_voided_twice(croupier: Croupier, floor: Floor) -> None:
    croupier.play(cf_banker_wins(1000))
    coup = Coup.objects.get(table_session=croupier.table_session, number=1)
    void_decide(
        password="password",
        request=void_request(coup=coup, user=floor.croupier, reason="x"),
        user=floor.inspector,
        approve=True,
    )
    with pytest.raises(CorrectionError) as refused:
        void_request(coup=coup, user=floor.croupier, reason="again")
    assert refused.value.code == ErrorCode.VOID_DECIDED


# -- void of the coup in progress ----------------------------------------------------------


def test_open_coup_void_by_an_inspector(croupier: Croupier, floor: Floor) -> None:
    ts = croupier.table_session
    croupier.do("announce_bank", 1, amount=1000)
    croupier.do("banco_call", claims=[{"player": 3, "kind": "banco"}])
    seq = last_seq_get(ts)

    def void(user: Any, reason: str = "the shoe fell") -> Any:
        return open_coup_void(
            table_session=ts,
            expected_seq=last_seq_get(ts) + 1,
            user=user,
            idempotency_key=str(uuid.uuid4()),
            reason=reason,
        )

    with pytest.raises(PermissionDeniedError):
        void(floor.croupier)
    with pytest.raises(DomainError):
        void(floor.inspector, reason="")
    done = void(floor.inspector)
    event = TableEvent.objects.get(table_session=ts, seq=done.seq)
    assert event.kind == EventKind.VOID and event.sets_aside == [seq - 1, seq]
    assert event.recorded_by == floor.inspector and event.reason == "the shoe fell"
    state = table_state_get(table_session=ts)
    assert state.phase == "bank_pending" and state.view["pack"] is not None  # the shoe stays
    assert session_transactions(ts) == []
    assert _audited(ts)[-1] == "open_coup_void"
    with pytest.raises(CorrectionError) as nothing:
        void(floor.inspector)
    assert nothing.value.code == ErrorCode.NOTHING_TO_UNDO
    croupier.play(cf_banker_wins(1000))
    _books_agree(ts)


def test_a_refused_action_changes_nothing(croupier: Croupier) -> None:
    seq = last_seq_get(croupier.table_session)
    with pytest.raises(RuleRefusedError) as refused:
        croupier.do("deal", ponte=["4", "4"], banker=["5", "2"])
    assert refused.value.rule_code == "E_WRONG_STATE"
    assert last_seq_get(croupier.table_session) == seq


def test_what_followed_the_last_coup_stays_when_the_next_one_is_voided(
    croupier: Croupier, floor: Floor
) -> None:
    # Coup 1 settles, the banker goes on without a reliquat (no money moves), a player sits
    # down, coup 2 starts. Voiding coup 2 (open, then settled) keeps the bank decision of
    # coup 1 and the new player: they are no part of coup 2.
    ts = croupier.table_session
    croupier.play(cf_banker_wins(1000))
    croupier.do("continue_bank", 1, reliquat=0)
    players_ensure(["LATE"])
    croupier.do("sit", player="LATE", seat=7)
    croupier.do("announce_bank", 1, amount=1950)
    open_coup_void(
        table_session=ts,
        expected_seq=last_seq_get(ts) + 1,
        user=floor.inspector,
        idempotency_key="void-open-2",
        reason="wrong bank keyed",
    )
    state = table_state_get(table_session=ts)
    assert state.phase == "bank_pending" and "LATE" in [s.player_code for s in state.seats]
    croupier.play(cf_ponte_wins(1950))
    coup = Coup.objects.get(table_session=ts, number=2)
    first = TableEvent.objects.get(table_session=ts, seq=coup.first_seq)
    assert first.action["type"] == "announce_bank"  # not coup 1's bank decision, not the sit
    void_decide(
        password="password",
        request=void_request(coup=coup, user=floor.croupier, reason="x"),
        user=floor.inspector,
        approve=True,
    )
    state = table_state_get(table_session=ts)
    assert state.phase == "bank_pending" and state.banker == "S1"
    assert "LATE" in [s.player_code for s in state.seats]
    _books_agree(ts)


def _void_states(coups: Any) -> list[tuple[int, int, bool, bool]]:
    return [(c.pk, c.number, bool(c.is_voided), bool(c.void_pending)) for c in coups]


def test_the_screens_last_coups_say_what_the_coup_list_says_through_every_void_state(
    croupier: Croupier, floor: Floor
) -> None:
    """`recent_coup_list` (written out for the table screen) and `coup_list` (the ORM, for the
    API and the reports) state the void rule twice: they must agree — a coup with no request, a
    request waiting, one refused, one approved, and the coup recorded again after it."""
    table_session = croupier.table_session

    def agree(expected: list[tuple[int, bool, bool]]) -> None:
        recent = _void_states(recent_coup_list(table_session=table_session, limit=10))
        assert recent == _void_states(coup_list(table_session=table_session))
        assert [(number, voided, pending) for _pk, number, voided, pending in recent] == expected

    croupier.play(cf_banker_wins(1000))
    croupier.do("continue_bank", 1, reliquat=0)
    croupier.play(cf_ponte_wins(1950))
    agree([(2, False, False), (1, False, False)])
    second = Coup.objects.get(table_session=table_session, number=2)
    asked = void_request(coup=second, user=floor.croupier, reason="dispute")
    agree([(2, False, True), (1, False, False)])
    void_decide(password="password", request=asked, user=floor.inspector, approve=False, note="no")
    agree([(2, False, False), (1, False, False)])
    asked = void_request(coup=second, user=floor.croupier, reason="new evidence")
    void_decide(password="password", request=asked, user=floor.inspector, approve=True, note="seen")
    agree([(2, True, False), (1, False, False)])
    assert [c.number for c in recent_coup_list(table_session=table_session, limit=1)] == [2]
