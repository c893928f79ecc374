"""The reception: the door's screens (issue 13, item 2).

Players: a search that answers as the receptionist types (htmx, `input changed delay:200ms`),
the register form (every field of the identity; errors in place, a refusal in the words of
`player_admission_check` and nothing more) and one player's record. The exclusion list
(arrêté du 14 mai 2007, art. 22): its search, an entry added or lifted, a CSV file imported
(docs/exclusions.md) with its progress polled while the worker imports it.

Each write parses a form, calls one service and draws its region again (docs/conventions.md,
rule 1); the services check who may do it. A player's identity (birth, address, document) is
drawn only for `IDENTITY_READERS` (the door and the auditors): a croupier sees the name and the
member number, nothing more.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from uuid import UUID

from django.http import Http404, HttpResponse, QueryDict
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from establishment.console.reception_forms import (
    ExclusionAddForm,
    ExclusionImportForm,
    ExclusionLiftForm,
    PlayerRegisterForm,
)
from establishment.door import exclusion_add, exclusion_lift, player_register
from establishment.errors import DomainError, InvalidInputError, PermissionDeniedError
from establishment.exclusions import exclusion_import
from establishment.http.console import client_of, console_view, page_or_part, refusal, staff_of
from establishment.models import AuditEntry, ExclusionEntry, ExclusionImport, Player
from establishment.roles import DOOR_KEEPERS, IDENTITY_READERS
from establishment.selectors import exclusion_import_list, exclusion_search, player_search
from establishment.staff import roles_check, roles_of

if TYPE_CHECKING:
    from establishment.http.console import ConsoleRequest

PLAYERS = "establishment/reception_players.html"
PLAYER = "establishment/reception_player.html"
EXCLUSIONS = "establishment/reception_exclusions.html"

# Who opens the reception's screens at all: any member of staff reads the players' names (a
# croupier seats them); the exclusion list is the door's and the auditors'.
LIST_READERS = IDENTITY_READERS


def _staff_check(request: ConsoleRequest) -> None:
    if not roles_of(request.user):
        raise PermissionDeniedError(_("Your account has no staff role: ask a manager."))


def _list_check(request: ConsoleRequest) -> None:
    if not roles_of(request.user) & LIST_READERS:
        raise PermissionDeniedError(
            _("The exclusion list is for the reception, inspectors, managers and auditors.")
        )


def _door_check(request: ConsoleRequest) -> None:
    refused = _("Only the reception, an inspector or a manager may do this.")
    roles_check(request.user, DOOR_KEEPERS, refused)


def _roles(request: ConsoleRequest) -> dict[str, bool]:
    held = roles_of(request.user)
    return {
        "door_keeper": bool(held & DOOR_KEEPERS),
        "sees_identity": bool(held & IDENTITY_READERS),
        "sees_list": bool(held & LIST_READERS),
    }


def _errors(form: Any, error: DomainError | None = None) -> dict[str, list[str]]:
    """The errors to draw beside each field: the service's when it names them
    (`InvalidInputError`), else the form's (types; none once it is valid)."""
    if isinstance(error, InvalidInputError):
        return error.fields
    return {name: [str(m) for m in messages] for name, messages in form.errors.items()}


def _query(params: QueryDict) -> str:
    """What is searched for (`q`), cut to a length a name never reaches."""
    return params.get("q", "")[:100]


def _screen_context(request: ConsoleRequest, query: str, **drawn: Any) -> dict[str, Any]:
    """What every screen of the reception is drawn with: what the user's roles let him see, the
    search, no problem yet, and what the screen itself shows."""
    return _roles(request) | {"query": query, "problem": None} | drawn


def _search(
    request: ConsoleRequest,
    template: str,
    results: str,
    page: str,
    context_of: Callable[[ConsoleRequest, str], dict[str, Any]],
    **page_only: Any,
) -> HttpResponse:
    """A search screen: its `results` alone when htmx asks for them as one types, else its
    region `page` (the whole page without htmx) with what only the page shows."""
    context = context_of(request, _query(request.GET))
    if request.htmx and request.htmx.target == results:
        return page_or_part(request, template, results, context)
    return page_or_part(request, template, page, context | page_only)


# -- players ------------------------------------------------------------------------------------


def _players_context(request: ConsoleRequest, query: str) -> dict[str, Any]:
    return _screen_context(request, query, results=player_search(query=query) if query else [])


@require_GET
@console_view
def players(request: ConsoleRequest) -> HttpResponse:
    """The search (its results alone when htmx asks as the receptionist types) and the form."""
    _staff_check(request)
    form = PlayerRegisterForm()
    return _search(request, PLAYERS, "results", "register", _players_context, form=form, errors={})


@require_POST
@console_view
def player_register_view(request: ConsoleRequest) -> HttpResponse:
    """Register a player: the record's page when done; else the form again, its errors beside
    each field (422), or the refusal (422, the same words whatever the reason)."""
    _door_check(request)
    form = PlayerRegisterForm(request.POST)
    context = _players_context(request, "") | {"form": form, "errors": {}}
    if not form.is_valid():
        context["errors"] = _errors(form)
        return page_or_part(request, PLAYERS, "register", context, status=422)
    try:
        player = player_register(
            **form.cleaned_data, registered_by=staff_of(request), client=client_of(request)
        )
    except DomainError as error:
        context["errors"] = _errors(form, error)
        status, context["problem"] = refusal(error, "register")
        return page_or_part(request, PLAYERS, "register", context, status=status)
    url = reverse("reception:player", args=[player.public_id])
    if request.htmx:
        return HttpResponseClientRedirect(url)
    response = HttpResponse(status=303)
    response["Location"] = url
    return response


@require_GET
@console_view
def player(request: ConsoleRequest, player: UUID) -> HttpResponse:
    """One player's record; his identity and his admission checks for those who may read
    them."""
    _staff_check(request)
    found = Player.objects.select_related("registered_by").filter(public_id=player).first()
    if found is None:
        raise Http404("No such player.")
    context = _roles(request) | {"player": found, "checks": []}
    if context["sees_identity"]:
        context["checks"] = list(
            AuditEntry.objects.filter(action="admission_check", data__player=str(found.public_id))
            .select_related("actor")
            .order_by("-at", "-pk")[:20]
        )
    return page_or_part(request, PLAYER, "record", context)


# -- the exclusion list -------------------------------------------------------------------------


def _exclusions_context(request: ConsoleRequest, query: str) -> dict[str, Any]:
    return _screen_context(
        request,
        query,
        entries=exclusion_search(query=query),
        imports=exclusion_import_list(),
        add_form=ExclusionAddForm(),
        import_form=ExclusionImportForm(),
        errors={},
    )


@require_GET
@console_view
def exclusions(request: ConsoleRequest) -> HttpResponse:
    """The list (searched as one types), the form to add an entry, the imports."""
    _list_check(request)
    return _search(request, EXCLUSIONS, "entries", "exclusions", _exclusions_context)


def _exclusions_write(
    request: ConsoleRequest, form: Any, write: Callable[[dict[str, Any]], object]
) -> HttpResponse:
    """A write of the list: the whole region drawn again, with the problem if any."""
    _door_check(request)
    context = _exclusions_context(request, _query(request.POST))
    status = 200
    if not form.is_valid():
        context["errors"] = _errors(form)
        status = 422
    else:
        try:
            write(form.cleaned_data)
        except DomainError as error:
            context["errors"] = _errors(form, error)
            status, context["problem"] = refusal(error, "exclusions")
    if status != 200 and isinstance(form, ExclusionAddForm):
        context["add_form"] = form
    context = context | {"entries": exclusion_search(query=context["query"])}
    context["imports"] = exclusion_import_list()
    return page_or_part(request, EXCLUSIONS, "exclusions", context, status=status)


@require_POST
@console_view
def exclusion_add_view(request: ConsoleRequest) -> HttpResponse:
    def write(data: dict[str, Any]) -> object:
        return exclusion_add(**data, added_by=staff_of(request), client=client_of(request))

    return _exclusions_write(request, ExclusionAddForm(request.POST), write)


@require_POST
@console_view
def exclusion_lift_view(request: ConsoleRequest, entry: UUID) -> HttpResponse:
    _door_check(request)
    found = ExclusionEntry.objects.filter(public_id=entry).first()
    if found is None:
        raise Http404("No such entry.")

    def write(data: dict[str, Any]) -> object:
        return exclusion_lift(
            entry=found,
            reason=data["reason"],
            lifted_by=staff_of(request),
            client=client_of(request),
        )

    return _exclusions_write(request, ExclusionLiftForm(request.POST), write)


@require_POST
@console_view
def exclusion_import_view(request: ConsoleRequest) -> HttpResponse:
    def write(data: dict[str, Any]) -> object:
        upload = data["file"]
        return exclusion_import(
            file_name=upload.name,
            content=upload.read(),
            imported_by=staff_of(request),
            client=client_of(request),
        )

    return _exclusions_write(request, ExclusionImportForm(request.POST, request.FILES), write)


@require_GET
@console_view
def exclusion_import_progress(request: ConsoleRequest, job: UUID) -> HttpResponse:
    """One import's progress, polled every second until it is finished."""
    _list_check(request)
    found = ExclusionImport.objects.defer("content").filter(public_id=job).first()
    if found is None:
        raise Http404("No such import.")
    return page_or_part(request, EXCLUSIONS, "import", {"job": found})
