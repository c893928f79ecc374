"""Writes at the table level (configuration, opening, seating, staff, sabots).

Recording play (`record`, coups, the bank) comes in a later change and will lock the
`TableSession` row first (ARCHITECTURE.md, "Storing a coup").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from casino.errors import DomainError, ErrorCode, InvalidStateError
from casino.models import GamingSession, Player
from casino.roles import Role
from tables.models import (
    AssignmentRole,
    CroupierAssignment,
    Sabot,
    SeatOccupancy,
    Table,
    TableSession,
)
from tables.validation import default_seat_count

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@transaction.atomic
def table_create(
    *,
    number: int,
    game: str,
    settings: Mapping[str, object] | None = None,
    seat_count: int | None = None,
    name: str = "",
) -> Table:
    """Create a table; its settings are validated by the engine and stored with defaults."""
    table = Table(
        number=number,
        game=game,
        settings=dict(settings or {}),
        seat_count=seat_count if seat_count is not None else default_seat_count(game),
        name=name,
    )
    table.full_clean()
    table.save()
    return table


@transaction.atomic
def table_session_open(
    *, table: Table, gaming_session: GamingSession, opened_by: User
) -> TableSession:
    """Open `table` in `gaming_session`, freezing its game and settings for the session."""
    locked = Table.objects.select_for_update().get(pk=table.pk)
    if not locked.is_active:
        raise InvalidStateError("This table is out of service.")
    if gaming_session.closed_at is not None:
        raise InvalidStateError("This gaming session is closed.")
    if locked.sessions.filter(closed_at__isnull=True).exists():
        raise InvalidStateError("This table is already open.")
    locked.full_clean()  # settings still valid under the current rules
    return TableSession.objects.create(
        table=locked,
        gaming_session=gaming_session,
        game=locked.game,
        settings=locked.settings,
        seat_count=locked.seat_count,
        opened_at=timezone.now(),
        opened_by=opened_by,
    )


@transaction.atomic
def table_session_close(*, table_session: TableSession, closed_by: User) -> TableSession:
    locked = TableSession.objects.select_for_update().get(pk=table_session.pk)
    if locked.closed_at is not None:
        raise InvalidStateError("This table is already closed.")
    now = timezone.now()
    SeatOccupancy.objects.filter(table_session=locked, left_at__isnull=True).update(left_at=now)
    CroupierAssignment.objects.filter(table_session=locked, released_at__isnull=True).update(
        released_at=now
    )
    Sabot.objects.filter(table_session=locked, closed_at__isnull=True).update(closed_at=now)
    locked.closed_at = now
    locked.closed_by = closed_by
    locked.save(update_fields=["closed_at", "closed_by"])
    return locked


def _open_table_session_lock(table_session: TableSession) -> TableSession:
    locked = TableSession.objects.select_for_update().get(pk=table_session.pk)
    if locked.closed_at is not None:
        raise InvalidStateError("This table is closed.")
    return locked


@transaction.atomic
def seat_occupy(*, table_session: TableSession, player: Player, seat_number: int) -> SeatOccupancy:
    """Seat `player` at `seat_number` (COM-3.8: the seat must exist and be free)."""
    locked = _open_table_session_lock(table_session)
    occupancy = SeatOccupancy(
        table_session=locked, player=player, seat_number=seat_number, sat_at=timezone.now()
    )
    occupancy.full_clean()
    occupancy.save()
    return occupancy


@transaction.atomic
def seat_leave(*, occupancy: SeatOccupancy) -> SeatOccupancy:
    _open_table_session_lock(occupancy.table_session)
    locked = SeatOccupancy.objects.select_for_update().get(pk=occupancy.pk)
    if locked.left_at is not None:
        raise InvalidStateError("This player has already left the seat.")
    locked.left_at = timezone.now()
    locked.save(update_fields=["left_at"])
    return locked


class StaffRoleError(DomainError):
    code = ErrorCode.PERMISSION_DENIED
    http_status = 403


@transaction.atomic
def staff_assign(
    *,
    table_session: TableSession,
    staff: User,
    role: AssignmentRole,
    assigned_by: User,
) -> CroupierAssignment:
    """Put a croupier or changeur on duty at a table session (a member of that role's group)."""
    locked = _open_table_session_lock(table_session)
    group = Role.CROUPIER if role == AssignmentRole.CROUPIER else Role.CHANGEUR
    if not staff.groups.filter(name=group).exists():
        raise StaffRoleError(f"{staff} is not a {group}.", staff=staff.get_username())
    assignment = CroupierAssignment(
        table_session=locked,
        staff=staff,
        role=role,
        assigned_at=timezone.now(),
        assigned_by=assigned_by,
    )
    assignment.full_clean()
    assignment.save()
    return assignment


@transaction.atomic
def sabot_open(*, table_session: TableSession, opened_by: User) -> Sabot:
    """Bring a new sabot to the table: the previous one is closed; numbers run 1, 2, …"""
    locked = _open_table_session_lock(table_session)
    now = timezone.now()
    Sabot.objects.filter(table_session=locked, closed_at__isnull=True).update(closed_at=now)
    last = Sabot.objects.filter(table_session=locked).aggregate(last=Max("number"))["last"]
    decks = locked.settings.get("decks", 1)
    return Sabot.objects.create(
        table_session=locked,
        number=(last or 0) + 1,
        decks=decks if isinstance(decks, int) else 1,
        opened_at=now,
        opened_by=opened_by,
    )
