"""The floor: every open table at a glance, and what the inspectors do there.

Opening and closing the night (the gaming session) and its tables, interrupting and resuming
play, assigning croupiers. Each write is an inspector's (`inspector_check`), calls one service
(docs/conventions.md, rule 1) and answers with the floor drawn again, a refusal shown on it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from uuid import UUID

from django.contrib.auth.models import User
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from establishment.errors import DomainError, PermissionDeniedError
from establishment.http.console import client_of, console_view, page_or_part, refusal, staff_of
from establishment.models import GamingSession
from establishment.roles import SUPERVISORS
from establishment.services import gaming_session_open
from establishment.staff import roles_check
from tables.console.access import is_inspector, sees_floor, table_session_get
from tables.console.forms import DutyForm, PauseForm, TableOpenForm
from tables.console.screen import new_key, screen_build
from tables.console.views import table_event, table_write
from tables.models import AssignmentRole, Table, TableSession
from tables.selectors import (
    duty_period_list,
    staff_free_list,
    table_state_get,
    void_request_pending_list,
)
from tables.services import (
    gaming_session_close,
    staff_assign,
    staff_release,
    table_interrupt,
    table_resume,
    table_session_close,
    table_session_open,
)

if TYPE_CHECKING:
    from establishment.http.console import ConsoleRequest, Problem

FLOOR = "console/floor.html"


def _gaming_session() -> GamingSession | None:
    return GamingSession.objects.filter(closed_at__isnull=True).order_by("-opened_at").first()


def _gaming_session_open_now(missing: str) -> GamingSession:
    """The gaming session open now; refused with the words `missing` when none is."""
    session = _gaming_session()
    if session is None:
        raise DomainError(missing)
    return session


def _floor_context(request: ConsoleRequest) -> dict[str, Any]:
    session = _gaming_session()
    rows = []
    # The staff on shift and free, offered for each duty (art. 58).
    free = {
        role: list(staff_free_list(role=role, gaming_session=session)) if session else []
        for role in AssignmentRole
    }
    if session is not None:
        open_sessions = (
            TableSession.objects.filter(gaming_session=session, closed_at__isnull=True)
            .select_related("table", "gaming_session")
            .prefetch_related("assignments__staff")
            .order_by("table__number")
        )
        for table_session in open_sessions:
            state = table_state_get(table_session=table_session)
            on_duty = {a.role: a for a in table_session.assignments.all() if a.released_at is None}
            rows.append(
                {
                    "table_session": table_session,
                    "screen": screen_build(state, coups=(), may_record=False),
                    "duty": [(role, on_duty.get(role), free[role]) for role in AssignmentRole],
                    "pause_key": new_key(),
                }
            )
    open_tables = [ts.table_id for ts in TableSession.objects.filter(closed_at__isnull=True)]
    return {
        "gaming_session": session,
        "rows": rows,
        "closed_tables": [
            t for t in Table.objects.filter(is_active=True) if t.pk not in open_tables
        ],
        "pending": list(void_request_pending_list(gaming_session=session)) if session else [],
        "inspector": is_inspector(request.user),
    }


def floor_answer(
    request: ConsoleRequest, *, status: int = 200, problem: Problem | None = None
) -> HttpResponse:
    """The answer of every write on the floor: the floor drawn again (htmx), with the problem
    if there is one; a browser without htmx is sent back to the floor when all went well."""
    if not request.htmx and status == 200:
        return HttpResponseRedirect(reverse("console:floor"))
    context = _floor_context(request) | {"problem": problem}
    return page_or_part(request, FLOOR, "floor", context, status=status)


def floor_check(request: ConsoleRequest) -> None:
    if not sees_floor(request.user):
        raise PermissionDeniedError(_("The floor view is for inspectors, auditors and managers."))


def inspector_check(request: ConsoleRequest) -> None:
    # The services check the same set (`establishment.roles.SUPERVISORS`).
    roles_check(request.user, SUPERVISORS, _("Only a table inspector or a manager may do this."))


@require_GET
@console_view
def floor(request: ConsoleRequest) -> HttpResponse:
    """Every table of the session: state, banker, bank, cagnotte; polled every few seconds."""
    floor_check(request)
    return page_or_part(request, FLOOR, "floor", _floor_context(request) | {"problem": None})


def _floor_write(request: ConsoleRequest, write: Callable[[], object]) -> HttpResponse:
    inspector_check(request)
    try:
        write()
    except DomainError as error:
        status, problem = refusal(error)
        return floor_answer(request, status=status, problem=problem)
    return floor_answer(request)


def _floor_or_table_write(
    request: ConsoleRequest, table_session: TableSession, control: str, write: Callable[[], object]
) -> HttpResponse:
    """A write on a table asked from the floor, or from the table screen (`from=table`): the
    answer is the screen it was asked from (on the table screen, about control `control`)."""
    if request.POST.get("from") == "table":
        inspector_check(request)
        return table_write(request, table_session, control, write)
    return _floor_write(request, write)


@require_POST
@console_view
def session_open(request: ConsoleRequest) -> HttpResponse:
    def write() -> object:
        if _gaming_session() is not None:
            raise DomainError(_("A gaming session is already open."))
        return gaming_session_open(opened_by=staff_of(request), client=client_of(request))

    return _floor_write(request, write)


@require_POST
@console_view
def session_close(request: ConsoleRequest) -> HttpResponse:
    def write() -> object:
        return gaming_session_close(
            gaming_session=_gaming_session_open_now(_("No gaming session is open.")),
            user=staff_of(request),
            client=client_of(request),
        )

    return _floor_write(request, write)


@require_POST
@console_view
def table_open(request: ConsoleRequest) -> HttpResponse:
    form = TableOpenForm(request.POST)

    def write() -> object:
        session = _gaming_session_open_now(_("Open a gaming session first."))
        if not form.is_valid():
            raise DomainError(_("Choose a table to open."))
        table = Table.objects.filter(public_id=form.cleaned_data["table"]).first()
        if table is None:
            raise Http404("No such table.")
        return table_session_open(
            table=table,
            gaming_session=session,
            opened_by=staff_of(request),
            client=client_of(request),
        )

    return _floor_write(request, write)


@require_POST
@console_view
def table_close(request: ConsoleRequest, table_session: UUID) -> HttpResponse:
    found = table_session_get(request.user, table_session)
    return _floor_write(
        request,
        lambda: table_session_close(
            table_session=found,
            user=staff_of(request),
            client=client_of(request),
            force=request.POST.get("force") == "1",
            reason=str(request.POST.get("reason", ""))[:500],
        ),
    )


@require_POST
@console_view
def table_pause(request: ConsoleRequest, table_session: UUID, how: str) -> HttpResponse:
    """Interrupt or resume play at a table (an incident, a break), from the floor or from the
    table screen (then the answer is the table's regions that changed)."""
    found = table_session_get(request.user, table_session)
    form = PauseForm(request.POST)
    service = table_interrupt if how == "interrupt" else table_resume

    def write() -> object:
        if not form.is_valid():
            raise DomainError(_("The screen is out of date; reload it."))
        return table_event(service, request, found, form)

    return _floor_or_table_write(request, found, "pause", write)


@require_POST
@console_view
def duty_change(request: ConsoleRequest, table_session: UUID) -> HttpResponse:
    """Put a croupier or a changeur on duty at a table, relieving the one there (or, with
    `release`, end that duty): from the floor, or from the table screen (`from=table`)."""
    found = table_session_get(request.user, table_session)
    form = DutyForm(request.POST)

    def write() -> object:
        if not form.is_valid():
            raise DomainError(_("Choose the duty (croupier or changeur) and who takes it."))
        role = form.cleaned_data["role"]
        if form.cleaned_data["release"]:
            return staff_release(
                table_session=found,
                role=role,
                released_by=staff_of(request),
                client=client_of(request),
            )
        username = form.cleaned_data["staff"]
        staff = User.objects.filter(username=username).first() if username else None
        if staff is None:
            raise DomainError(_("Choose who takes the duty from the list."))
        return staff_assign(
            table_session=found,
            staff=staff,
            role=role,
            assigned_by=staff_of(request),
            client=client_of(request),
        )

    return _floor_or_table_write(request, found, "duty", write)


@require_GET
@console_view
def voids(request: ConsoleRequest) -> HttpResponse:
    """The voids waiting for a decision, each decided here (as on the floor)."""
    floor_check(request)
    return voids_answer(request)


def voids_answer(
    request: ConsoleRequest, *, status: int = 200, problem: Problem | None = None
) -> HttpResponse:
    """The voids page, or (htmx) its list drawn again after a decision."""
    session = _gaming_session()
    context = {
        "pending": list(void_request_pending_list(gaming_session=session)) if session else [],
        "inspector": is_inspector(request.user),
        "problem": problem,
    }
    return page_or_part(request, "console/voids.html", "voids", context, status=status)


@require_GET
@console_view
def duty(request: ConsoleRequest) -> HttpResponse:
    """Every duty period of the night: who, role, table, from, until, who assigned, who ended."""
    floor_check(request)
    session = _gaming_session()
    periods = list(duty_period_list(gaming_session=session)) if session else []
    return page_or_part(
        request, "console/duty.html", "duty", {"gaming_session": session, "periods": periods}
    )
