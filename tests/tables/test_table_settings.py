"""Table settings are validated by the engine against §1 of each game file (docs/rules/)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from establishment.roles import Role
from tables.engine import GAMES
from tables.models import Game, Table
from tables.services import table_create
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager() -> User:
    """Tables are configured by a manager (establishment.roles.TABLE_CONFIGURERS)."""
    return UserFactory.create(roles=[Role.MANAGER])


def test_the_games_offered_are_the_engines() -> None:
    assert set(Game.values) == set(GAMES)


@pytest.mark.parametrize(
    ("game", "settings", "setting", "allowed"),
    [
        # chemin-de-fer.md §1: decks 1–8 (CF-I21).
        (Game.CHEMIN_DE_FER, {"decks": 9}, "decks", "1–8"),
        (Game.CHEMIN_DE_FER, {"decks": 0}, "decks", "1–8"),
        # lansquenet-moderne.md §1: decks 1–6.
        (Game.LANSQUENET_MODERNE, {"decks": 7}, "decks", "1–6"),
        # every game: cagnotte_rate_bp 0–10000 (COM-6.1).
        (Game.PONTOON, {"cagnotte_rate_bp": 10001}, "cagnotte_rate_bp", "10000"),
    ],
)
def test_settings_out_of_range_are_refused_naming_the_setting_and_range(
    game: Game, settings: dict[str, object], setting: str, allowed: str, manager: User
) -> None:
    with pytest.raises(ValidationError) as caught:
        table_create(number=1, game=game, settings=settings, created_by=manager)

    messages = caught.value.message_dict["settings"]
    assert any(setting in message and allowed in message for message in messages), messages
    assert caught.value.error_dict["settings"][0].code == "E_SETTING"
    assert not Table.objects.exists()


def test_an_unknown_setting_is_refused(manager: User) -> None:
    with pytest.raises(ValidationError) as caught:
        table_create(
            number=1,
            game=Game.CHEMIN_DE_FER,
            settings={"decks": 6, "colour": "red"},
            created_by=manager,
        )
    assert "colour" in " ".join(caught.value.message_dict["settings"])


def test_valid_settings_are_stored_with_their_defaults(manager: User) -> None:
    table = table_create(
        number=7, game=Game.CHEMIN_DE_FER, settings={"decks": 6}, created_by=manager
    )

    table.refresh_from_db()
    assert table.settings["decks"] == 6
    assert table.settings["cagnotte_rate_bp"] == 500  # COM-6.1 default
    assert table.seat_count == 12  # SCENARIOS.md default


def test_model_validation_uses_the_engine_too() -> None:
    table = Table(number=3, game=Game.CHEMIN_DE_FER, settings={"decks": 9}, seat_count=12)
    with pytest.raises(ValidationError) as caught:
        table.full_clean()
    assert "decks" in " ".join(caught.value.message_dict["settings"])
