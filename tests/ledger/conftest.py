from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User

from establishment.models import GamingSession
from ledger.models import Account
from tests.factories import GamingSessionFactory, PlayerFactory, TableFactory, UserFactory
from tests.ledger.accounts import cagnotte_account, player_position_account


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
