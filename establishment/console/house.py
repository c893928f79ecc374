"""The manager's screen of the house's settings (docs/registers.md, "Common to every
register"): the version in force and every version before it, and a change as a new version
with its reason. One service, `establishment.house.house_settings_change`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.http import HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from establishment.errors import DomainError
from establishment.house import (
    HOUSE_FIELDS,
    HOUSE_KEEPERS,
    house_settings_change,
    house_settings_current,
)
from establishment.http import console as screen
from establishment.models import Currency, HouseSettings, LevyRecord, LevyTieRule
from establishment.staff import role_required

if TYPE_CHECKING:
    from establishment.http.console import ConsoleRequest, Problem

HOUSE = "staff/house.html"


def _context(problem: Problem | None = None, given: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "current": house_settings_current(),
        "versions": HouseSettings.objects.select_related("changed_by").order_by("-pk")[:50],
        "currencies": Currency.choices,
        "ties": LevyTieRule.choices,
        "records": LevyRecord.choices,
        "problem": problem,
        "given": given or {},
    }


def _manager_check(request: ConsoleRequest) -> None:
    role_required(request.user, HOUSE_KEEPERS, "see and change the house's settings")


@require_GET
@screen.console_view
def house(request: ConsoleRequest) -> HttpResponse:
    _manager_check(request)
    return screen.page_or_part(request, HOUSE, "house", _context())


@require_POST
@screen.console_view
def house_change(request: ConsoleRequest) -> HttpResponse:
    _manager_check(request)
    given = {name: request.POST[name] for name in HOUSE_FIELDS if request.POST.get(name)}
    try:
        house_settings_change(
            changed_by=screen.staff_of(request),
            reason=request.POST.get("reason", ""),
            client=screen.client_of(request),
            **given,
        )
    except DomainError as error:
        status, problem = screen.refusal(error, "house")
        context = _context(problem, {**given, "reason": request.POST.get("reason", "")})
        return screen.page_or_part(request, HOUSE, "house", context, status=status)
    return screen.write_answer(request, reverse("house:index"), HOUSE, "house", _context)
