"""The house's ticket books, for a house that still tears tickets (arrêté du 14 mai 2007, arts.
56-1, 59, 82–83; docs/registers.md, "Tickets"): the stock of books and their assignments to a
table's séance (model 11, columns 4–5). Models of the table's app (`tables.models` imports
them), laid out as the numbered sabots and packs (`tables.stock_models`).

A book holds 200 tickets of one face value. Serials run from 1 to 1,000,000 for each face
value and the product reads "books of 200" as books cut on the hundreds: book k holds the
serials 200(k-1)+1 to 200k, so a book is named by its face value and its first serial (1, 201,
401, …, 999,801), and two books of one face value never share a serial.
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q
from django.db.models.lookups import Exact
from django.utils.translation import gettext_lazy as _

from establishment.models import (
    at_least,
    protected_fk,
    staff_member,
)
from tables.stock_models import HouseStock, SeanceAssignment, one_table_at_a_time, seance_of
from tables.tickets import FACE_VALUES

__all__ = [
    "BOOK_SIZE",
    "LAST_FIRST_SERIAL",
    "LAST_SERIAL",
    "TicketBook",
    "TicketBookAssignment",
    "cents_text",
]

BOOK_SIZE = 200  # tickets in a book (art. 82)
LAST_SERIAL = 1_000_000  # serials of one face value run from 1 to this (art. 82)
LAST_FIRST_SERIAL = LAST_SERIAL - BOOK_SIZE + 1  # 999,801: the first serial of the last book

_SYMBOLS = {"EUR": "€", "GBP": "£"}


def cents_text(cents: int, currency: str = "EUR") -> str:
    """An amount in the currency's smallest unit as the table says it: 10 €, 0,10 €, 12,30 €
    (whole amounts without their cents, as the faces of the tickets are printed)."""
    whole, part = divmod(abs(int(cents)), 100)
    sign = "-" if int(cents) < 0 else ""
    grouped = f"{whole:,}".replace(",", " ")
    symbol = _SYMBOLS.get(currency, currency)
    return f"{sign}{grouped} {symbol}" if not part else f"{sign}{grouped},{part:02d} {symbol}"


# The face values of the arrêté (tables.tickets.FACE_VALUES), in cents, as printed.
FACE_CHOICES = [(face, cents_text(face)) for face in FACE_VALUES]


class TicketBook(HouseStock):
    """A book of 200 tickets of one face value in the house's stock (docs/registers.md,
    "Tickets"): received, assigned to a table for a séance, returned (a partly used book goes
    back to stock and may go out again), or destroyed. A book is never at two tables at once
    (`TicketBookAssignment`)."""

    face_cents = models.PositiveIntegerField(_("face value"), choices=FACE_CHOICES)
    first_serial = models.PositiveIntegerField(_("first serial"))
    received_by = staff_member("ticket_books_received", _("received by"))
    destroyed_by = staff_member("ticket_books_destroyed", _("destroyed by"), optional=True)

    class Meta(HouseStock.Meta):
        ordering = ["face_cents", "first_serial"]
        verbose_name = _("ticket book")
        verbose_name_plural = _("ticket books")
        constraints = [
            # With the books cut on the hundreds, no serial of a face value is in two books.
            models.UniqueConstraint(
                fields=["face_cents", "first_serial"], name="tables_ticketbook_serial_unique"
            ),
            models.CheckConstraint(
                condition=Q(face_cents__in=FACE_VALUES), name="tables_ticketbook_face_value"
            ),
            at_least("first_serial", 1, "tables_ticketbook_first_serial_positive"),
            models.CheckConstraint(
                condition=Q(first_serial__lte=LAST_FIRST_SERIAL),
                name="tables_ticketbook_last_serial_at_most_a_million",
            ),
            models.CheckConstraint(
                condition=Exact(F("first_serial") % BOOK_SIZE, 1),
                name="tables_ticketbook_books_of_200",
            ),
            *HouseStock.Meta.constraints,
        ]

    def __str__(self) -> str:
        return f"{cents_text(self.face_cents)} {self.first_serial}–{self.last_serial}"

    @property
    def last_serial(self) -> int:
        return self.first_serial + BOOK_SIZE - 1


class TicketBookAssignment(SeanceAssignment):
    """A ticket book at a table for a séance, from its assignment to its return (model 11,
    columns 4–5)."""

    stock_field = "book"

    book = protected_fk(TicketBook, "assignments", _("ticket book"))
    table_session = seance_of("ticket_book_assignments")
    assigned_by = staff_member("ticket_books_assigned", _("assigned by"))
    returned_by = staff_member("ticket_books_returned", _("returned by"), optional=True)

    class Meta(SeanceAssignment.Meta):
        verbose_name = _("assignment of a ticket book")
        verbose_name_plural = _("assignments of ticket books")
        constraints = [
            one_table_at_a_time("book", _("This ticket book is already at a table.")),
            *SeanceAssignment.Meta.constraints,
        ]
