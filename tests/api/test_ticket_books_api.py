"""The ticket books through the API, as on the floor's stock page (docs/registers.md,
"Tickets"): received, assigned to an open table, taken back, destroyed, listed; and the tickets
to detach for each coup of a séance with a levy, only where the house tears tickets."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from functools import partial
from typing import Any

import pytest

from establishment.house import house_settings_change
from establishment.models import LevyRecord
from establishment.roles import Role
from tables.models import Coup
from tables.tickets import tickets_for
from tests.api.conftest import ClientFor
from tests.concurrency.kit import Croupier, cf_banker_wins, cf_table, floor_open
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _tickets_house(manager: Any) -> None:
    house_settings_change(
        changed_by=manager, reason="tickets", levy_record=LevyRecord.TICKETS, cents_per_chip=1
    )


def test_the_ticket_books_through_the_api(client_for: ClientFor) -> None:
    floor = floor_open()
    _tickets_house(floor.manager)
    table = cf_table(floor)
    inspector = client_for(floor.inspector)
    delivery = {"face": 100, "first": 1, "last": 600, "received_from": "Imprimerie"}
    received = inspector.post("/api/ticket-books/receive/", delivery, format="json")
    assert received.status_code == 201
    assert [(b["face"], b["first_serial"], b["last_serial"]) for b in received.json()] == [
        (100, 1, 200),
        (100, 201, 400),
        (100, 401, 600),
    ]
    again = inspector.post("/api/ticket-books/receive/", delivery, format="json")
    assert (again.status_code, again.json()["code"]) == (409, "stock_unavailable")
    askew = inspector.post(
        "/api/ticket-books/receive/", delivery | {"first": 601, "last": 700}, format="json"
    )
    assert askew.status_code == 422 and "last" in askew.json()["extra"]["fields"]
    croupier = client_for(floor.croupier)
    assert croupier.post("/api/ticket-books/receive/", delivery, format="json").status_code == 403
    assert croupier.get("/api/ticket-books/").status_code == 403

    assignment = {"table_session": str(table.public_id), "face": 100, "first_serials": [1, 201]}
    assigned = inspector.post("/api/ticket-books/assign/", assignment, format="json")
    assert assigned.status_code == 201
    assert [b["assignments"][0]["table"] for b in assigned.json()] == [table.table.number] * 2
    twice = inspector.post("/api/ticket-books/assign/", assignment, format="json")
    assert (twice.status_code, twice.json()["code"]) == (409, "stock_unavailable")
    missing = assignment | {"table_session": "00000000-0000-0000-0000-000000000000"}
    assert inspector.post("/api/ticket-books/assign/", missing, format="json").status_code == 404
    back = inspector.post(
        "/api/ticket-books/return/", {"face": 100, "first_serial": 201}, format="json"
    )
    assert back.status_code == 201 and back.json()[0]["assignments"][0]["returned_at"]
    destroyed = inspector.post(
        "/api/ticket-books/destroy/",
        {"face": 100, "first_serial": 401, "reason": "soaked"},
        format="json",
    )
    assert destroyed.json()[0]["destroyed_reason"] == "soaked"
    listed = client_for(floor.manager).get("/api/ticket-books/").json()["results"]
    assert [b["first_serial"] for b in listed] == [1, 201, 401]


def test_the_tickets_of_a_seance_s_coups_through_the_api(
    client_for: ClientFor,
    django_capture_on_commit_callbacks: Callable[..., AbstractContextManager[Any]],
) -> None:
    floor = floor_open()
    plain = cf_table(floor)  # opened while the house keeps its levies by the machine
    _tickets_house(floor.manager)
    croupier = UserFactory.create(roles=[Role.CROUPIER])
    table = cf_table(floor, "B", croupier=croupier)
    inspector = client_for(floor.inspector)
    inspector.post(
        "/api/ticket-books/receive/",
        {"face": 1_000, "first": 1, "received_from": "Imprimerie"},
        format="json",
    )
    inspector.post(
        "/api/ticket-books/assign/",
        {"table_session": str(table.public_id), "face": 1_000, "first_serials": [1]},
        format="json",
    )
    around = partial(django_capture_on_commit_callbacks, execute=True)
    for seance, who in ((plain, floor.croupier), (table, croupier)):
        at = Croupier(seance, who, around)
        at.do("new_shoe", cut_by=1)
        at.play(cf_banker_wins(2_460))
    coup = Coup.objects.get(table_session=table)
    made = tickets_for(coup.cagnotte_chips, (1_000,))
    answer = client_for(croupier).get(f"/api/table-sessions/{table.public_id}/tickets/")
    assert answer.status_code == 200
    assert answer.json()["results"] == [
        {
            "public_id": str(coup.public_id),
            "number": coup.number,
            "settled_at": answer.json()["results"][0]["settled_at"],
            "levy": coup.cagnotte_chips,
            "tickets": [{"face": face, "count": count} for face, count in made.by_face],
            "left": made.left,
        }
    ]
    none = client_for(floor.manager).get(f"/api/table-sessions/{plain.public_id}/tickets/")
    assert none.status_code == 200 and none.json()["results"] == []
