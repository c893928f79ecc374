"""Writes for the establishment: players and gaming sessions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

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
