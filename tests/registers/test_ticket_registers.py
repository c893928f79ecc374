"""Model 11's columns 4–5 for a house that still tears tickets (docs/registers.md, "Tickets";
arts. 59, 82–83): the séance's ticket books, and the tickets detached by face value, each
coup's with the faces at the table when it was settled — their amounts and what no ticket
could make add up to the levy. On screen, in the PDF and the CSV; rebuilt the same from the
books by `registers_verify`. A house that keeps its levies by the machine has neither."""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import AbstractContextManager
from functools import partial
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from establishment.house import house_settings_change
from establishment.models import LevyRecord
from establishment.roles import Role
from reports.counting import cagnotte_count_record
from reports.models import Register, SettlementReport
from reports.registers.builders import tickets_detached
from reports.registers.verify import registers_verify
from tables.models import Coup, TableSession
from tables.selectors import table_state_get
from tables.services import gaming_session_close, table_session_close
from tables.services.tickets import ticket_books_assign, ticket_books_receive
from tables.tickets import tickets_for
from tests.concurrency.kit import Croupier, Floor, cf_banker_wins, cf_table, floor_open
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
Capture = Callable[..., AbstractContextManager[Any]]


def _books(floor: Floor, table: TableSession, face: int, first: int = 1) -> None:
    ticket_books_receive(
        face=face, first=first, received_from="Imprimerie", received_by=floor.inspector
    )
    ticket_books_assign(
        table_session=table, face=face, first_serials=[first], assigned_by=floor.inspector
    )


def _banker_wins(at: Croupier) -> Coup:
    bank = table_state_get(table_session=at.table_session).view.get("bank") or 2_460
    at.play(cf_banker_wins(bank))
    at.do("continue_bank", 1, reliquat=0)  # the banker goes on (CF-6.2)
    coup = Coup.objects.filter(table_session=at.table_session).order_by("-number").first()
    assert coup is not None and coup.cagnotte_chips > 0
    return coup


def _frozen(floor: Floor, capture: Capture) -> list[dict[str, Any]]:
    """The night closed and settled, every table counted, each count's commit callbacks run:
    each séance's model 11."""
    with capture(execute=True):
        for seance in TableSession.objects.filter(closed_at__isnull=True):
            table_session_close(table_session=seance, user=floor.manager)
        gaming_session_close(gaming_session=floor.gaming_session, user=floor.manager)
    report = SettlementReport.objects.get(gaming_session=floor.gaming_session)
    witness = UserFactory.create(roles=[Role.INSPECTOR])
    for row in json.loads(report.content)["tables"]:
        with capture(execute=True):  # the worker that freezes the séance's model 11
            cagnotte_count_record(
                report=report,
                table=TableSession.objects.get(public_id=row["table_session"]).table,
                counted_chips=row["cagnotte_expected"],
                counted_by=floor.manager,
                password="password",
                witness=witness,
                witness_password="password",
            )
    return [json.loads(r.content) for r in Register.objects.filter(kind="model_11")]


def test_model_11_holds_the_seance_s_ticket_books_and_the_tickets_detached(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    floor = floor_open()
    plain = cf_table(floor)  # opened while the house keeps its levies by the machine
    house_settings_change(
        changed_by=floor.manager,
        reason="The house tears tickets.",
        levy_record=LevyRecord.TICKETS,
        cents_per_chip=1,
    )
    croupier = UserFactory.create(roles=[Role.CROUPIER])
    table = cf_table(floor, "B", croupier=croupier)
    around = partial(django_capture_on_commit_callbacks, execute=True)
    at = Croupier(table, croupier, around)
    at.do("new_shoe", cut_by=1)
    _books(floor, table, 1_000)
    first = _banker_wins(at)  # 10 € tickets only at the table
    _books(floor, table, 100, first=201)
    _books(floor, table, 10)
    second = _banker_wins(at)  # 10 €, 1 € and 0,10 €
    elsewhere = Croupier(plain, floor.croupier, around)
    elsewhere.do("new_shoe", cut_by=1)
    _banker_wins(elsewhere)

    registers = {r["table_session"]: r for r in _frozen(floor, django_capture_on_commit_callbacks)}
    model_11 = registers[str(table.public_id)]
    books = [(t["face"], t["first_serial"], t["last_serial"]) for t in model_11["tickets"]]
    assert books == [(1_000, 1, 200), (100, 201, 400), (10, 1, 200)]
    assert all(
        t["returned_at"] and t["returned_by"] == floor.manager.username for t in model_11["tickets"]
    )
    assert all(t["assigned_by"] == floor.inspector.username for t in model_11["tickets"])
    spans = [(t["first_coup"], t["last_coup"]) for t in model_11["tickets"]]
    assert spans == [(first.number, second.number), (second.number,) * 2, (second.number,) * 2]
    one = tickets_for(first.cagnotte_chips, (1_000,))
    two = tickets_for(second.cagnotte_chips, (10, 100, 1_000))
    counts: dict[int, int] = {}
    for face, count in one.by_face + two.by_face:
        counts[face] = counts.get(face, 0) + count
    detached = model_11["tickets_detached"]
    assert detached["by_face"] == [
        {"face": face, "count": count, "amount": face * count}
        for face, count in sorted(counts.items(), reverse=True)
    ]
    assert detached["left"] == one.left + two.left
    assert detached["levy"] == first.cagnotte_chips + second.cagnotte_chips
    # the check for the box: the tickets and what they could not make are the levy
    assert sum(row["amount"] for row in detached["by_face"]) + detached["left"] == detached["levy"]
    assert detached["levy"] == sum(c["levy"] for c in model_11["coups"] if not c["voided"])

    machine = registers[str(plain.public_id)]
    assert machine["tickets"] == [] and "tickets_detached" not in machine
    assert registers_verify() == []  # built again from the books, the same

    register = Register.objects.get(kind="model_11", key=str(table.public_id))
    manager = Client()
    manager.force_login(floor.manager)
    page = manager.get(reverse("registers:seance", args=[table.public_id])).content.decode()
    assert 'data-testid="ticket-books"' in page and 'data-testid="tickets-detached"' in page
    assert "201" in page and "10,00 €" in page
    csv_text = manager.get(reverse("registers:file", args=[register.public_id, "csv"]))
    lines = csv_text.content.decode().splitlines()
    assert (
        "ticket_face,first_serial,last_serial,assigned_at,assigned_by,returned_at,returned_by"
        in lines
    )
    assert f"levy,,{detached['levy']}" in lines
    pdf = manager.get(reverse("registers:file", args=[register.public_id, "pdf"]))
    assert pdf.content.startswith(b"%PDF")
    plain_page = manager.get(reverse("registers:seance", args=[plain.public_id])).content.decode()
    assert 'data-testid="ticket-books"' not in plain_page


def _book(face: int, first_coup: int | None, last_coup: int | None) -> dict[str, Any]:
    return {"face": face, "first_serial": 1, "first_coup": first_coup, "last_coup": last_coup}


def _coup(number: int, levy: int, voided: bool = False) -> dict[str, Any]:
    return {"coup": number, "levy": levy, "voided": voided}


def test_each_coup_s_tickets_are_of_the_faces_at_the_table_then() -> None:
    """12,30 € is one ticket of 10 €, two of 1 € and three of 0,10 € (docs/registers.md); with
    10 € and 1 € books only, 0,30 € is left without a ticket; a voided coup detaches none; a
    coup with no book at the table is told in every face value, as the console told it."""
    books = [_book(1_000, 1, 3), _book(100, 1, 3), _book(10, 2, 3)]
    coups = [_coup(1, 1_230), _coup(2, 1_230), _coup(3, 50, voided=True), _coup(4, 10_000)]
    assert tickets_detached(coups, books) == {
        "by_face": [
            {"face": 10_000, "count": 1, "amount": 10_000},
            {"face": 1_000, "count": 2, "amount": 2_000},
            {"face": 100, "count": 4, "amount": 400},
            {"face": 10, "count": 3, "amount": 30},
        ],
        "levy": 12_460,
        "left": 30,
    }
    assert tickets_detached([], books) == {"by_face": [], "levy": 0, "left": 0}
