"""The floor's numbered sabots and packs (carnet de prise en charge, model 19; art. 58) and, for
a house that still tears tickets, its ticket books (arts. 59, 82–83; model 11, columns 4–5):
what is in stock and where each is, received, assigned to a table for its séance, taken back or
destroyed. Each write is an inspector's and calls one service of `tables.services.stock` or
`tables.services.tickets`; the page is drawn again with the refusal in place.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from uuid import UUID

from django import forms
from django.http import HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from establishment.errors import DomainError
from establishment.http import console as screen
from tables.console.access import is_inspector
from tables.console.floor import floor_check, inspector_check
from tables.models import TableSession
from tables.selectors import open_table_session_get, stock_list
from tables.services.inventory import ranges_parse
from tables.services.stock import stock_assign, stock_destroy, stock_receive, stock_return
from tables.services.tickets import (
    ticket_book_destroy,
    ticket_book_list,
    ticket_book_return,
    ticket_books_assign,
    ticket_books_receive,
)
from tables.stock_models import StockKind
from tables.ticket_models import BOOK_SIZE, FACE_CHOICES

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

    from establishment.http.console import ConsoleRequest, Problem

STOCK = "console/stock.html"
NUMBERS = re.compile(r"^\s*\d{1,6}(\s*-\s*\d{1,6})?\s*$")
SERIALS = re.compile(r"^\s*\d{1,7}(\s*-\s*\d{1,7})?\s*$")


def numbers_parse(text: str) -> list[int]:
    """« 3, 4, 7-9 » → [3, 4, 7, 8, 9]; refused in words when it is not such a list (a range
    runs upwards, at most 1000 numbers)."""
    message = _("Enter numbers and ranges separated by commas: 3, 4, 7-9.")
    parts = ranges_parse(text, pattern=NUMBERS, field="numbers", message=message, most=1000)
    return [n for first, last in parts for n in range(first, (last or first) + 1)]


def serials_parse(text: str) -> list[int]:
    """The ticket books named by their first serials: « 1, 201 » → [1, 201]; a range of
    serials names the books that start in it: « 201-800 » → [201, 401, 601]. Refused in words
    when it is not such a list (a range runs upwards)."""
    message = _("Enter first serials and ranges separated by commas: 1, 201, 401-1000.")
    firsts: list[int] = []
    for first, last in ranges_parse(text, pattern=SERIALS, field="first_serials", message=message):
        if last is None:
            firsts.append(first)
            continue
        start = first + (-(first - 1)) % BOOK_SIZE  # the first book starting in it
        firsts += list(range(start, last + 1, BOOK_SIZE))
    return firsts


class _StockForm(forms.Form):
    kind = forms.ChoiceField(label=gettext_lazy("Kind"), choices=StockKind.choices)
    number = forms.IntegerField(label=gettext_lazy("Number"), min_value=1, required=False)


def _context(request: ConsoleRequest, problem: Problem | None = None) -> dict[str, Any]:
    open_seances = (
        TableSession.objects.filter(closed_at__isnull=True)
        .select_related("table")
        .order_by("table__number")
    )
    rows = []
    for item in stock_list():
        history = list(item.assignments.all())
        here = next((a for a in history if a.returned_at is None), None)
        keys = [("kind", item.kind), ("number", item.number)]
        used = item.sabots.all()
        rows.append({"item": item, "here": here, "history": history, "used": used, "keys": keys})
    books = []
    for book in ticket_book_list():
        went = list(book.assignments.all())
        held = next((a for a in went if a.returned_at is None), None)
        keys = [("face", book.face_cents), ("first_serial", book.first_serial)]
        books.append({"book": book, "here": held, "history": went, "keys": keys})
    return {
        "rows": rows,
        "books": books,
        "seances": list(open_seances),
        "kinds": StockKind.choices,
        "faces": FACE_CHOICES,
        "inspector": is_inspector(request.user),
        "problem": problem,
    }


def _answer(
    request: ConsoleRequest, *, status: int = 200, problem: Problem | None = None
) -> HttpResponse:
    return screen.write_answer(
        request,
        reverse("console:stock"),
        STOCK,
        "stock",
        lambda: _context(request, problem),
        status=status,
    )


def _stock_write(request: ConsoleRequest, write: Callable[[], object]) -> HttpResponse:
    inspector_check(request)
    try:
        write()
    except DomainError as error:
        status, problem = screen.refusal(error, "stock")
        return _answer(request, status=status, problem=problem)
    return _answer(request)


@require_GET
@screen.console_view
def stock(request: ConsoleRequest) -> HttpResponse:
    """Every numbered sabot and pack: where it is now and where it has been."""
    floor_check(request)
    return screen.page_or_part(request, STOCK, "stock", _context(request))


def _receive_view(
    write: Callable[..., object], *fields: str, blank_as: dict[str, str] | None = None
) -> Callable[..., HttpResponse]:
    """A delivery received into one of the house's stocks: `write` given the posted `fields`
    as typed (the service checks them and says what is wrong), a blank field of `blank_as`
    taking the value of the field it names (a blank « to no. » receives one number)."""

    @require_POST
    @screen.console_view
    def received(request: ConsoleRequest) -> HttpResponse:
        post = request.POST
        given = {name: post.get(name, "") for name in fields}
        for blank, instead in (blank_as or {}).items():
            given[blank] = given[blank] or given[instead]
        return _stock_write(
            request,
            lambda: write(
                **given, received_by=screen.staff_of(request), client=screen.client_of(request)
            ),
        )

    return received


receive = _receive_view(
    stock_receive, "kind", "first", "last", "decks", "received_from", blank_as={"last": "first"}
)


def _open_seance(request: ConsoleRequest) -> TableSession:
    """The open séance chosen in the form (its public id)."""
    try:
        chosen = UUID(str(request.POST.get("table_session", "")))
    except ValueError:
        raise DomainError(_("Choose an open table.")) from None
    seance = open_table_session_get(public_id=chosen)
    if seance is None:
        raise DomainError(_("Choose an open table."))
    return seance


def _assign_view(
    write: Callable[..., object], choice: str, items: str, parse: Callable[[str], list[int]]
) -> Callable[..., HttpResponse]:
    """Items of one of the house's stocks assigned to the open séance chosen: `write` given
    the posted `choice` (a kind, a face value) and the items named in `items`, read by
    `parse` (refused in words when they are not a list of them)."""

    @require_POST
    @screen.console_view
    def assigned(request: ConsoleRequest) -> HttpResponse:
        post = request.POST

        def run() -> object:
            return write(
                table_session=_open_seance(request),
                **{choice: post.get(choice, ""), items: parse(post.get(items, ""))},
                assigned_by=screen.staff_of(request),
                client=screen.client_of(request),
            )

        return _stock_write(request, run)

    return assigned


assign = _assign_view(stock_assign, "kind", "numbers", numbers_parse)


def _item_writes(
    form_class: type[forms.Form],
    refusal: StrOrPromise,
    give_back: Callable[..., object],
    destroy: Callable[..., object],
) -> tuple[Callable[..., HttpResponse], Callable[..., HttpResponse]]:
    """The two writes on one item of stock, named by the two fields of `form_class` posted (a
    kind and a number; a face value and a first serial), refused in the words of `refusal`
    when they are not: taken back from its table (`give_back`), destroyed with the reason
    posted (`destroy`). The services take the fields by the form's names."""

    def on_item(
        request: ConsoleRequest, write: Callable[..., object], by: str, **given: Any
    ) -> HttpResponse:
        def run() -> object:
            form = form_class(request.POST)
            named = form.cleaned_data if form.is_valid() else {}
            if len(named) != 2 or None in named.values():
                raise DomainError(str(refusal))
            who = {by: screen.staff_of(request)}
            return write(**named, **given, **who, client=screen.client_of(request))

        return _stock_write(request, run)

    @require_POST
    @screen.console_view
    def returned(request: ConsoleRequest) -> HttpResponse:
        return on_item(request, give_back, "returned_by")

    @require_POST
    @screen.console_view
    def destroyed(request: ConsoleRequest) -> HttpResponse:
        return on_item(request, destroy, "destroyed_by", reason=request.POST.get("reason", ""))

    return returned, destroyed


take_back, destroy = _item_writes(
    _StockForm,
    gettext_lazy("Say which sabot or pack: its kind and its number."),
    stock_return,
    stock_destroy,
)


# -- ticket books (arts. 59, 82–83) --------------------------------------------------------


class _BookForm(forms.Form):
    face = forms.TypedChoiceField(
        label=gettext_lazy("Face value"), choices=FACE_CHOICES, coerce=int
    )
    first_serial = forms.IntegerField(label=gettext_lazy("First serial"), min_value=1)


tickets_receive = _receive_view(
    ticket_books_receive, "face", "first", "last", "books", "received_from"
)
tickets_assign = _assign_view(ticket_books_assign, "face", "first_serials", serials_parse)
tickets_return, tickets_destroy = _item_writes(
    _BookForm,
    gettext_lazy("Say which ticket book: its face value and its first serial."),
    ticket_book_return,
    ticket_book_destroy,
)
