"""Lists that grow: filters (django-filter) and pagination."""

from __future__ import annotations

import pytest

from establishment.models import Player
from establishment.roles import Role
from tests.api.conftest import ClientFor, StaffMaker
from tests.api.fixtures import open_table
from tests.api.test_play import COUP, play

pytestmark = pytest.mark.django_db


def test_players_are_paginated_and_filtered(staff: StaffMaker, client_for: ClientFor) -> None:
    for number in range(7):
        Player.objects.create(name=f"Player {number}", member_number=f"M{number}")
    client = client_for(staff(Role.CROUPIER))

    first = client.get("/api/players/", {"page_size": 3}).json()
    last = client.get("/api/players/", {"page_size": 3, "page": 3}).json()
    one = client.get("/api/players/", {"member_number": "M4"}).json()

    assert first["count"] == 7 and len(first["results"]) == 3 and first["next"]
    assert len(last["results"]) == 1 and last["next"] is None
    assert [p["name"] for p in one["results"]] == ["Player 4"]
    assert client.get("/api/players/", {"page": 9}).json()["code"] == "not_found"


def test_ledger_lists_filter_by_session_and_account(
    client_for: ClientFor, staff: StaffMaker
) -> None:
    table = open_table()
    play(client_for(table.croupier), table, COUP)
    auditor = client_for(staff(Role.AUDITOR))
    session = str(table.gaming_session.public_id)

    accounts = auditor.get("/api/ledger/accounts/", {"gaming_session": session}).json()
    balances = {a["player"] or a["kind"]: a["balance_chips"] for a in accounts["results"]}
    banker = next(a for a in accounts["results"] if a["player"] == "P1")
    touching = auditor.get("/api/ledger/transactions/", {"account": banker["public_id"]}).json()

    assert balances == {"P1": 950, "P2": -1000, "cagnotte": 50}
    assert touching["count"] == 1
    assert {e["side"] for e in touching["results"][0]["entries"]} == {"debit", "credit"}


@pytest.mark.parametrize(
    ("moment", "status"),
    [
        ("2026-01-01T00:00:00Z", 200),
        ("2026-01-01T00:00:00+23:59", 200),  # past PostgreSQL's ±15:59: turned to UTC first
        ("0001-01-01T00:00:00+01:00", 400),  # before year 1 in UTC
        ("yesterday", 400),
    ],
)
def test_date_time_filters_take_any_iso_offset(
    staff: StaffMaker, client_for: ClientFor, moment: str, status: int
) -> None:
    client = client_for(staff(Role.AUDITOR))

    answer = client.get("/api/gaming-sessions/", {"opened_after": moment})

    assert answer.status_code == status, answer.json()


def test_integer_filters_are_bounded(staff: StaffMaker, client_for: ClientFor) -> None:
    client = client_for(staff(Role.AUDITOR))

    answer = client.get("/api/tables/", {"number": 2**40})

    assert answer.status_code == 400
    assert "number" in answer.json()["extra"]["fields"]
