"""Pages of the establishment: the home page sends each member of staff where his role works;
the language he works in is his own, kept across devices."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRefresh

from establishment.http.console import console_view, staff_of
from establishment.models import StaffPreference
from establishment.roles import Role
from establishment.staff import roles_of
from tables.console.access import on_duty_sessions
from tables.console.forms import LanguageForm
from tables.models import AssignmentRole
from tables.selectors import table_list

if TYPE_CHECKING:
    from establishment.http.console import ConsoleRequest


@require_GET
@login_required
def home(request: HttpRequest) -> HttpResponse:
    """A croupier sees the tables he is on duty at now, a changeur those he works at as their
    changeur (each a click from its screen, read-only for him); an inspector or a manager the
    floor view; an auditor his desk (the alerts to acknowledge, where his work starts); the
    reception its players; anyone else the list of tables."""
    roles = roles_of(request.user)
    if roles & {Role.INSPECTOR, Role.MANAGER}:
        return HttpResponseRedirect(reverse("console:floor"))
    if Role.AUDITOR in roles:
        return HttpResponseRedirect(reverse("audit:index"))
    if Role.RECEPTION in roles:
        return HttpResponseRedirect(reverse("reception:players"))
    if Role.CROUPIER in roles:
        return render(request, "console/home.html", {"on_duty": on_duty_sessions(request.user)})
    if Role.CHANGEUR in roles:
        on_duty = on_duty_sessions(request.user, AssignmentRole.CHANGEUR)
        return render(request, "console/home.html", {"on_duty": on_duty})
    return render(request, "console/home.html", {"tables": table_list(), "on_duty": None})


@require_POST
@console_view
def language_set(request: ConsoleRequest) -> HttpResponse:
    """Save the language this member of staff works in; the page is drawn again in it."""
    staff = staff_of(request)
    preference = StaffPreference.objects.filter(user=staff).first()
    form = LanguageForm(request.POST, instance=preference)
    if form.is_valid():
        saved = form.save(commit=False)
        saved.user = staff
        saved.save()
    if request.htmx:
        return HttpResponseClientRefresh()
    back = request.POST.get("next", "")
    safe = url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()})
    return HttpResponseRedirect(back if back and safe else reverse("home"))
