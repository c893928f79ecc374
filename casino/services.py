"""Writes for the establishment: players and gaming sessions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from casino.errors import InvalidStateError
from casino.models import GamingSession, Player

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@transaction.atomic
def player_create(*, name: str, member_number: str) -> Player:
    player = Player(name=name, member_number=member_number)
    player.full_clean()
    player.save()
    return player


@transaction.atomic
def gaming_session_open(*, opened_by: User) -> GamingSession:
    session = GamingSession(opened_at=timezone.now(), opened_by=opened_by)
    session.full_clean()
    session.save()
    return session


@transaction.atomic
def gaming_session_close(*, gaming_session: GamingSession, closed_by: User) -> GamingSession:
    """Close a séance once every table in it is closed."""
    locked = GamingSession.objects.select_for_update().get(pk=gaming_session.pk)
    if locked.closed_at is not None:
        raise InvalidStateError("This gaming session is already closed.")
    if locked.table_sessions.filter(closed_at__isnull=True).exists():
        raise InvalidStateError("Close every table of this gaming session first.")
    locked.closed_at = timezone.now()
    locked.closed_by = closed_by
    locked.save(update_fields=["closed_at", "closed_by"])
    return locked
