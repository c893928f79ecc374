"""The house's ticket books, for a house that still tears tickets (arts. 56-1, 59, 82–83;
docs/registers.md, "Tickets"): books of 200 of one face value, cut on the hundreds, received,
assigned to a table for its séance, returned and assigned again, destroyed; never at two tables
at once, at most three face values at one table, all back in stock when the séance closes —
said in words by the services and held by the database. On the croupier's screen, each coup
with a levy says the tickets to detach, and only where the house tears them."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from establishment.errors import (
    ErrorCode,
    InvalidInputError,
    InvalidStateError,
    PermissionDeniedError,
)
from establishment.house import house_settings_change
from establishment.models import AuditEntry, LevyRecord, StaffPreference
from establishment.roles import Role
from tables.console.stock import serials_parse
from tables.models import Coup, TableSession
from tables.services import table_session_close
from tables.services.stock import StockBusyError
from tables.services.tickets import (
    SeanceTickets,
    TicketFacesError,
    seance_tickets_get,
    ticket_book_destroy,
    ticket_book_return,
    ticket_books_assign,
    ticket_books_receive,
)
from tables.ticket_models import TicketBook, TicketBookAssignment, cents_text
from tables.tickets import FACE_VALUES, tickets_for
from tests.concurrency.kit import Croupier, Floor, cf_banker_wins, cf_table
from tests.factories import UserFactory
from tests.tables.conftest import Around

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def _tickets_house(floor: Floor, *, cents_per_chip: int = 10) -> None:
    """From now on the house tears tickets; a chip is worth `cents_per_chip` cents."""
    house_settings_change(
        changed_by=floor.manager,
        reason="The house tears tickets.",
        levy_record=LevyRecord.TICKETS,
        cents_per_chip=cents_per_chip,
    )


def _receive(floor: Floor, face: int, first: int = 1, books: int = 3) -> list[TicketBook]:
    return ticket_books_receive(
        face=face,
        first=first,
        books=books,
        received_from="Imprimerie du Casino, bon 2026-12",
        received_by=floor.inspector,
    )


def _assign(floor: Floor, table: TableSession, face: int, *firsts: int) -> Any:
    return ticket_books_assign(
        table_session=table, face=face, first_serials=list(firsts), assigned_by=floor.inspector
    )


def _book(**fields: Any) -> TicketBook:
    inspector = UserFactory.create()
    values = {
        "face_cents": 100,
        "first_serial": 1,
        "received_at": timezone.now(),
        "received_by": inspector,
        "received_from": "x",
    }
    return TicketBook.objects.create(**(values | fields))


# -- the database holds the books' numbering ------------------------------------------------------


@pytest.mark.parametrize(
    "fields",
    [
        {"face_cents": 50},  # not a face value of the arrêté
        {"first_serial": 0},
        {"first_serial": 200},  # books of 200 start at 1, 201, 401, …
        {"first_serial": 202},
        {"first_serial": 1_000_001},  # past the last book (999,801–1,000,000)
        {"destroyed_at": timezone.now()},  # destroyed, but by nobody
    ],
)
def test_the_database_refuses_a_book_the_arrete_does_not_know(fields: dict[str, Any]) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        _book(**fields)


def test_the_database_keeps_a_serial_in_one_book_and_a_book_at_one_table(floor: Floor) -> None:
    last = _book(first_serial=999_801)
    assert (last.first_serial, last.last_serial) == (999_801, 1_000_000)
    _book(first_serial=201)
    _book(first_serial=201, face_cents=1_000)  # another face value: its own serials
    with pytest.raises(IntegrityError), transaction.atomic():
        _book(first_serial=201)
    _tickets_house(floor)
    first, second = (
        cf_table(floor),
        cf_table(floor, "B", croupier=UserFactory.create(roles=[Role.CROUPIER])),
    )
    now = timezone.now()
    TicketBookAssignment.objects.create(
        book=last, table_session=first, assigned_at=now, assigned_by=floor.inspector
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        TicketBookAssignment.objects.create(
            book=last, table_session=second, assigned_at=now, assigned_by=floor.inspector
        )


# -- receiving ------------------------------------------------------------------------------


def test_books_are_received_by_serials_or_by_count_and_once(floor: Floor) -> None:
    by_serials = ticket_books_receive(
        face="1000", first="1", last="1000", received_from="Imprimerie", received_by=floor.inspector
    )
    assert [b.first_serial for b in by_serials] == [1, 201, 401, 601, 801]
    by_count = _receive(floor, 10, first=999_401, books=3)
    assert [b.last_serial for b in by_count] == [999_600, 999_800, 1_000_000]
    entry = AuditEntry.objects.get(action="ticket_books_receive", data__face=1000)
    assert (entry.data["first"], entry.data["last"], entry.data["books"]) == (1, 1000, 5)
    with pytest.raises(StockBusyError) as refused:
        _receive(floor, 1000, first=801, books=2)
    assert refused.value.code == ErrorCode.STOCK_UNAVAILABLE
    assert "10 € book 801–1000" in refused.value.message
    assert TicketBook.objects.count() == 8  # nothing of the second delivery


@pytest.mark.parametrize(
    ("given", "fields"),
    [
        ({"face": 50, "first": 1}, {"face"}),
        ({"face": 100, "first": 250}, {"first"}),
        ({"face": 100, "first": 1, "last": 250}, {"last"}),
        ({"face": 100, "first": 201, "last": 200}, {"last"}),
        ({"face": 100, "first": 1, "last": 200, "books": 1}, {"books"}),
        ({"face": 100, "first": 999_801, "books": 2}, {"books"}),
        ({"face": 100, "first": 1, "books": 501}, {"books"}),
        ({"face": 100, "first": 1, "received_from": " "}, {"received_from"}),
    ],
)
def test_a_bad_delivery_is_refused_field_by_field(
    floor: Floor, given: dict[str, Any], fields: set[str]
) -> None:
    with pytest.raises(InvalidInputError) as refused:
        ticket_books_receive(
            **({"received_from": "Imprimerie"} | given), received_by=floor.inspector
        )
    assert set(refused.value.fields) == fields
    assert not TicketBook.objects.exists()


def test_only_a_supervisor_keeps_the_books(floor: Floor) -> None:
    with pytest.raises(PermissionDeniedError):
        ticket_books_receive(face=100, first=1, received_from="x", received_by=floor.croupier)
    _tickets_house(floor)
    _receive(floor, 100, books=1)
    table = cf_table(floor)
    with pytest.raises(PermissionDeniedError):
        ticket_books_assign(
            table_session=table, face=100, first_serials=[1], assigned_by=floor.croupier
        )
    with pytest.raises(PermissionDeniedError):
        ticket_book_destroy(face=100, first_serial=1, reason="x", destroyed_by=floor.croupier)


# -- at the tables ----------------------------------------------------------------------------


def test_a_book_is_never_at_two_tables_and_goes_out_again_once_returned(floor: Floor) -> None:
    _tickets_house(floor)
    _receive(floor, 100, books=3)
    first = cf_table(floor)
    second = cf_table(floor, "B", croupier=UserFactory.create(roles=[Role.CROUPIER]))
    _assign(floor, first, 100, 1, 201)
    with pytest.raises(StockBusyError) as refused:
        _assign(floor, second, 100, 401, 201)
    assert f"1 € book 201–400 is at table {first.table.number}" in refused.value.message
    assert refused.value.extra["table"] == first.table.number
    assert not TicketBookAssignment.objects.filter(table_session=second).exists()  # not even 401
    with pytest.raises(StockBusyError, match="return it first"):
        _assign(floor, first, 100, 201)  # at this table already
    ticket_book_return(face=100, first_serial=201, returned_by=floor.inspector)
    _assign(floor, second, 100, 201)  # partly used, back in stock, out again
    held = TicketBookAssignment.objects.filter(book__first_serial=201).order_by("pk")
    assert [(a.table_session_id, a.returned_at is None) for a in held] == [
        (first.pk, False),
        (second.pk, True),
    ]
    assert AuditEntry.objects.filter(action="ticket_books_assign").count() == 2
    assert AuditEntry.objects.filter(action="ticket_book_return").count() == 1
    with pytest.raises(StockBusyError, match="No 1 € book 601–800 in stock"):
        _assign(floor, second, 100, 601)
    with pytest.raises(InvalidInputError, match="see each field") as askew:
        _assign(floor, second, 100, 250)
    assert "201, not 250" in askew.value.fields["first_serials"][0]
    with pytest.raises(InvalidInputError, match="see each field") as many:
        _assign(floor, second, 100, *range(1, 200 * 501, 200))
    assert "At most 500 books at once." in many.value.fields["first_serials"]


def test_at_most_three_face_values_at_one_table(floor: Floor) -> None:
    """Art. 59: a fourth face value is refused; more books of a face in use are not."""
    _tickets_house(floor)
    for face in FACE_VALUES:
        _receive(floor, face, books=2)
    table = cf_table(floor)
    _assign(floor, table, 10, 1)
    _assign(floor, table, 100, 1)
    _assign(floor, table, 1_000, 1)
    with pytest.raises(TicketFacesError) as refused:
        _assign(floor, table, 10_000, 1)
    assert refused.value.code == ErrorCode.STOCK_UNAVAILABLE
    assert "0,10 €, 1 €, 10 €" in refused.value.message
    assert refused.value.extra["faces"] == [10, 100, 1_000]
    _assign(floor, table, 10, 201)  # a face already in use
    ticket_book_return(face=1_000, first_serial=1, returned_by=floor.inspector)
    _assign(floor, table, 10_000, 1)  # one face fewer in use: room for another
    assert seance_tickets_get(table_session=table) == SeanceTickets("EUR", 10, (10, 100, 10_000))


def test_a_destroyed_book_stays_out_and_a_book_at_a_table_is_not_destroyed(floor: Floor) -> None:
    _tickets_house(floor)
    _receive(floor, 100, books=2)
    table = cf_table(floor)
    _assign(floor, table, 100, 1)
    with pytest.raises(StockBusyError, match="return it first"):
        ticket_book_destroy(face=100, first_serial=1, reason="wet", destroyed_by=floor.inspector)
    with pytest.raises(InvalidInputError):
        ticket_book_destroy(face=100, first_serial=201, reason=" ", destroyed_by=floor.inspector)
    book = ticket_book_destroy(
        face=100, first_serial=201, reason="torn", destroyed_by=floor.inspector
    )
    assert (book.destroyed_by, book.destroyed_reason) == (floor.inspector, "torn")
    with pytest.raises(StockBusyError, match="was destroyed"):
        _assign(floor, table, 100, 201)
    with pytest.raises(InvalidStateError, match="destroyed already"):
        ticket_book_destroy(face=100, first_serial=201, reason="x", destroyed_by=floor.inspector)
    with pytest.raises(StockBusyError, match="is not at a table"):
        ticket_book_return(face=100, first_serial=201, returned_by=floor.inspector)


def test_no_book_goes_to_a_seance_whose_house_keeps_no_tickets(floor: Floor) -> None:
    _receive(floor, 100, books=1)
    table = cf_table(floor)  # the house keeps its levies by the machine (the default)
    _tickets_house(floor)  # from the next séance on: this one keeps its settings
    with pytest.raises(InvalidStateError, match="without tickets"):
        _assign(floor, table, 100, 1)
    assert seance_tickets_get(table_session=table) is None


def test_the_close_of_the_seance_returns_its_books(floor: Floor, around: Around) -> None:
    _tickets_house(floor)
    _receive(floor, 100, books=2)
    _receive(floor, 1_000, books=1)
    table = cf_table(floor)
    _assign(floor, table, 100, 1, 201)
    _assign(floor, table, 1_000, 1)
    with around():
        table_session_close(table_session=table, user=floor.inspector)
    assert not TicketBookAssignment.objects.filter(returned_at=None).exists()
    assert set(TicketBookAssignment.objects.values_list("returned_by", flat=True)) == {
        floor.inspector.pk
    }
    again = cf_table(floor, "B")
    _assign(floor, again, 100, 201)  # back in stock, out to the next séance


# -- the tickets of a levy at the table ---------------------------------------------------------


def test_the_tickets_of_a_seance_read_its_house_once_and_its_books_in_one_query(
    floor: Floor,
) -> None:
    machine = cf_table(floor)
    _tickets_house(floor, cents_per_chip=5)
    tickets = cf_table(floor, "B", croupier=UserFactory.create(roles=[Role.CROUPIER]))
    reference = TableSession(pk=tickets.pk, public_id=tickets.public_id)  # nothing read with it
    with CaptureQueriesContext(connection) as first:
        assert seance_tickets_get(table_session=reference) == SeanceTickets("EUR", 5, FACE_VALUES)
    assert len(first.captured_queries) == 1  # the house and the books together
    _receive(floor, 100, books=1)
    _assign(floor, tickets, 100, 1)
    with CaptureQueriesContext(connection) as again:
        assert seance_tickets_get(table_session=reference) == SeanceTickets("EUR", 5, (100,))
    assert len(again.captured_queries) == 1  # the books only
    plain = TableSession(pk=machine.pk, public_id=machine.public_id)
    assert seance_tickets_get(table_session=plain) is None
    with CaptureQueriesContext(connection) as known:
        assert seance_tickets_get(table_session=plain) is None
        loaded = TableSession.objects.select_related("house_settings").get(pk=machine.pk)
        start = len(known.captured_queries)
        assert seance_tickets_get(table_session=loaded) is None
    assert len(known.captured_queries) == start == 1  # only the séance loaded by the test


def test_serials_are_read_as_books_from_the_floor() -> None:
    assert serials_parse("1, 201") == [1, 201]
    assert serials_parse(" 201 - 800 ") == [201, 401, 601]
    assert serials_parse("250-900") == [401, 601, 801]
    for bad in ("x", "400-201", "1;201"):
        with pytest.raises(InvalidInputError):
            serials_parse(bad)


def _banker_wins(floor: Floor, table: TableSession, around: Around) -> Coup:
    at = Croupier(table, floor.croupier, around)
    at.do("new_shoe", cut_by=1)
    at.play(cf_banker_wins(2_460))
    coup = Coup.objects.get(table_session=table)
    assert coup.cagnotte_chips > 0
    return coup


def _screen(user: Any, table: TableSession) -> str:
    client = Client()
    client.force_login(user)
    answer = client.get(reverse("console:table", kwargs={"table_session": table.public_id}))
    assert answer.status_code == 200
    return answer.content.decode()


def test_the_table_screen_says_the_tickets_of_a_levy_where_the_house_tears_them(
    floor: Floor, around: Around
) -> None:
    _tickets_house(floor, cents_per_chip=1)
    for face in (10, 100, 1_000):
        _receive(floor, face, books=1)
    table = cf_table(floor)
    _assign(floor, table, 10, 1)
    _assign(floor, table, 100, 1)
    _assign(floor, table, 1_000, 1)
    coup = _banker_wins(floor, table, around)
    levy = coup.cagnotte_chips  # a chip is a cent
    made = tickets_for(levy, (10, 100, 1_000))
    assert made.left == 0 and len(made.by_face) >= 2
    listed = ", ".join(f"{count} × {cents_text(face)}" for face, count in made.by_face)
    page = _screen(floor.croupier, table)
    line = re.search(r'data-testid="tickets">([^<]*)<', page)
    assert line is not None
    shown = line.group(1).replace("\u00a0", " ")  # each ticket, each amount on one line
    assert shown == f"Levy {cents_text(levy)} · Tickets to detach: {listed}"
    StaffPreference.objects.create(user=floor.croupier, language="fr")
    try:
        french = _screen(floor.croupier, table).replace("\u00a0", " ")
    finally:
        translation.deactivate()  # the request left French active in this thread
    assert f"Prélèvement {cents_text(levy)} · Tickets à détacher : {listed}" in french


def test_what_the_faces_at_the_table_cannot_make_is_said(floor: Floor, around: Around) -> None:
    _tickets_house(floor, cents_per_chip=1)
    _receive(floor, 1_000, books=1)
    table = cf_table(floor)
    _assign(floor, table, 1_000, 1)  # 10 € tickets only
    coup = _banker_wins(floor, table, around)
    made = tickets_for(coup.cagnotte_chips, (1_000,))
    assert made.left
    page = _screen(floor.inspector, table).replace("\u00a0", " ")
    assert f"{cents_text(made.left)} left without a ticket" in page
    assert "Tickets to detach: —" in page  # no 10 € ticket in a levy of less than 10 €


def test_the_table_screen_says_no_tickets_where_the_house_keeps_the_machine(
    floor: Floor, around: Around
) -> None:
    table = cf_table(floor)
    _banker_wins(floor, table, around)
    page = _screen(floor.croupier, table)
    assert 'data-testid="tickets"' not in page
    assert "Tickets to detach" not in page


def _screen_queries(user: Any, table: TableSession) -> list[str]:
    with CaptureQueriesContext(connection) as drawn:
        _screen(user, table)
    return [q["sql"] for q in drawn.captured_queries]


def test_the_tickets_cost_the_screen_one_query_and_nothing_without_tickets(
    floor: Floor, around: Around
) -> None:
    """The screen of a table whose house keeps no tickets reads nothing more once this process
    knows its séance; where the house tears them, one query: the faces of its books."""
    machine = cf_table(floor)
    _banker_wins(floor, machine, around)
    _screen(floor.inspector, machine)  # this process learns how the séance keeps its levies
    again = _screen_queries(floor.inspector, machine)
    assert not [q for q in again if "ticketbook" in q or "housesettings" in q]
    _tickets_house(floor)
    croupier = UserFactory.create(roles=[Role.CROUPIER])
    tickets = cf_table(floor, "B", croupier=croupier)
    _receive(floor, 100, books=1)
    _assign(floor, tickets, 100, 1)
    at = Croupier(tickets, croupier, around)
    at.do("new_shoe", cut_by=1)
    at.play(cf_banker_wins(2_460))
    _screen(floor.inspector, tickets)
    drawn = _screen_queries(floor.inspector, tickets)
    assert len([q for q in drawn if "ticketbook" in q or "housesettings" in q]) == 1


# -- the floor's page ---------------------------------------------------------------------------


def test_the_floor_receives_assigns_takes_back_and_destroys_books(floor: Floor) -> None:
    _tickets_house(floor)
    table = cf_table(floor)
    inspector = Client()
    inspector.force_login(floor.inspector)
    done = inspector.post(
        reverse("console:stock-tickets-receive"),
        {"face": "100", "first": "1", "last": "800", "books": "", "received_from": "Imprimerie"},
        headers=HX,
    )
    assert done.status_code == 200
    assert done.content.decode().count('data-face="100"') == 4
    assign = reverse("console:stock-tickets-assign")
    answer = inspector.post(
        assign,
        {"table_session": str(table.public_id), "face": "100", "first_serials": "1, 401-800"},
        headers=HX,
    )
    assert answer.status_code == 200
    assert f"at table {table.table.number}" in answer.content.decode()
    assert sorted(TicketBookAssignment.objects.values_list("book__first_serial", flat=True)) == [
        1,
        401,
        601,
    ]
    for bad, status in (
        ({"table_session": str(table.public_id), "face": "100", "first_serials": "x"}, 422),
        ({"table_session": str(table.public_id), "face": "100", "first_serials": "250"}, 422),
        ({"table_session": "not-a-table", "face": "100", "first_serials": "201"}, 409),
        ({"table_session": str(table.public_id), "face": "100", "first_serials": "1"}, 409),
    ):
        refused = inspector.post(assign, bad, headers=HX)
        assert refused.status_code == status, bad
        assert 'data-testid="problem"' in refused.content.decode()
    assert TicketBookAssignment.objects.count() == 3  # nothing of the refusals
    back = inspector.post(
        reverse("console:stock-tickets-return"), {"face": "100", "first_serial": "601"}, headers=HX
    )
    assert back.status_code == 200
    destroyed = inspector.post(
        reverse("console:stock-tickets-destroy"),
        {"face": "100", "first_serial": "601", "reason": "soaked"},
        headers=HX,
    )
    assert "soaked" in destroyed.content.decode()
    unknown = inspector.post(
        reverse("console:stock-tickets-return"), {"face": "7", "first_serial": "1"}, headers=HX
    )
    assert unknown.status_code == 409
    croupier = Client()
    croupier.force_login(floor.croupier)
    refused = croupier.post(assign, {"table_session": str(table.public_id)}, headers=HX)
    assert refused.status_code == 403
