"""Configuration services check who acts, whatever calls them, and write who did it.

Tables (number, game, settings: the cagnotte's rate among them) are the manager's; the gaming
session, openings, staff on duty and the players' register are an inspector's or a manager's;
a sabot is brought by the croupier on duty or an inspector (`establishment.roles`). A refusal is a
403 `permission_denied` that writes nothing; a write leaves its audit row with the actor.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from establishment.errors import ErrorCode, PermissionDeniedError
from establishment.models import AuditEntry, GamingSession, Player
from establishment.roles import Role
from establishment.services import gaming_session_open, player_create
from tables.models import AssignmentRole, CroupierAssignment, Sabot, Table, TableSession
from tables.services import sabot_open, staff_assign, table_create, table_session_open
from tests.factories import GamingSessionFactory, TableFactory, TableSessionFactory, UserFactory

pytestmark = pytest.mark.django_db


def _user(*roles: Role) -> User:
    return UserFactory.create(roles=list(roles))


def _refused(write: Callable[[], Any], what: str) -> PermissionDeniedError:
    audit_rows = AuditEntry.objects.count()
    with pytest.raises(PermissionDeniedError) as refused:
        write()
    assert refused.value.code == ErrorCode.PERMISSION_DENIED
    assert refused.value.http_status == 403
    assert what in refused.value.message
    assert AuditEntry.objects.count() == audit_rows
    return refused.value


@pytest.mark.parametrize("role", [Role.INSPECTOR, Role.CROUPIER, Role.AUDITOR, Role.CHANGEUR])
def test_only_a_manager_creates_a_table(role: Role) -> None:
    refused = _refused(
        lambda: table_create(number=3, game="pontoon", created_by=_user(role)), "create a table"
    )
    assert refused.extra["roles"] == [Role.MANAGER]
    assert not Table.objects.exists()


def test_a_created_table_keeps_who_set_its_settings_in_the_audit_log() -> None:
    manager = _user(Role.MANAGER)

    table = table_create(
        number=9,
        game="chemin_de_fer",
        settings={"decks": 6, "cagnotte_rate_bp": 400},
        created_by=manager,
        client="api",
    )

    row = AuditEntry.objects.get(action="table_create")
    assert row.actor == manager and row.client == "api"
    assert row.data["table"] == 9 and row.data["game"] == "chemin_de_fer"
    assert row.data["settings"] == table.settings  # with the engine's defaults filled in
    assert row.data["settings"]["cagnotte_rate_bp"] == 400
    assert row.data["seat_count"] == table.seat_count == 12


def test_an_inactive_manager_creates_nothing() -> None:
    manager = _user(Role.MANAGER)
    manager.is_active = False
    manager.save()

    _refused(lambda: table_create(number=3, game="pontoon", created_by=manager), "create a table")


@pytest.mark.parametrize("role", [Role.CROUPIER, Role.AUDITOR, Role.CHANGEUR])
def test_players_are_registered_by_an_inspector_or_a_manager(role: Role) -> None:
    _refused(
        lambda: player_create(name="Ann", member_number="M-1", created_by=_user(role)),
        "register a player",
    )
    assert not Player.objects.exists()

    inspector = _user(Role.INSPECTOR)
    player = player_create(name="Ann", member_number="M-1", created_by=inspector)

    row = AuditEntry.objects.get(action="player_create")
    assert row.actor == inspector
    assert row.data == {"player": str(player.public_id), "member_number": "M-1", "name": "Ann"}


def test_the_gaming_session_is_opened_by_an_inspector_or_a_manager() -> None:
    _refused(lambda: gaming_session_open(opened_by=_user(Role.CROUPIER)), "gaming session")
    assert not GamingSession.objects.exists()

    manager = _user(Role.MANAGER)
    session = gaming_session_open(opened_by=manager, client="console")

    row = AuditEntry.objects.get(action="gaming_session_open")
    assert (row.actor, row.gaming_session, row.client) == (manager, session, "console")


def test_a_table_is_opened_by_an_inspector_or_a_manager() -> None:
    table = TableFactory.create()
    gaming_session = GamingSessionFactory.create()

    _refused(
        lambda: table_session_open(
            table=table, gaming_session=gaming_session, opened_by=_user(Role.CROUPIER)
        ),
        "open a table",
    )

    assert not TableSession.objects.exists()
    inspector = _user(Role.INSPECTOR)
    opened = table_session_open(table=table, gaming_session=gaming_session, opened_by=inspector)
    assert AuditEntry.objects.get(action="table_open").table_session_id == opened.pk


def test_staff_are_put_on_duty_by_an_inspector_or_a_manager() -> None:
    table_session = TableSessionFactory.create()
    croupier = _user(Role.CROUPIER)

    _refused(
        lambda: staff_assign(
            table_session=table_session,
            staff=croupier,
            role=AssignmentRole.CROUPIER,
            assigned_by=croupier,
        ),
        "put staff on duty",
    )
    assert not CroupierAssignment.objects.exists()

    inspector = _user(Role.INSPECTOR)
    staff_assign(
        table_session=table_session,
        staff=croupier,
        role=AssignmentRole.CROUPIER,
        assigned_by=inspector,
    )
    row = AuditEntry.objects.get(action="staff_assign")
    assert (row.actor, row.table_session_id) == (inspector, table_session.pk)
    assert row.data == {"staff": croupier.username, "role": "croupier", "relieved": None}


def test_a_sabot_is_brought_by_the_croupier_on_duty_or_an_inspector() -> None:
    table_session = TableSessionFactory.create()
    on_duty, elsewhere = _user(Role.CROUPIER), _user(Role.CROUPIER)
    staff_assign(
        table_session=table_session,
        staff=on_duty,
        role=AssignmentRole.CROUPIER,
        assigned_by=table_session.opened_by,
    )

    _refused(lambda: sabot_open(table_session=table_session, opened_by=elsewhere), "croupier")
    _refused(
        lambda: sabot_open(table_session=table_session, opened_by=_user(Role.MANAGER)),
        "croupier on duty",
    )
    assert not Sabot.objects.exists()

    first = sabot_open(table_session=table_session, opened_by=on_duty)
    second = sabot_open(table_session=table_session, opened_by=_user(Role.INSPECTOR))

    rows = AuditEntry.objects.filter(action="sabot_open").order_by("pk")
    assert [(r.actor_id, r.data["sabot"]) for r in rows] == [
        (on_duty.pk, first.number),
        (second.opened_by_id, second.number),
    ]
