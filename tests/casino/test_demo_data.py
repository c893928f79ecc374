from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from establishment.models import GamingSession, Player
from establishment.roles import Role
from tables.models import CroupierAssignment, Game, SeatOccupancy, Table, TableSession

pytestmark = pytest.mark.django_db


def _counts() -> dict[str, int]:
    return {
        "users": User.objects.count(),
        "players": Player.objects.count(),
        "gaming_sessions": GamingSession.objects.count(),
        "tables": Table.objects.count(),
        "table_sessions": TableSession.objects.count(),
        "seats": SeatOccupancy.objects.count(),
        "assignments": CroupierAssignment.objects.count(),
    }


def test_demo_data_loads_twice_without_duplication() -> None:
    out = StringIO()
    call_command("demo_data", allow_without_debug=True, stdout=out)
    first = _counts()
    call_command("demo_data", allow_without_debug=True, stdout=StringIO())

    assert _counts() == first
    assert sorted(Table.objects.values_list("game", flat=True)) == sorted(Game.values)
    assert TableSession.objects.filter(closed_at__isnull=True).count() == 5
    for table_session in TableSession.objects.all():
        assert table_session.seat_occupancies.count() >= 4
        assert table_session.assignments.filter(role="croupier").count() == 1
    for role in (Role.INSPECTOR, Role.AUDITOR, Role.MANAGER):
        assert User.objects.filter(groups__name=role).exists()
    assert "manager-demo" in out.getvalue()


def test_tonight_is_mid_play_at_every_table_up_to_now() -> None:
    """Tonight's tables have played their first coups through the recording service, over the
    last hour and a half, and each stands where its croupier's next action is offered."""
    from tables.engine.registry import game_get
    from tables.management.commands.demo_data import TONIGHT_COUPS, TONIGHT_STARTED
    from tables.models import TableEvent
    from tables.services.journal import journal_get, last_seq_get

    before = timezone.now()
    call_command("demo_data", allow_without_debug=True, stdout=StringIO())
    call_command("demo_data", allow_without_debug=True, stdout=StringIO())  # plays nothing more

    for seance in TableSession.objects.filter(closed_at__isnull=True):
        assert seance.coups.count() == TONIGHT_COUPS
        assert before - TONIGHT_STARTED <= seance.opened_at <= before - TONIGHT_STARTED / 2
        times = list(
            TableEvent.objects.filter(table_session=seance)
            .order_by("seq")
            .values_list("recorded_at", flat=True)
        )
        assert times == sorted(times) and times[-1] < before
        assert times[-1] - times[0] > TONIGHT_STARTED / 2  # spread over the evening
        state = journal_get(seance, last_seq_get(seance)).state
        assert game_get(seance.game).legal_actions(state)


def test_demo_data_refuses_to_run_without_debug() -> None:
    with pytest.raises(CommandError):
        call_command("demo_data", stdout=StringIO())


def test_make_demo_order_plays_the_past_nights_then_opens_tonight(settings: Any) -> None:
    """`make demo`: demo_nights (closed, settled nights) before demo_data (tonight open), one
    gaming session open at a time, every player with an identity the door took."""
    from establishment.models import ExclusionEntry
    from reports.models import ReportStatus, SettlementReport

    settings.ADMISSION_REQUIRES_IDENTITY = True  # the project's default: the table checks it
    for _run in range(2):
        call_command("demo_nights", nights=1, coups=2, allow_without_debug=True, stdout=StringIO())
        call_command("demo_data", allow_without_debug=True, stdout=StringIO())

    assert SettlementReport.objects.get().status == ReportStatus.READY
    assert GamingSession.objects.filter(closed_at__isnull=True).count() == 1
    assert not Player.objects.filter(birth_date__isnull=True).exists()
    assert User.objects.filter(username="reception", groups__name=Role.RECEPTION).exists()
    assert ExclusionEntry.objects.filter(surname="MARTIN").count() == 1
    on_duty = CroupierAssignment.objects.filter(released_at__isnull=True)
    assert on_duty.filter(role="changeur").count() == 1
    assert on_duty.values("staff").distinct().count() == on_duty.count()
