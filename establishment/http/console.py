"""What every screen (the console, the floor, the establishment's pages) shares: the typed
request, the decorator that answers a refusal, who acts and from where, a refusal shown in
place, the page-or-part answer and the answer of a write.

Refusals come back through `establishment.http.errors.error_body`, the one mapping
(docs/conventions.md, rule 8): a rule refused is a 422 partial in place, a stale screen a 409,
403/404 what the user may not do or see.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import wraps
from typing import Any, Concatenate, ParamSpec

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django_htmx.middleware import HtmxDetails

from establishment.errors import DomainError
from establishment.http.errors import error_body

P = ParamSpec("P")


class ConsoleRequest(HttpRequest):
    """A request through `HtmxMiddleware`, typed: `request.htmx` says whether htmx sent it.

    A type only, never made: the screens import it for their annotations (`TYPE_CHECKING`)."""

    htmx: HtmxDetails


@dataclass(frozen=True)
class Problem:
    """A refusal shown in place: which control it concerns, the code and the rules' words.

    `params` are the engine's parameters of a rule refused (`RuleRefusedError`): the screen
    says it again with the players by name (`tables.words.say`)."""

    type: str
    code: str
    message: str
    params: Mapping[str, Any] | None = None


def staff_of(request: ConsoleRequest) -> User:
    """The logged-in user itself, not the lazy wrapper `request.user` is: the services ask
    `type(user).objects`, which the wrapper's type does not have."""
    user = request.user
    wrapped = getattr(user, "_wrapped", user)
    assert isinstance(wrapped, User)
    return wrapped


def client_of(request: ConsoleRequest) -> str:
    """Where a write comes from, for its audit row (docs/conventions.md, rule 7)."""
    return f"console {request.META.get('REMOTE_ADDR', '')}".strip()


def refusal(error: DomainError, type: str = "") -> tuple[int, Problem]:
    """The status of a service's refusal and the problem it shows (about control `type`)."""
    body = error_body(error)
    return body.status, Problem(type, body.code, body.message)


def form_problem(action_type: str, form: Any) -> Problem:
    """A form that does not validate, said as one problem: each field's errors after its name."""
    messages = []
    for name, errors in form.errors.items():
        label = "" if name == "__all__" else f"{name}: "
        messages += [f"{label}{message}" for message in errors]
    return Problem(action_type, "form_invalid", " ".join(messages))


def page_or_part(
    request: ConsoleRequest, template: str, part: str, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    """The whole page, or (htmx) its partial `part` without the page around it."""
    if request.htmx:
        return HttpResponse(
            render_to_string(f"{template}#{part}", context, request=request), status=status
        )
    return render(request, template, context, status=status)


def write_answer(
    request: ConsoleRequest,
    back_to: str,
    template: str,
    part: str,
    context: Callable[[], dict[str, Any]],
    *,
    status: int = 200,
    notice: str = "",
) -> HttpResponse:
    """The answer of a write on a screen: a browser without htmx is sent back to `back_to` when
    all went well (the notice as a message); else the screen drawn again (`page_or_part`), its
    context worked out only then."""
    if not request.htmx and status == 200:
        if notice:
            messages.success(request, notice)
        return HttpResponseRedirect(back_to)
    return page_or_part(request, template, part, context(), status=status)


def console_view(
    view: Callable[Concatenate[ConsoleRequest, P], HttpResponse],
) -> Callable[Concatenate[ConsoleRequest, P], HttpResponse]:
    """Login required; a refusal raised before the service (reading, scoping) is answered
    with its status and message instead of a bare error page."""

    @wraps(view)
    def wrapper(request: ConsoleRequest, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except DomainError as error:
            status, problem = refusal(error)
            return render(
                request,
                "console/_refusal.html" if request.htmx else "console/refusal.html",
                {"problem": problem},
                status=status,
            )

    return login_required(wrapper)  # type: ignore[return-value]
