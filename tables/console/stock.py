"""The floor's numbered sabots and packs (carnet de prise en charge, model 19; art. 58): what
is in stock and where each number is, received, assigned to a table for its séance, taken back
or destroyed. Each write is an inspector's and calls one service of `tables.services.stock`;
the page is drawn again with the refusal in place.
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

from establishment.errors import DomainError, InvalidInputError
from establishment.http import console as screen
from tables.console.access import is_inspector
from tables.console.floor import floor_check, inspector_check
from tables.models import TableSession
from tables.selectors import stock_list
from tables.services.stock import stock_assign, stock_destroy, stock_receive, stock_return
from tables.stock_models import StockKind

if TYPE_CHECKING:
    from establishment.http.console import ConsoleRequest, Problem

STOCK = "console/stock.html"
NUMBERS = re.compile(r"^\s*\d{1,6}(\s*-\s*\d{1,6})?\s*$")


def numbers_parse(text: str) -> list[int]:
    """« 3, 4, 7-9 » → [3, 4, 7, 8, 9]; refused in words when it is not such a list (a range
    runs upwards, at most 1000 numbers)."""
    numbers: list[int] = []
    for part in (p for p in text.split(",") if p.strip()):
        first, _dash, last = part.partition("-")
        if not NUMBERS.match(part) or not 0 <= int(last or first) - int(first) < 1000:
            message = _("Enter numbers and ranges separated by commas: 3, 4, 7-9.")
            raise InvalidInputError(message, fields={"numbers": [message]})
        numbers += list(range(int(first), int(last or first) + 1))
    return numbers


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
        rows.append({"item": item, "here": here, "history": history, "used": item.sabots.all()})
    return {
        "rows": rows,
        "seances": list(open_seances),
        "kinds": StockKind.choices,
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


@require_POST
@screen.console_view
def receive(request: ConsoleRequest) -> HttpResponse:
    post = request.POST
    return _stock_write(
        request,
        lambda: stock_receive(
            kind=post.get("kind", ""),
            first=post.get("first", ""),
            last=post.get("last") or post.get("first", ""),
            decks=post.get("decks", ""),
            received_from=post.get("received_from", ""),
            received_by=screen.staff_of(request),
            client=screen.client_of(request),
        ),
    )


@require_POST
@screen.console_view
def assign(request: ConsoleRequest) -> HttpResponse:
    post = request.POST

    def write() -> object:
        try:
            chosen = UUID(str(post.get("table_session", "")))
        except ValueError:
            raise DomainError(_("Choose an open table.")) from None
        seance = TableSession.objects.filter(public_id=chosen, closed_at__isnull=True).first()
        if seance is None:
            raise DomainError(_("Choose an open table."))
        return stock_assign(
            table_session=seance,
            kind=post.get("kind", ""),
            numbers=numbers_parse(post.get("numbers", "")),
            assigned_by=screen.staff_of(request),
            client=screen.client_of(request),
        )

    return _stock_write(request, write)


def _one(request: ConsoleRequest) -> tuple[str, int]:
    form = _StockForm(request.POST)
    if not form.is_valid() or form.cleaned_data["number"] is None:
        raise DomainError(_("Say which sabot or pack: its kind and its number."))
    return form.cleaned_data["kind"], form.cleaned_data["number"]


def _on_one(request: ConsoleRequest, write: Callable[[str, int, Any, str], object]) -> HttpResponse:
    """A write on one numbered sabot or pack (its kind and number posted): `write` is given
    them, who acts and from where."""

    def run() -> object:
        kind, number = _one(request)
        return write(kind, number, screen.staff_of(request), screen.client_of(request))

    return _stock_write(request, run)


@require_POST
@screen.console_view
def take_back(request: ConsoleRequest) -> HttpResponse:
    return _on_one(
        request,
        lambda kind, number, by, client: stock_return(
            kind=kind, number=number, returned_by=by, client=client
        ),
    )


@require_POST
@screen.console_view
def destroy(request: ConsoleRequest) -> HttpResponse:
    reason = request.POST.get("reason", "")
    return _on_one(
        request,
        lambda kind, number, by, client: stock_destroy(
            kind=kind, number=number, reason=reason, destroyed_by=by, client=client
        ),
    )
