"""The corrections at a table: undoing the last action, asking for a void and deciding one.

Nothing is erased: an undo is an event of its own, a void a request an inspector approves or
refuses (docs/conventions.md, invariant 3). Each answers with the regions of the table screen
that changed (`tables.console.views`), or the floor when the decision was taken there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from uuid import UUID

from django.http import HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from establishment.errors import DomainError, PermissionDeniedError
from establishment.http.console import (
    Problem,
    client_of,
    console_view,
    form_problem,
    refusal,
    staff_of,
)
from tables.console.access import sees_floor, table_session_get
from tables.console.floor import floor_answer, voids_answer
from tables.console.forms import CorrectionForm, VoidDecisionForm, VoidRequestForm
from tables.console.views import table_answer, table_event, table_write
from tables.models import TableSession
from tables.selectors import coup_list
from tables.services import StaleSequenceError, undo, void_decide, void_request, void_request_get

if TYPE_CHECKING:
    from establishment.http.console import ConsoleRequest


@require_POST
@console_view
def action_undo(request: ConsoleRequest, table_session: UUID) -> HttpResponse:
    """Undo the last action of the open coup (an event; nothing is erased)."""
    found = table_session_get(request.user, table_session)
    form = CorrectionForm(request.POST)
    if not form.is_valid():
        return table_answer(request, found, status=422, problem=form_problem("undo", form))
    return table_write(request, found, "undo", lambda: table_event(undo, request, found, form))


@require_POST
@console_view
def void_ask(request: ConsoleRequest, table_session: UUID) -> HttpResponse:
    """The croupier asks for the last coup the screen shows to be voided, with a reason.

    Only the last coup of a table can be voided (the service's rule); the form is drawn once
    with the page, so the coup is the newest one settled before the screen's sequence number: a
    coup settled since (another device) makes the screen stale (409), never the wrong coup.
    """
    found = table_session_get(request.user, table_session)
    form = VoidRequestForm(request.POST)
    if not form.is_valid():
        return table_answer(request, found, status=422, problem=form_problem("void", form))
    target = coup_list(table_session=found).first()
    if target is None:
        problem = Problem("void", "no_coup", _("No coup has been settled at this table yet."))
        return table_answer(request, found, status=422, problem=problem)

    def write() -> object:
        if target.settled_seq >= form.cleaned_data["expected_seq"]:
            raise StaleSequenceError(
                _("Another coup was settled since this screen was drawn."),
                expected_seq=target.settled_seq + 1,
                given_seq=form.cleaned_data["expected_seq"],
            )
        return void_request(
            coup=target,
            user=staff_of(request),
            reason=form.cleaned_data["reason"],
            client=client_of(request),
        )

    return table_write(request, found, "void", write)


@require_POST
@console_view
def void_answer(request: ConsoleRequest, void: UUID) -> HttpResponse:
    """An inspector approves or refuses a void (from the floor or the table screen)."""
    if not sees_floor(request.user):
        raise PermissionDeniedError(_("Only a table inspector may approve or refuse a void."))
    found = void_request_get(public_id=void)
    table_session = TableSession.objects.select_related("table", "gaming_session").get(
        pk=found.coup.table_session_id
    )
    form = VoidDecisionForm(request.POST)
    problem: Problem | None = None
    if not form.is_valid():
        problem = form_problem("void", form)
    else:
        try:
            void_decide(
                request=found,
                user=staff_of(request),
                approve=form.cleaned_data["approve"],
                password=form.cleaned_data["password"],
                note=form.cleaned_data["note"],
                client=client_of(request),
            )
        except DomainError as error:
            _status, problem = refusal(error, "void")
    # A decision refused is shown in place, whatever the refusal: 403 or 422.
    status = 200 if problem is None else 403 if problem.code == "permission_denied" else 422
    if request.POST.get("from") == "table":
        return table_answer(request, table_session, status=status, problem=problem)
    if request.POST.get("from") == "voids":
        return voids_answer(request, status=status, problem=problem)
    return floor_answer(request, status=status, problem=problem)
