"""The table's levy model in the table's words, on the console and the floor (docs/rules/levy.md
LV-1), and a fee above its statutory cap refused in the reader's language (LV-4)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from establishment.models import GamingSession
from tables.models import Table
from tables.services import table_create, table_session_open
from tests.concurrency.kit import UK_PONTOON
from tests.console.conftest import Floor


@pytest.fixture
def uk_table(floor: Floor) -> object:
    manager = floor.table_session.opened_by
    table = table_create(number=9, game="pontoon", settings=UK_PONTOON, created_by=manager)
    session = GamingSession.objects.get(pk=floor.table_session.gaming_session_id)
    return table_session_open(table=table, gaming_session=session, opened_by=manager)


@pytest.mark.parametrize(
    ("language", "uk_words", "cf_words"),
    [
        ("en", "300 a player a day from 12:00", "5 % of the banker&#x27;s win"),
        ("fr", "300 par joueur et par jour, dès 12 h", "5 % du gain du banquier"),
    ],
)
def test_the_floor_shows_each_tables_levy_in_its_words(
    floor: Floor, uk_table: object, language: str, uk_words: str, cf_words: str
) -> None:
    inspector = Client(headers={"Accept-Language": language})
    inspector.force_login(floor.inspector)

    page = inspector.get(reverse("console:floor")).content.decode()

    assert f'data-testid="floor-levy">{uk_words}<' in page
    assert f'data-testid="floor-levy">{cf_words}<' in page


def test_the_console_shows_its_tables_levy(floor: Floor) -> None:
    croupier = Client(headers={"Accept-Language": "fr"})
    croupier.force_login(floor.croupier)
    url = reverse("console:table", kwargs={"table_session": floor.table_session.public_id})

    page = croupier.get(url).content.decode()

    assert 'data-testid="levy">5 % du gain du banquier<' in page


def test_a_participation_fee_above_its_cap_is_refused_and_nothing_made(floor: Floor) -> None:
    api = APIClient(headers={"Accept-Language": "fr"})
    api.force_authenticate(floor.table_session.opened_by)
    body = {"number": 10, "game": "pontoon", "settings": {**UK_PONTOON, "fee_amount": 301}}

    response = api.post("/api/tables/create/", body, format="json")

    assert response.status_code == 422
    assert response.json()["code"] == "E_SETTING"
    assert "fee_maximum=300" in response.json()["message"]
    assert not Table.objects.filter(number=10).exists()
