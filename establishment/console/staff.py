"""The manager's staff screen, and everyone's own password (issue 13).

The list of staff with their roles and whether they may log in; a new member of staff; a member's
page where his roles are set, he is deactivated or reactivated, and a temporary password is set
for him. Each write is a manager's (asked here first, and again by the service), calls one service
of `establishment.staffing` (docs/conventions.md, rule 1) and answers with the screen drawn again:
the page, or with htmx its region, a refusal shown in place (422 for what a form or a validator
refuses, 409/403 for what the house does not allow), never a bare error page.

Changing one's own password is everyone's: Django's `PasswordChangeForm`, then the service (so
the change is audited), then `update_session_auth_hash` so the browser it is changed from stays
logged in. Passwords are kept out of error reports (`sensitive_post_parameters`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from django import forms
from django.contrib import messages
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth.forms import PasswordChangeForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from establishment.access_review import access_review, access_review_csv, unused_days
from establishment.errors import DomainError
from establishment.http.console import (
    Problem,
    client_of,
    console_view,
    page_or_part,
    refusal,
    staff_of,
    write_answer,
)
from establishment.lockout import locked_until, staff_unlock
from establishment.roles import Role
from establishment.staff import roles_check
from establishment.staffing import (
    password_change,
    staff_create,
    staff_deactivate,
    staff_password_reset,
    staff_reactivate,
    staff_roles_set,
)

if TYPE_CHECKING:
    from establishment.http.console import ConsoleRequest

LIST = "staff/list.html"
MEMBER = "staff/member.html"
PASSWORD = "staff/password.html"

T = TypeVar("T")


class StaffCreateForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("Username"), max_length=150)
    first_name = forms.CharField(label=gettext_lazy("First name"), max_length=150, required=False)
    last_name = forms.CharField(label=gettext_lazy("Last name"), max_length=150, required=False)
    roles = forms.MultipleChoiceField(
        label=gettext_lazy("Roles"), choices=Role.choices, required=False
    )
    password = forms.CharField(label=gettext_lazy("Initial password"), strip=False)
    password_again = forms.CharField(label=gettext_lazy("The password again"), strip=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "password" in data and data.get("password_again") != data["password"]:
            self.add_error("password_again", _("The two passwords differ."))
        return data


class RolesForm(forms.Form):
    roles = forms.MultipleChoiceField(
        label=gettext_lazy("Roles"), choices=Role.choices, required=False
    )


class PasswordResetForm(forms.Form):
    password = forms.CharField(label=gettext_lazy("Temporary password"), strip=False)


def _manager_check(request: ConsoleRequest) -> None:
    roles_check(request.user, frozenset({Role.MANAGER}), _("Only a manager may manage the staff."))


def _form_problem(form: forms.Form) -> Problem:
    """A form's errors (its own and the service's) as one problem, each after its label."""
    said = []
    for name, errors in form.errors.items():
        field = form.fields.get(name)
        label = f"{field.label}: " if field is not None and field.label else ""
        said += [f"{label}{message}" for message in errors]
    return Problem("staff", "form_invalid", " ".join(said))


def _refused_into(form: forms.Form, error: ValidationError) -> None:
    """A service's `ValidationError` on the form: on its field when the form has it."""
    if hasattr(error, "error_dict"):
        for name, items in error.error_dict.items():
            form.add_error(name if name in form.fields else None, items)
    else:
        form.add_error(None, error)


def _roles_of(user: User) -> list[str]:
    held = {group.name for group in user.groups.all()}
    return [role for role in Role.values if role in held]


def _member(username: str) -> User:
    found = User.objects.filter(username=username).prefetch_related("groups").first()
    if found is None:
        raise Http404("No such member of staff.")
    return found


def _list_context(**extra: Any) -> dict[str, Any]:
    staff = User.objects.prefetch_related("groups").order_by("-is_active", "username")
    labels = dict(Role.choices)
    rows = [
        {"user": user, "roles": [(role, labels[role]) for role in _roles_of(user)]}
        for user in staff
    ]
    return {
        "rows": rows,
        "role_choices": Role.choices,
        "problem": None,
        "notice": "",
        "create": {},
        "create_roles": [],
    } | extra


def _member_context(member: User, **extra: Any) -> dict[str, Any]:
    return {
        "member": member,
        "locked_until": locked_until(member.get_username()),
        "roles": _roles_of(member),
        "role_choices": Role.choices,
        "problem": None,
        "notice": "",
    } | extra


def _form_write(
    form: forms.Form,
    control: str,
    write: Callable[[dict[str, Any]], T],
    done: Callable[[T], HttpResponse],
    refused: Callable[[int, Problem], HttpResponse],
) -> HttpResponse:
    """A manager's write from `form`: `write` calls the service with what the form cleaned and
    `done` answers with what it returned. A refusal is answered by `refused`, with its status and
    problem: the form's or the service's validators' (422, each error on its field when the form
    has it), or the house's (about control `control`)."""
    if form.is_valid():
        try:
            written = write(form.cleaned_data)
        except ValidationError as error:
            _refused_into(form, error)
        except DomainError as error:
            return refused(*refusal(error, control))
        else:
            return done(written)
    return refused(422, _form_problem(form))


# -- the list and a new member of staff ------------------------------------------------------


@require_GET
@console_view
def staff_list(request: ConsoleRequest) -> HttpResponse:
    """Every account: username, name, roles, active or not."""
    _manager_check(request)
    return page_or_part(request, LIST, "staff", _list_context())


ACCESS_REVIEW = "staff/access_review.html"
ACCESS_REVIEWERS = frozenset({Role.MANAGER, Role.AUDITOR})


def _reviewer_check(request: ConsoleRequest) -> None:
    roles_check(
        request.user, ACCESS_REVIEWERS, _("Only a manager or an auditor may review the access.")
    )


@require_GET
@console_view
def access_review_page(request: ConsoleRequest) -> HttpResponse:
    """Who holds which role, may log in, last did, is locked out; the accounts unused for 90
    days first (establishment/access_review.py)."""
    _reviewer_check(request)
    rows = access_review()
    context = {
        "rows": rows,
        "days": unused_days(),
        "unused": sum(1 for r in rows if r.unused),
        "active": sum(1 for r in rows if r.is_active),
    }
    return render(request, ACCESS_REVIEW, context)


@require_GET
@console_view
def access_review_download(request: ConsoleRequest) -> HttpResponse:
    _reviewer_check(request)
    answer = HttpResponse(
        access_review_csv(access_review()), content_type="text/csv; charset=utf-8"
    )
    day = timezone.localdate().isoformat()
    answer["Content-Disposition"] = f'attachment; filename="access-review-{day}.csv"'
    return answer


@sensitive_post_parameters("password", "password_again")
@require_POST
@console_view
def staff_add(request: ConsoleRequest) -> HttpResponse:
    _manager_check(request)

    def write(data: dict[str, Any]) -> User:
        return staff_create(
            username=data["username"],
            first_name=data["first_name"],
            last_name=data["last_name"],
            roles=data["roles"],
            password=data["password"],
            created_by=staff_of(request),
            client=client_of(request),
        )

    def done(created: User) -> HttpResponse:
        notice = _("%(username)s can log in now.") % {"username": created.username}
        return write_answer(
            request,
            reverse("staff:member", args=[created.username]),
            LIST,
            "staff",
            lambda: _list_context(notice=notice),
            notice=notice,
        )

    def refused(status: int, problem: Problem) -> HttpResponse:
        # What was typed stays typed, but for the passwords.
        posted = request.POST
        typed = {name: posted.get(name, "") for name in ("username", "first_name", "last_name")}
        context = _list_context(problem=problem, create=typed, create_roles=posted.getlist("roles"))
        return page_or_part(request, LIST, "staff", context, status=status)

    return _form_write(StaffCreateForm(request.POST), "staff", write, done, refused)


# -- a member of staff -----------------------------------------------------------------------


@require_GET
@console_view
def staff_member(request: ConsoleRequest, username: str) -> HttpResponse:
    _manager_check(request)
    member = _member(username)
    return page_or_part(request, MEMBER, "member", _member_context(member))


def _member_answer(
    request: ConsoleRequest,
    username: str,
    *,
    notice: str = "",
    status: int = 200,
    problem: Problem | None = None,
) -> HttpResponse:
    return write_answer(
        request,
        reverse("staff:member", args=[username]),
        MEMBER,
        "member",
        lambda: _member_context(_member(username), notice=notice, problem=problem),
        status=status,
        notice=notice,
    )


def _member_write(
    request: ConsoleRequest,
    username: str,
    control: str,
    write: Callable[[User, dict[str, Any]], str],
    form_class: type[forms.Form] = forms.Form,
) -> HttpResponse:
    """A write on a member's page, from its form (`forms.Form`: one without fields): `write`
    calls the service for the member and says what was done; the page again, with that notice
    or with the refusal."""
    _manager_check(request)
    member = _member(username)
    return _form_write(
        form_class(request.POST),
        control,
        partial(write, member),
        done=lambda notice: _member_answer(request, username, notice=notice),
        refused=lambda status, problem: _member_answer(
            request, username, status=status, problem=problem
        ),
    )


@require_POST
@console_view
def roles_set(request: ConsoleRequest, username: str) -> HttpResponse:
    def write(member: User, data: dict[str, Any]) -> str:
        staff_roles_set(
            staff=member, roles=data["roles"], set_by=staff_of(request), client=client_of(request)
        )
        return _("The roles of %(username)s are saved.") % {"username": username}

    return _member_write(request, username, "roles", write, RolesForm)


@require_POST
@console_view
def access_set(request: ConsoleRequest, username: str, active: bool) -> HttpResponse:
    """Deactivate an account (it is logged out everywhere), or reactivate it."""

    def write(member: User, data: dict[str, Any]) -> str:
        if active:
            staff_reactivate(
                staff=member, reactivated_by=staff_of(request), client=client_of(request)
            )
            return _("%(username)s can log in again.") % {"username": username}
        staff_deactivate(staff=member, deactivated_by=staff_of(request), client=client_of(request))
        return _("%(username)s is deactivated and logged out everywhere.") % {"username": username}

    return _member_write(request, username, "active", write)


@require_POST
@console_view
def unlock(request: ConsoleRequest, username: str) -> HttpResponse:
    """Lift the lockout of an account after too many failed logins (establishment/lockout.py)."""

    def write(member: User, data: dict[str, Any]) -> str:
        staff_unlock(staff=member, unlocked_by=staff_of(request), client=client_of(request))
        return _("%(username)s can try to log in again.") % {"username": username}

    return _member_write(request, username, "unlock", write)


@sensitive_post_parameters("password")
@require_POST
@console_view
def password_reset(request: ConsoleRequest, username: str) -> HttpResponse:
    def write(member: User, data: dict[str, Any]) -> str:
        staff_password_reset(
            staff=member,
            password=data["password"],
            reset_by=staff_of(request),
            client=client_of(request),
        )
        return _(
            "%(username)s's password is reset and he is logged out everywhere; "
            "give him the temporary password."
        ) % {"username": username}

    return _member_write(request, username, "password", write, PasswordResetForm)


# -- one's own password ----------------------------------------------------------------------


@sensitive_post_parameters("old_password", "new_password1", "new_password2")
@require_http_methods(["GET", "POST"])
@console_view
def own_password(request: ConsoleRequest) -> HttpResponse:
    """Change my password: the old one, the new one twice (Django's form and validators)."""
    user = staff_of(request)
    if request.method != "POST":
        return render(request, PASSWORD, {"form": PasswordChangeForm(user)})
    form = PasswordChangeForm(user, request.POST)
    if form.is_valid():
        try:
            password_change(
                user=user,
                old_password=form.cleaned_data["old_password"],
                new_password=form.cleaned_data["new_password1"],
                client=client_of(request),
            )
        except ValidationError as error:
            _refused_into(form, error)
        else:
            update_session_auth_hash(request, user)
            messages.success(request, _("Your password is changed."))
            return HttpResponseRedirect(reverse("home"))
    problem = _form_problem(form)
    return render(request, PASSWORD, {"form": form, "problem": problem}, status=422)
