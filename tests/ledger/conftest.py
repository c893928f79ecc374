from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest
from django.contrib.auth.models import User

from establishment.models import GamingSession
from ledger.models import Account
from reports.models import SettlementReport
from tests.factories import GamingSessionFactory, PlayerFactory, TableFactory, UserFactory
from tests.ledger.accounts import cagnotte_account, player_position_account

if TYPE_CHECKING:
    from tests.ledger.test_settlement import Night


@dataclass
class Books:
    poster: User
    gaming_session: GamingSession
    alice: Account
    bob: Account
    cagnotte: Account


@pytest.fixture
def books(db: None) -> Books:
    poster = UserFactory.create()
    gaming_session = GamingSessionFactory.create(opened_by=poster)
    table = TableFactory.create()
    return Books(
        poster=poster,
        gaming_session=gaming_session,
        alice=player_position_account(player=PlayerFactory.create(), gaming_session=gaming_session),
        bob=player_position_account(player=PlayerFactory.create(), gaming_session=gaming_session),
        cagnotte=cagnotte_account(table=table, gaming_session=gaming_session),
    )


@pytest.fixture
def settled(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> tuple[Night, SettlementReport]:
    """A night of the first two session scenarios, closed and settled (the registers are read
    from it too: tests/registers/)."""
    from tests.ledger.test_settlement import SESSION_SCENARIOS, close_night, play_night

    night = play_night(SESSION_SCENARIOS[:2])
    return night, close_night(night, django_capture_on_commit_callbacks)
