from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError

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


def test_demo_data_refuses_to_run_without_debug() -> None:
    with pytest.raises(CommandError):
        call_command("demo_data", stdout=StringIO())


def test_make_demo_order_plays_the_closed_night_then_opens_tonight(settings: Any) -> None:
    """`make demo`: demo_settlement (a closed, settled night) before demo_data (tonight open),
    one gaming session open at a time, every player with an identity the door took."""
    from establishment.models import ExclusionEntry
    from reports.models import ReportStatus, SettlementReport

    settings.ADMISSION_REQUIRES_IDENTITY = True  # the project's default: the table checks it
    for _run in range(2):
        call_command("demo_settlement", allow_without_debug=True, stdout=StringIO())
        call_command("demo_data", allow_without_debug=True, stdout=StringIO())

    assert SettlementReport.objects.get().status == ReportStatus.READY
    assert GamingSession.objects.filter(closed_at__isnull=True).count() == 1
    assert not Player.objects.filter(birth_date__isnull=True).exists()
    assert User.objects.filter(username="reception", groups__name=Role.RECEPTION).exists()
    assert ExclusionEntry.objects.filter(surname="MARTIN").count() == 1
    on_duty = CroupierAssignment.objects.filter(released_at__isnull=True)
    assert on_duty.filter(role="changeur").count() == 1
    assert on_duty.values("staff").distinct().count() == on_duty.count()
