from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from establishment.errors import InvalidStateError
from establishment.roles import Role
from tables.models import (
    AssignmentRole,
    CroupierAssignment,
    ImmutableFieldError,
    Sabot,
    TableSession,
)
from tables.services import (
    StaffRoleError,
    sabot_open,
    staff_assign,
    table_session_close,
    table_session_open,
)
from tests.factories import (
    GamingSessionFactory,
    PlayerFactory,
    TableFactory,
    TableSessionFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def test_a_tables_number_never_changes() -> None:
    table = TableFactory.create(number=4)
    table.number = 5
    with pytest.raises(ImmutableFieldError):
        table.save()


def test_two_tables_in_service_cannot_share_a_number() -> None:
    TableFactory.create(number=4)
    with pytest.raises(IntegrityError), transaction.atomic():
        TableFactory.create(number=4)
    TableFactory.create(number=4, is_active=False)  # a retired table keeps its number


def test_a_table_is_open_once_at_a_time() -> None:
    table_session = TableSessionFactory.create()
    with pytest.raises(IntegrityError), transaction.atomic():
        TableSessionFactory.create(table=table_session.table)


def test_opening_a_table_freezes_its_settings() -> None:
    gaming_session = GamingSessionFactory.create()
    table = TableFactory.create()
    opened = table_session_open(
        table=table, gaming_session=gaming_session, opened_by=gaming_session.opened_by
    )
    # Frozen with the engine's defaults filled in (docs/rules/ §1).
    assert opened.settings["decks"] == 6
    assert opened.settings["cagnotte_rate_bp"] == 500
    assert (opened.game, opened.seat_count) == (table.game, table.seat_count)
    with pytest.raises(InvalidStateError):
        table_session_open(
            table=table, gaming_session=gaming_session, opened_by=gaming_session.opened_by
        )


def test_only_croupiers_are_assigned_as_croupiers_and_a_new_one_relieves_the_last() -> None:
    table_session = TableSessionFactory.create()
    manager = UserFactory.create(roles=[Role.MANAGER])
    croupier = UserFactory.create(roles=[Role.CROUPIER])
    other = UserFactory.create(roles=[Role.CROUPIER])

    with pytest.raises(StaffRoleError):
        staff_assign(
            table_session=table_session,
            staff=manager,
            role=AssignmentRole.CROUPIER,
            assigned_by=manager,
        )
    first = staff_assign(
        table_session=table_session,
        staff=croupier,
        role=AssignmentRole.CROUPIER,
        assigned_by=manager,
    )
    second = staff_assign(
        table_session=table_session,
        staff=other,
        role=AssignmentRole.CROUPIER,
        assigned_by=manager,
    )
    first.refresh_from_db()
    assert first.released_at == second.assigned_at
    assert first.released_by == manager
    on_duty = CroupierAssignment.objects.filter(table_session=table_session, released_at=None)
    assert list(on_duty) == [second]


def test_sabots_are_numbered_and_one_is_in_play() -> None:
    table_session = TableSessionFactory.create()
    inspector = UserFactory.create(roles=[Role.INSPECTOR])
    first = sabot_open(table_session=table_session, opened_by=inspector)
    second = sabot_open(table_session=table_session, opened_by=inspector)

    assert (first.number, second.number) == (1, 2)
    assert Sabot.objects.filter(table_session=table_session, closed_at__isnull=True).get() == second


def test_closing_a_table_releases_seats_staff_and_sabot() -> None:
    inspector = UserFactory.create(roles=[Role.INSPECTOR])
    player = PlayerFactory.create()
    table_session = table_session_open(
        table=TableFactory.create(),
        gaming_session=GamingSessionFactory.create(),
        opened_by=inspector,
        seats={1: player.member_number},
    )
    sabot_open(table_session=table_session, opened_by=inspector)

    closed = table_session_close(table_session=table_session, user=inspector)

    assert closed.closed_at is not None
    assert not closed.seat_occupancies.filter(left_at__isnull=True).exists()
    assert not closed.sabots.filter(closed_at__isnull=True).exists()
    assert not TableSession.objects.filter(closed_at__isnull=True).exists()
