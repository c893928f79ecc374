"""Pages of the establishment: the home page sends each member of staff where his role works."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from establishment.roles import Role
from tables.console.access import on_duty_sessions
from tables.selectors import table_list


@require_GET
@login_required
def home(request: HttpRequest) -> HttpResponse:
    """A croupier sees the tables he is on duty at now; an inspector, an auditor or a manager
    the floor view; anyone else the list of tables."""
    roles = set(request.user.groups.values_list("name", flat=True))
    if roles & {Role.INSPECTOR, Role.AUDITOR, Role.MANAGER}:
        return HttpResponseRedirect(reverse("console:floor"))
    if Role.CROUPIER in roles:
        return render(request, "console/home.html", {"on_duty": on_duty_sessions(request.user)})
    return render(request, "console/home.html", {"tables": table_list(), "on_duty": None})
