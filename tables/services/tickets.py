"""The house's ticket books, for a house that still tears tickets (arrêté du 14 mai 2007, arts.
56-1, 59, 82–83; docs/registers.md, "Tickets"): books of 200 tickets of one face value received
into stock, assigned to a table for its séance, returned (a partly used book goes back to stock
and may go out again, to this table or another) or destroyed. A book is never at two tables at
once: the database holds it (`TicketBookAssignment`'s partial unique index) and the service
says it first, naming the table where the book is. At most three face values are in use at one
table (art. 59).

Below the writes, what the table screen, the API and model 11 read of them: the books with
where each has been, and the tickets of a levy at a séance (`tables.tickets.tickets_for`, with
the face values of the books at the table).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import FilteredRelation, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _, gettext_lazy

from establishment.door import Fields
from establishment.errors import InvalidStateError
from establishment.models import LevyRecord
from establishment.roles import SUPERVISORS
from establishment.services import audit
from establishment.staff import role_required
from tables.memo import Memo
from tables.models import TableSession
from tables.services import inventory
from tables.services.inventory import StockBusyError
from tables.services.writing import open_table_session_lock
from tables.ticket_models import (
    BOOK_SIZE,
    LAST_FIRST_SERIAL,
    LAST_SERIAL,
    TicketBook,
    TicketBookAssignment,
    cents_text,
)
from tables.tickets import FACE_VALUES, MOST_FACES_AT_A_TABLE, Tickets, tickets_for

if TYPE_CHECKING:
    from django.contrib.auth.models import User

# At most this many books received at once (a delivery from the printer, not a typo of a range).
RECEIVE_MOST = 500


class TicketFacesError(StockBusyError):
    """A fourth face value at one table (art. 59: at most three in use at one table)."""


def faces_text(faces: Iterable[int]) -> str:
    """Face values as printed, smallest first: « 0,10 €, 1 €, 10 € »."""
    return ", ".join(cents_text(face) for face in sorted(faces))


def book_label(face: int, first_serial: int) -> str:
    """A book as its cover names it: « 1 € 201–400 »."""
    return _("%(face)s book %(first)d–%(last)d") % {
        "face": cents_text(face),
        "first": first_serial,
        "last": first_serial + BOOK_SIZE - 1,
    }


def _label(book: TicketBook) -> str:
    return book_label(book.face_cents, book.first_serial)


# The ticket books as one of the house's stocks (`tables.services.inventory`); what names a book
# in a refusal (`details`) names it in the audit log too.
BOOKS = inventory.Stock(
    items=TicketBook,
    assignments=TicketBookAssignment,
    label=_label,
    details=lambda book: {"face": book.face_cents, "first_serial": book.first_serial},
    words=inventory.Words(
        name="book",
        at_table=gettext_lazy("%(book)s is at table %(table)s: return it first."),
        destroyed=gettext_lazy("%(book)s was destroyed."),
        not_at_table=gettext_lazy("%(book)s is not at a table."),
        destroyed_already=gettext_lazy("%(book)s was destroyed already."),
    ),
)


def _face(fields: Fields, value: Any) -> int:
    """The face value, in cents, one of the arrêté's (art. 82)."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or value not in FACE_VALUES:
        fields.add(
            "face",
            _("Choose a face value: %(faces)s (in cents: %(cents)s).")
            % {"faces": faces_text(FACE_VALUES), "cents": ", ".join(map(str, FACE_VALUES))},
        )
        return 0
    face: int = value
    return face


def _first_serial(fields: Fields, name: str, value: Any) -> int:
    """The first serial of a book: 1, 201, 401, …, 999,801 (books of 200, cut on the hundreds:
    docs/registers.md, "Tickets")."""
    serial = fields.whole(name, value, 1, LAST_FIRST_SERIAL)
    if serial and serial % BOOK_SIZE != 1:
        below = serial - (serial - 1) % BOOK_SIZE
        fields.add(
            name,
            _("A book of 200 starts at serial 1, 201, 401, …: %(below)d, not %(serial)d.")
            % {"below": below, "serial": serial},
        )
        return 0
    return serial


def _delivery_firsts(fields: Fields, first: int, last: Any, books: Any) -> list[int]:
    """The first serials of the books delivered: from `first` to the book that ends at serial
    `last`, or `books` books from `first`; one book when neither is given."""
    given_last = last not in (None, "")
    given_books = books not in (None, "")
    if given_last and given_books:
        fields.add("books", _("Give the last serial or the number of books, not both."))
        return []
    count = 1
    if given_books:
        count = fields.whole("books", books, 1, RECEIVE_MOST)
    elif given_last:
        end = fields.whole("last", last, 1, LAST_SERIAL)
        if end and first:
            if end % BOOK_SIZE or end < first + BOOK_SIZE - 1:
                fields.add(
                    "last",
                    _("A book of 200 ends at serial 200, 400, …, from %(end)d on.")
                    % {"end": first + BOOK_SIZE - 1},
                )
                return []
            count = (end - first + 1) // BOOK_SIZE
            if count > RECEIVE_MOST:
                fields.add(
                    "last",
                    _("At most %(count)d books at once: up to serial %(end)d.")
                    % {"count": RECEIVE_MOST, "end": first + RECEIVE_MOST * BOOK_SIZE - 1},
                )
                return []
    if not first or not count:
        return []
    firsts = [first + BOOK_SIZE * k for k in range(count)]
    if firsts[-1] > LAST_FIRST_SERIAL:
        fields.add(
            "books",
            _("Serials stop at %(last)d: at most %(count)d books from %(first)d.")
            % {
                "last": LAST_SERIAL,
                "count": (LAST_FIRST_SERIAL - first) // BOOK_SIZE + 1,
                "first": first,
            },
        )
        return []
    return firsts


@transaction.atomic
def ticket_books_receive(
    *,
    face: Any,
    first: Any,
    last: Any = None,
    books: Any = None,
    received_from: str,
    received_by: User,
    client: str = "",
) -> list[TicketBook]:
    """Receive books of one face value into stock (an inspector or a manager): from the book
    that starts at serial `first` to the one that ends at serial `last`, or `books` books from
    `first`. Refused, with nothing received, when one of them is in stock already."""
    role_required(received_by, SUPERVISORS, "receive ticket books into stock")
    fields = Fields()
    face = _face(fields, face)
    start = _first_serial(fields, "first", first)
    firsts = _delivery_firsts(fields, start, last, books)
    received_from = fields.text("received_from", received_from, max_length=200)
    fields.refuse_if_any()
    taken = inventory.in_stock_already(
        TicketBook.objects.filter(face_cents=face, first_serial__in=firsts), "first_serial"
    )
    if taken:
        raise StockBusyError(
            _("Already in stock: %(books)s. Nothing was received.")
            % {"books": ", ".join(book_label(face, n) for n in taken)},
            face=face,
            first_serials=taken,
        )
    now = timezone.now()
    received = inventory.written_once(
        lambda: TicketBook.objects.bulk_create(
            TicketBook(
                face_cents=face,
                first_serial=n,
                received_at=now,
                received_by=received_by,
                received_from=received_from,
            )
            for n in firsts
        ),
        _("Someone received some of these books at the same moment; look again."),
    )
    audit(
        user=received_by,
        action="ticket_books_receive",
        client=client,
        face=face,
        first=firsts[0],
        last=firsts[-1] + BOOK_SIZE - 1,
        books=len(firsts),
    )
    return received


def _missing(face: int, first_serial: int) -> StockBusyError:
    return StockBusyError(
        _("No %(book)s in stock.") % {"book": book_label(face, first_serial)},
        face=face,
        first_serial=first_serial,
    )


def _book_locked(face: Any, first_serial: Any) -> TicketBook:
    book = (
        TicketBook.objects.select_for_update()
        .filter(face_cents=face, first_serial=first_serial)
        .first()
    )
    if book is None:
        raise _missing(face, first_serial)
    return book


def _free_books_locked(face: int, firsts: list[int]) -> list[TicketBook]:
    """The books, locked, in the order given (two queries however many): refused at the first
    one missing, destroyed or at a table."""
    books = {
        book.first_serial: book
        for book in TicketBook.objects.select_for_update().filter(
            face_cents=face, first_serial__in=firsts
        )
    }
    return inventory.free_locked(BOOKS, books, firsts, lambda n: _missing(face, n))


def _faces_at(table_session_id: int) -> set[int]:
    """The face values of the books at the table now."""
    return set(
        TicketBookAssignment.objects.filter(
            table_session_id=table_session_id, returned_at__isnull=True
        ).values_list("book__face_cents", flat=True)
    )


@transaction.atomic
def ticket_books_assign(
    *,
    table_session: TableSession,
    face: Any,
    first_serials: Iterable[Any],
    assigned_by: User,
    client: str = "",
) -> list[TicketBookAssignment]:
    """Assign books of one face value to an open table for its séance (an inspector or a
    manager), each named by its first serial. Refused, with nothing assigned, when the séance's
    house does not keep its levies with tickets, when a book is missing, destroyed or at a
    table, or when it would put a fourth face value in use at the table (art. 59)."""
    role_required(assigned_by, SUPERVISORS, "assign ticket books to a table")
    fields = Fields()
    face = _face(fields, face)
    wanted = sorted({_first_serial(fields, "first_serials", n) for n in first_serials} - {0})
    if not wanted and "first_serials" not in fields.errors:
        fields.add("first_serials", _("Choose at least one book: its first serial."))
    if len(wanted) > RECEIVE_MOST:
        fields.add("first_serials", _("At most %(count)d books at once.") % {"count": RECEIVE_MOST})
    fields.refuse_if_any()
    locked = open_table_session_lock(table_session)
    if locked.house_settings.levy_record != LevyRecord.TICKETS:
        raise InvalidStateError(
            _(
                "Table %(table)s keeps its levies without tickets (the house's settings of "
                "its séance): no ticket book goes to it."
            )
            % {"table": locked.table.number}
        )
    books = _free_books_locked(face, wanted)
    faces = _faces_at(locked.pk)
    if face not in faces and len(faces) >= MOST_FACES_AT_A_TABLE:
        raise TicketFacesError(
            _(
                "At most %(most)d face values at one table (art. 59): table %(table)s has "
                "%(faces)s already; return the books of one of them first."
            )
            % {
                "most": MOST_FACES_AT_A_TABLE,
                "table": locked.table.number,
                "faces": faces_text(faces),
            },
            faces=sorted(faces),
        )
    assignments = inventory.assignments_create(
        BOOKS,
        books,
        table_session=locked,
        assigned_by=assigned_by,
        refusal=_("Someone assigned one of these books at the same moment; look again."),
    )
    audit(
        user=assigned_by,
        action="ticket_books_assign",
        table_session=locked,
        client=client,
        face=face,
        first_serials=wanted,
    )
    return assignments


def _labels(ended: Iterable[TicketBookAssignment]) -> list[str]:
    """The books that came back, as their covers name them, in order of face and serial."""
    return [
        _label(a.book)
        for a in sorted(ended, key=lambda a: (a.book.face_cents, a.book.first_serial))
    ]


@transaction.atomic
def ticket_book_return(
    *, face: Any, first_serial: Any, returned_by: User, client: str = ""
) -> TicketBookAssignment:
    """Take a ticket book back from the table it is at (an inspector or a manager): it goes
    back to stock and may go out again."""
    role_required(returned_by, SUPERVISORS, "take ticket books back")
    book = _book_locked(face, first_serial)
    held = inventory.one_returned(BOOKS, book, returned_by)
    audit(
        user=returned_by,
        action="ticket_book_return",
        table_session=held.table_session,
        client=client,
        **BOOKS.details(book),
    )
    return held


def ticket_books_return_all(table_session: TableSession, returned_by: User, now: Any) -> list[str]:
    """At the close of a séance: every ticket book still at the table comes back (in the
    caller's transaction, the table's row locked), with its sabots and packs."""
    return _labels(inventory.all_returned(BOOKS, table_session, returned_by, now))


@transaction.atomic
def ticket_book_destroy(
    *, face: Any, first_serial: Any, reason: str, destroyed_by: User, client: str = ""
) -> TicketBook:
    """Destroy a ticket book (an inspector or a manager), with the reason; never one that is
    at a table."""
    role_required(destroyed_by, SUPERVISORS, "destroy ticket books")
    reason = inventory.destruction_reason(reason)
    book = inventory.destroyed(
        BOOKS, _book_locked(face, first_serial), reason=reason, by=destroyed_by
    )
    audit(
        user=destroyed_by,
        action="ticket_book_destroy",
        client=client,
        **BOOKS.details(book),
        reason=reason,
    )
    return book


# -- reads -------------------------------------------------------------------------------------


def ticket_book_list(*, table_session: TableSession | None = None) -> QuerySet[TicketBook]:
    """The house's ticket books with where each has been (model 11, columns 4–5), or those
    that have been at one séance."""
    books = inventory.house_stock_list(
        TicketBook.objects.all(), TicketBookAssignment, table_session=table_session
    )
    return books.order_by("face_cents", "first_serial")


@dataclass(frozen=True)
class SeanceTickets:
    """What the tickets of a séance's levies are made of, in a house that tears them: the
    currency and the value of a chip the séance kept, the face values of the books at the
    table (all of the arrêté's when none is there)."""

    currency: str
    cents_per_chip: int
    faces: tuple[int, ...]

    def of(self, levy_chips: int) -> Tickets:
        """The tickets to detach for a levy of `levy_chips` chips (`tickets_for`)."""
        return tickets_for(levy_chips * self.cents_per_chip, self.faces)


# How each séance keeps its levies, by its public id: the house's settings a séance keeps never
# change (a version of them is never edited, and the séance keeps the one it opened with).
_kept: Memo[tuple[str, int, str]] = Memo(size=4096)


def _house_and_faces_read(table_session: TableSession) -> tuple[tuple[str, int, str], set[int]]:
    """The séance's house settings (how it keeps its levies, the value of a chip, the
    currency) and the face values of the books at its table, in one query."""
    rows = (
        TableSession.objects.filter(pk=table_session.pk)
        .annotate(
            held=FilteredRelation(
                "ticket_book_assignments",
                condition=Q(ticket_book_assignments__returned_at__isnull=True),
            )
        )
        .values_list(
            "house_settings__levy_record",
            "house_settings__cents_per_chip",
            "house_settings__currency",
            "held__book__face_cents",
        )
    )
    found = list(rows)
    if not found:
        raise TableSession.DoesNotExist(f"No table session {table_session.pk}.")
    levy_record, cents_per_chip, currency, _face_cents = found[0]
    return (levy_record, cents_per_chip, currency), {row[3] for row in found if row[3]}


def seance_tickets_get(*, table_session: TableSession) -> SeanceTickets | None:
    """The tickets of the séance's levies, or None when its house does not keep its levies
    with tickets. No query when it does not and the séance's house settings are known (read
    with it, or once by this process); one query when it does: the face values of the books
    at the table."""
    house = table_session._state.fields_cache.get("house_settings")
    faces: set[int] | None = None
    if house is not None:
        kept = (house.levy_record, house.cents_per_chip, house.currency)
    else:
        read: list[set[int]] = []

        def first_read() -> tuple[str, int, str]:
            found, held = _house_and_faces_read(table_session)
            read.append(held)
            return found

        kept = _kept.get_or_compute(str(table_session.public_id), first_read)
        faces = read[0] if read else None
    levy_record, cents_per_chip, currency = kept
    if levy_record != LevyRecord.TICKETS:
        return None
    if faces is None:
        faces = _faces_at(table_session.pk)
    return SeanceTickets(currency, cents_per_chip, tuple(sorted(faces)) or FACE_VALUES)
