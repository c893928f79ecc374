"""The API's permission matrix: the same roles and table rules as the console.

Auditors, managers and inspectors read everything; croupiers read the tables they worked; a
user with no role reads nothing (403); no credentials is 401. Writes are refused by the
services themselves (403 `permission_denied`); what a user may not see is 404.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from establishment.roles import Role
from tables.models import AssignmentRole
from tables.services import staff_assign, table_create
from tests.api.conftest import ClientFor
from tests.api.fixtures import OpenTable, open_table
from tests.api.test_play import COUP, play
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

# Who is asking: the croupier on duty at the table, a croupier of another table, a changeur
# of another table, an inspector, a manager, an auditor, a staff member with no role, nobody.
WHO = (
    "on_duty",
    "other_croupier",
    "changeur",
    "inspector",
    "manager",
    "auditor",
    "no_role",
    "nobody",
)


@pytest.fixture
def table() -> OpenTable:
    return open_table()


@pytest.fixture
def people(table: OpenTable, client_for: ClientFor) -> dict[str, APIClient]:
    other = open_table(number=8, seats={})
    changeur = UserFactory.create(roles=[Role.CHANGEUR])
    staff_assign(
        table_session=other.table_session,
        staff=changeur,
        role=AssignmentRole.CHANGEUR,
        assigned_by=other.manager,
    )
    users: dict[str, User] = {
        "on_duty": table.croupier,
        "other_croupier": other.croupier,
        "changeur": changeur,
        "inspector": UserFactory.create(roles=[Role.INSPECTOR]),
        "manager": table.manager,
        "auditor": UserFactory.create(roles=[Role.AUDITOR]),
        "no_role": UserFactory.create(),
    }
    clients = {name: client_for(user) for name, user in users.items()}
    clients["nobody"] = APIClient()
    return clients


def _row(**statuses: int) -> dict[str, int]:
    assert set(statuses) == set(WHO), set(WHO) ^ set(statuses)
    return statuses


# What each asker gets for each read.
READS: dict[str, tuple[Callable[[OpenTable], str], dict[str, int]]] = {
    "table session": (
        lambda t: t.url,
        _row(
            on_duty=200,
            other_croupier=404,
            changeur=404,
            inspector=200,
            manager=200,
            auditor=200,
            no_role=403,
            nobody=401,
        ),
    ),
    "state": (
        lambda t: f"{t.url}state/",
        _row(
            on_duty=200,
            other_croupier=404,
            changeur=404,
            inspector=200,
            manager=200,
            auditor=200,
            no_role=403,
            nobody=401,
        ),
    ),
    "journal": (
        lambda t: f"{t.url}events/",
        _row(
            on_duty=200,
            other_croupier=404,
            changeur=404,
            inspector=200,
            manager=200,
            auditor=200,
            no_role=403,
            nobody=401,
        ),
    ),
    "coups": (
        lambda t: f"{t.url}coups/",
        _row(
            on_duty=200,
            other_croupier=404,
            changeur=404,
            inspector=200,
            manager=200,
            auditor=200,
            no_role=403,
            nobody=401,
        ),
    ),
    "seats": (
        lambda t: f"{t.url}seats/",
        _row(
            on_duty=200,
            other_croupier=404,
            changeur=404,
            inspector=200,
            manager=200,
            auditor=200,
            no_role=403,
            nobody=401,
        ),
    ),
    "players": (
        lambda t: "/api/players/",
        _row(
            on_duty=200,
            other_croupier=200,
            changeur=200,
            inspector=200,
            manager=200,
            auditor=200,
            no_role=403,
            nobody=401,
        ),
    ),
    "tables": (
        lambda t: "/api/tables/",
        _row(
            on_duty=200,
            other_croupier=200,
            changeur=200,
            inspector=200,
            manager=200,
            auditor=200,
            no_role=403,
            nobody=401,
        ),
    ),
    "staff": (
        lambda t: "/api/staff/",
        _row(
            on_duty=403,
            other_croupier=403,
            changeur=403,
            inspector=200,
            manager=200,
            auditor=403,
            no_role=403,
            nobody=401,
        ),
    ),
    "ledger accounts": (
        lambda t: "/api/ledger/accounts/",
        _row(
            on_duty=403,
            other_croupier=403,
            changeur=403,
            inspector=200,
            manager=200,
            auditor=200,
            no_role=403,
            nobody=401,
        ),
    ),
    "ledger transactions": (
        lambda t: "/api/ledger/transactions/",
        _row(
            on_duty=403,
            other_croupier=403,
            changeur=403,
            inspector=200,
            manager=200,
            auditor=200,
            no_role=403,
            nobody=401,
        ),
    ),
    "settlement reports": (
        lambda t: "/api/settlement-reports/",
        _row(
            on_duty=403,
            other_croupier=403,
            changeur=403,
            inspector=403,
            manager=200,
            auditor=200,
            no_role=403,
            nobody=401,
        ),
    ),
    "schema": (
        lambda t: "/api/schema/",
        _row(
            on_duty=200,
            other_croupier=200,
            changeur=200,
            inspector=200,
            manager=200,
            auditor=200,
            no_role=200,
            nobody=401,
        ),
    ),
}


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize("what", list(READS))
def test_reads(table: OpenTable, people: dict[str, APIClient], what: str, who: str) -> None:
    url, expected = READS[what]

    answer = people[who].get(url(table))

    assert answer.status_code == expected[who], answer.content[:300]


def _record(table: OpenTable) -> tuple[str, dict[str, Any], bool]:
    return f"{table.url}record/", {"expected_seq": table.next_seq, "action": COUP[0]}, True


def _interrupt(table: OpenTable) -> tuple[str, dict[str, Any], bool]:
    return f"{table.url}interrupt/", {"expected_seq": table.next_seq}, True


def _undo(table: OpenTable) -> tuple[str, dict[str, Any], bool]:
    return f"{table.url}undo/", {"expected_seq": table.next_seq}, True


def _assign(table: OpenTable) -> tuple[str, dict[str, Any], bool]:
    extra = UserFactory.create(roles=[Role.CHANGEUR])
    return f"{table.url}assignments/create/", {"staff": extra.username, "role": "changeur"}, False


def _sabot(table: OpenTable) -> tuple[str, dict[str, Any], bool]:
    return f"{table.url}sabots/open/", {}, False


def _close(table: OpenTable) -> tuple[str, dict[str, Any], bool]:
    return f"{table.url}close/", {}, False


def _table_create(table: OpenTable) -> tuple[str, dict[str, Any], bool]:
    return "/api/tables/create/", {"number": 40, "game": "pontoon"}, False


def _table_open(table: OpenTable) -> tuple[str, dict[str, Any], bool]:

    spare = table_create(number=41, game="pontoon", created_by=table.manager)
    body = {"table": str(spare.public_id), "gaming_session": str(table.gaming_session.public_id)}
    return "/api/table-sessions/open/", body, False


def _player_create(table: OpenTable) -> tuple[str, dict[str, Any], bool]:
    return "/api/players/create/", {"name": "New", "member_number": uuid.uuid4().hex[:12]}, False


def _session_open(table: OpenTable) -> tuple[str, dict[str, Any], bool]:
    return "/api/gaming-sessions/open/", {}, False


WRITES: dict[
    str, tuple[Callable[[OpenTable], tuple[str, dict[str, Any], bool]], dict[str, int]]
] = {
    "record an action": (
        _record,
        _row(
            on_duty=201,
            other_croupier=404,
            changeur=404,
            inspector=201,
            manager=403,
            auditor=403,
            no_role=403,
            nobody=401,
        ),
    ),
    "undo": (
        _undo,
        _row(
            on_duty=201,
            other_croupier=404,
            changeur=404,
            inspector=201,
            manager=403,
            auditor=403,
            no_role=403,
            nobody=401,
        ),
    ),
    "interrupt": (
        _interrupt,
        _row(
            on_duty=403,
            other_croupier=404,
            changeur=404,
            inspector=201,
            manager=201,
            auditor=403,
            no_role=403,
            nobody=401,
        ),
    ),
    "put staff on duty": (
        _assign,
        _row(
            on_duty=403,
            other_croupier=404,
            changeur=404,
            inspector=201,
            manager=201,
            auditor=403,
            no_role=403,
            nobody=401,
        ),
    ),
    "open a sabot": (
        _sabot,
        _row(
            on_duty=201,
            other_croupier=404,
            changeur=404,
            inspector=201,
            manager=403,
            auditor=403,
            no_role=403,
            nobody=401,
        ),
    ),
    "close the table": (
        _close,
        _row(
            on_duty=403,
            other_croupier=404,
            changeur=404,
            inspector=200,
            manager=200,
            auditor=403,
            no_role=403,
            nobody=401,
        ),
    ),
    "create a table": (
        _table_create,
        _row(
            on_duty=403,
            other_croupier=403,
            changeur=403,
            inspector=403,
            manager=201,
            auditor=403,
            no_role=403,
            nobody=401,
        ),
    ),
    "open a table": (
        _table_open,
        _row(
            on_duty=403,
            other_croupier=403,
            changeur=403,
            inspector=201,
            manager=201,
            auditor=403,
            no_role=403,
            nobody=401,
        ),
    ),
    "register a player": (
        _player_create,
        _row(
            on_duty=403,
            other_croupier=403,
            changeur=403,
            inspector=201,
            manager=201,
            auditor=403,
            no_role=403,
            nobody=401,
        ),
    ),
    # The table's night is open already: the roles that may open one pass the role check and
    # meet the one-open-session rule (409 invalid_state, establishment.services).
    "open a gaming session": (
        _session_open,
        _row(
            on_duty=403,
            other_croupier=403,
            changeur=403,
            inspector=409,
            manager=409,
            auditor=403,
            no_role=403,
            nobody=401,
        ),
    ),
}


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize("what", list(WRITES))
def test_writes(table: OpenTable, people: dict[str, APIClient], what: str, who: str) -> None:
    make, expected = WRITES[what]
    if what == "undo":
        play(people["on_duty"], table, COUP[:2])
    url, body, keyed = make(table)
    headers = {"Idempotency-Key": str(uuid.uuid4())} if keyed else {}

    answer = people[who].post(url, body, format="json", headers=headers)

    assert answer.status_code == expected[who], answer.content[:300]
    if answer.status_code >= 400:
        assert set(answer.json()) == {"code", "message", "extra"}


def test_a_croupier_lists_only_the_tables_he_worked(
    table: OpenTable, people: dict[str, APIClient]
) -> None:
    mine = people["on_duty"].get("/api/table-sessions/").json()
    everything = people["auditor"].get("/api/table-sessions/").json()

    assert [s["public_id"] for s in mine["results"]] == [str(table.table_session.public_id)]
    assert everything["count"] == 2


def test_the_inspector_who_asked_for_a_void_cannot_approve_it(
    table: OpenTable, people: dict[str, APIClient], client_for: ClientFor
) -> None:
    play(people["on_duty"], table, COUP)
    inspector = people["inspector"]
    coup = inspector.get(f"{table.url}coups/").json()["results"][0]
    asked = inspector.post(
        f"/api/coups/{coup['public_id']}/void-request/", {"reason": "misdeal"}, format="json"
    ).json()

    answer = inspector.post(
        f"/api/void-requests/{asked['public_id']}/decide/",
        {"approve": True, "password": "password"},
        format="json",
    )

    assert answer.status_code == 409
    assert answer.json()["code"] == "second_person_required"


def test_another_tables_croupier_cannot_see_its_coups_or_void_requests(
    table: OpenTable, people: dict[str, APIClient]
) -> None:
    play(people["on_duty"], table, COUP)
    coup = people["on_duty"].get(f"{table.url}coups/").json()["results"][0]
    asked = (
        people["on_duty"]
        .post(f"/api/coups/{coup['public_id']}/void-request/", {"reason": "misdeal"}, format="json")
        .json()
    )
    outsider = people["other_croupier"]

    assert outsider.get(f"/api/coups/{coup['public_id']}/").status_code == 404
    assert outsider.get(f"/api/void-requests/{asked['public_id']}/").status_code == 404
    assert outsider.get("/api/void-requests/").json()["count"] == 0
    assert people["on_duty"].get("/api/void-requests/").json()["count"] == 1
