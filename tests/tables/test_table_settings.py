"""Table settings are validated by the engine against §1 of each game file (docs/rules/)."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from establishment.errors import ErrorCode, InvalidStateError, PermissionDeniedError
from establishment.models import AuditEntry
from establishment.roles import Role
from establishment.services import gaming_session_open
from tables.engine import GAMES
from tables.models import Game, ImmutableFieldError, Table, TableSession
from tables.services import table_create, table_session_close, table_session_open, table_update
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


# -- changing a table: `table_update` and the manager's tables screen (issue 13) ---------------

MANAGE = "/console/tables/manage/"


@pytest.fixture
def table(manager: User) -> Table:
    return table_create(
        number=5, game=Game.CHEMIN_DE_FER, settings={"decks": 6}, name="Salon", created_by=manager
    )


def _manager_client(manager: User) -> Client:
    client = Client()
    client.force_login(manager)
    return client


def _update_url(table: Table) -> str:
    return f"{MANAGE}{table.public_id}/update/"


def test_a_table_is_changed_its_defaults_filled_in_and_the_old_and_new_values_audited(
    table: Table, manager: User
) -> None:
    table_update(
        table=table,
        name="Salon privé",
        seat_count=10,
        settings={"decks": 8, "cagnotte_rate_bp": 400},
        updated_by=manager,
        client="test",
    )

    table.refresh_from_db()
    assert (table.name, table.seat_count) == ("Salon privé", 10)
    assert table.settings["decks"] == 8 and table.settings["cagnotte_rate_bp"] == 400
    assert "min_stake" in table.settings  # the engine filled in the rest
    entry = AuditEntry.objects.get(action="table_update")
    assert entry.actor == manager and entry.client == "test"
    assert entry.data["table"] == 5
    assert set(entry.data["old"]) == set(entry.data["new"]) == {"name", "seat_count", "settings"}
    assert entry.data["old"]["name"] == "Salon" and entry.data["new"]["name"] == "Salon privé"
    assert entry.data["old"]["settings"]["decks"] == 6
    assert entry.data["new"]["settings"]["cagnotte_rate_bp"] == 400


def test_nothing_changed_writes_nothing(table: Table, manager: User) -> None:
    table_update(table=table, name="Salon", settings=table.settings, updated_by=manager)
    assert not AuditEntry.objects.filter(action="table_update").exists()


def test_a_setting_the_engine_refuses_changes_nothing(table: Table, manager: User) -> None:
    with pytest.raises(ValidationError) as caught:
        table_update(table=table, settings={"decks": 9}, updated_by=manager)

    refused = caught.value.error_dict["settings"][0]
    assert refused.code == "E_SETTING"
    assert "decks" in refused.message and "1–8" in refused.message
    table.refresh_from_db()
    assert table.settings["decks"] == 6
    assert not AuditEntry.objects.filter(action="table_update").exists()


@pytest.mark.parametrize("role", [Role.INSPECTOR, Role.CROUPIER, Role.AUDITOR, Role.RECEPTION])
def test_only_a_manager_changes_a_table(role: Role, table: Table) -> None:
    with pytest.raises(PermissionDeniedError) as refused:
        table_update(table=table, name="x", updated_by=UserFactory.create(roles=[role]))
    assert refused.value.code == ErrorCode.PERMISSION_DENIED
    table.refresh_from_db()
    assert table.name == "Salon"


def test_an_open_table_plays_on_with_its_settings_and_the_next_opening_takes_the_new(
    table: Table, manager: User
) -> None:
    gaming_session = gaming_session_open(opened_by=manager)
    opened = table_session_open(table=table, gaming_session=gaming_session, opened_by=manager)

    table_update(table=table, settings={"decks": 4}, seat_count=9, updated_by=manager)

    opened.refresh_from_db()
    assert opened.settings["decks"] == 6 and opened.seat_count == 12
    table_session_close(table_session=opened, user=manager)
    reopened = table_session_open(table=table, gaming_session=gaming_session, opened_by=manager)
    assert reopened.settings["decks"] == 4 and reopened.seat_count == 9


def test_an_open_table_is_not_taken_out_of_service(table: Table, manager: User) -> None:
    gaming_session = gaming_session_open(opened_by=manager)
    table_session_open(table=table, gaming_session=gaming_session, opened_by=manager)

    with pytest.raises(InvalidStateError):
        table_update(table=table, is_active=False, updated_by=manager)
    table.refresh_from_db()
    assert table.is_active


def test_out_of_service_and_back_unless_its_number_was_taken(table: Table, manager: User) -> None:
    table_update(table=table, is_active=False, updated_by=manager)
    assert not Table.objects.get(pk=table.pk).is_active
    table_update(table=table, is_active=True, updated_by=manager)
    assert Table.objects.get(pk=table.pk).is_active

    table_update(table=table, is_active=False, updated_by=manager)
    table_create(number=5, game=Game.PONTOON, created_by=manager)  # its number, reused
    with pytest.raises(ValidationError) as caught:
        table_update(table=table, is_active=True, updated_by=manager)
    assert "Another table in service has this number." in str(caught.value)
    entries = AuditEntry.objects.filter(action="table_update").order_by("pk")
    assert [e.data["new"] for e in entries] == [
        {"is_active": False},
        {"is_active": True},
        {"is_active": False},
    ]


def test_a_played_tables_game_and_any_tables_number_never_change(
    table: Table, manager: User
) -> None:
    gaming_session = gaming_session_open(opened_by=manager)
    table_session_open(table=table, gaming_session=gaming_session, opened_by=manager)
    stored = Table.objects.get(pk=table.pk)
    stored.game = Game.PONTOON
    with pytest.raises(ImmutableFieldError):
        stored.save()
    stored = Table.objects.get(pk=table.pk)
    stored.number = 6
    with pytest.raises(ImmutableFieldError):
        stored.save()


# -- the screen ---------------------------------------------------------------------------------


def test_the_screen_lists_every_table_in_service_or_not(table: Table, manager: User) -> None:
    other = table_create(number=9, game=Game.PONTOON, created_by=manager)
    table_update(table=other, is_active=False, updated_by=manager)

    html = _manager_client(manager).get(MANAGE).content.decode()

    assert 'data-table="5"' in html and 'data-table="9"' in html
    assert "Salon" in html and "Put back in service" in html and "Take out of service" in html
    assert "&quot;decks&quot;: 6" in html  # the settings, as JSON


def test_the_screen_changes_a_table_and_says_so(table: Table, manager: User) -> None:
    client = _manager_client(manager)
    settings = json.dumps(dict(table.settings) | {"decks": 8})
    body = {"name": "Grand salon", "seat_count": "12", "settings": settings}

    answer = client.post(_update_url(table), body, HTTP_HX_REQUEST="true")

    assert answer.status_code == 200
    assert "Table 5 changed" in answer.content.decode()
    table.refresh_from_db()
    assert table.name == "Grand salon" and table.settings["decks"] == 8
    # Without htmx: back to the screen.
    answer = client.post(_update_url(table), body | {"name": "Salon"})
    assert answer.status_code == 302 and answer["Location"] == MANAGE


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"settings": '{"decks": 9}'}, "1–8"),  # the engine's E_SETTING, in its words
        ({"settings": '{"colour": "red"}'}, "colour"),
        ({"settings": "{not json"}, "JSON"),
        ({"settings": "[1, 2]"}, "JSON object"),
        ({"settings": '"decks"'}, "JSON object"),
        ({"seat_count": "many"}, "seat_count"),
        ({"seat_count": "0"}, "seat_count"),
        ({"seat_count": "31"}, "seat_count"),
        ({"name": "x" * 101}, "name"),
        ({"settings": ""}, "settings"),
    ],
)
def test_bad_input_is_refused_in_place_with_a_clear_message(
    body: dict[str, str], said: str, table: Table, manager: User
) -> None:
    client = _manager_client(manager)
    posted = {"name": "Salon", "seat_count": "12", "settings": '{"decks": 6}'} | body

    for htmx in (True, False):
        headers: dict[str, Any] = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        answer = client.post(_update_url(table), posted, **headers)
        assert answer.status_code == 422
        problem = re.search(r'data-testid="problem">([^<]+)<', answer.content.decode())
        assert problem and said in problem.group(1), problem
    table.refresh_from_db()
    assert table.settings["decks"] == 6 and table.name == "Salon"


def test_what_was_typed_stays_on_the_screen_after_a_refusal(table: Table, manager: User) -> None:
    answer = _manager_client(manager).post(
        _update_url(table),
        {"name": "Typed", "seat_count": "12", "settings": '{"decks": 9}'},
        HTTP_HX_REQUEST="true",
    )
    html = answer.content.decode()
    assert 'value="Typed"' in html and "{&quot;decks&quot;: 9}" in html


def test_the_screen_creates_a_table_and_refuses_bad_ones(manager: User) -> None:
    client = _manager_client(manager)
    create = f"{MANAGE}create/"

    answer = client.post(
        create, {"number": "3", "game": "pontoon", "settings": ""}, HTTP_HX_REQUEST="true"
    )
    assert answer.status_code == 200 and "Table 3 created." in answer.content.decode()
    assert Table.objects.get(number=3).seat_count == 8  # pontoon's default

    for bad in (
        {"number": "3", "game": "pontoon"},  # in service already
        {"number": "4", "game": "whist"},
        {"number": "-1", "game": "pontoon"},
        {"number": "", "game": "pontoon"},
        {"number": "4", "game": "chemin_de_fer", "settings": '{"decks": 99}'},
        {"number": "4", "game": "chemin_de_fer", "seat_count": "abc"},
    ):
        answer = client.post(create, bad, HTTP_HX_REQUEST="true")
        assert answer.status_code == 422, bad
        assert 'data-testid="problem"' in answer.content.decode()
    assert Table.objects.count() == 1


def test_taking_out_of_service_from_the_screen(table: Table, manager: User) -> None:
    client = _manager_client(manager)
    url = f"{MANAGE}{table.public_id}/service/"

    assert client.post(url, {"service": "out"}, HTTP_HX_REQUEST="true").status_code == 200
    table.refresh_from_db()
    assert not table.is_active
    assert client.post(url, {"service": "sideways"}, HTTP_HX_REQUEST="true").status_code == 422
    assert client.post(url, {"service": "back"}).status_code == 302
    table.refresh_from_db()
    assert table.is_active


def test_an_open_table_taken_out_of_service_is_refused_in_place(
    table: Table, manager: User
) -> None:
    gaming_session = gaming_session_open(opened_by=manager)
    table_session_open(table=table, gaming_session=gaming_session, opened_by=manager)

    answer = _manager_client(manager).post(
        f"{MANAGE}{table.public_id}/service/", {"service": "out"}, HTTP_HX_REQUEST="true"
    )

    assert answer.status_code == 409
    assert "close it before" in answer.content.decode()


@pytest.mark.parametrize("role", [Role.INSPECTOR, Role.CROUPIER, Role.AUDITOR])
def test_the_screen_is_the_managers(role: Role, table: Table) -> None:
    client = Client()
    client.force_login(UserFactory.create(roles=[role]))

    assert client.get(MANAGE).status_code == 403
    answer = client.post(_update_url(table), {"name": "x", "seat_count": "2", "settings": "{}"})
    assert answer.status_code == 403
    assert client.post(f"{MANAGE}create/", {"number": "8", "game": "pontoon"}).status_code == 403
    table.refresh_from_db()
    assert table.name == "Salon" and Table.objects.count() == 1


def test_an_unknown_table_is_a_404(manager: User) -> None:
    url = f"{MANAGE}{uuid.uuid4()}/update/"
    answer = _manager_client(manager).post(url, {"name": "x"})
    assert answer.status_code == 404


def test_an_open_session_is_untouched_by_a_change_from_the_screen(
    table: Table, manager: User
) -> None:
    gaming_session = gaming_session_open(opened_by=manager)
    opened = table_session_open(table=table, gaming_session=gaming_session, opened_by=manager)
    settings = json.dumps(dict(table.settings) | {"decks": 2})

    answer = _manager_client(manager).post(
        _update_url(table), {"name": "Salon", "seat_count": "12", "settings": settings}
    )

    assert answer.status_code == 302
    assert TableSession.objects.get(pk=opened.pk).settings["decks"] == 6


# -- the API ------------------------------------------------------------------------------------


def _api(user: User) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def test_the_api_changes_a_table_and_answers_it(table: Table, manager: User) -> None:
    url = f"/api/tables/{table.public_id}/update/"

    answer = _api(manager).post(url, {"settings": {"decks": 4}, "name": "API"}, format="json")

    assert answer.status_code == 200, answer.json()
    assert answer.json()["settings"]["decks"] == 4 and answer.json()["name"] == "API"
    assert AuditEntry.objects.get(action="table_update").data["new"]["name"] == "API"


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"settings": {"decks": 9}}, 422, "E_SETTING"),
        ({"settings": [1]}, 422, "E_SETTING"),
        ({"seat_count": 0}, 400, "invalid"),
        ({"seat_count": "many"}, 400, "invalid"),
        ({"is_active": "perhaps"}, 400, "invalid"),
        ({"settings": None}, 400, "invalid"),
    ],
)
def test_the_api_refuses_bad_input_with_its_code(
    body: dict[str, Any], status: int, code: str, table: Table, manager: User
) -> None:
    answer = _api(manager).post(f"/api/tables/{table.public_id}/update/", body, format="json")
    assert (answer.status_code, answer.json()["code"]) == (status, code)


def test_the_api_update_is_the_managers(table: Table) -> None:
    inspector = UserFactory.create(roles=[Role.INSPECTOR])
    answer = _api(inspector).post(
        f"/api/tables/{table.public_id}/update/", {"name": "x"}, format="json"
    )
    assert answer.status_code == 403
    missing = _api(UserFactory.create(roles=[Role.MANAGER])).post(
        f"/api/tables/{uuid.uuid4()}/update/", {"name": "x"}, format="json"
    )
    assert missing.status_code == 404
