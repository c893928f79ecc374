"""Failed logins, counted and locked out (django-axes): after `LOGIN_FAILURE_LIMIT` failures
(5) within `LOGIN_LOCKOUT_MINUTES` (15) for one username, or from one address, further logins
of that username or from that address are refused for that long, even with the right password
(the backend `axes.backends.AxesStandaloneBackend` refuses before the password is looked at).
The login form, the admin's and the API's token endpoint all authenticate through Django with
the request, so all three are counted and locked alike.

This module is what the product adds to the library: the client's address behind the proxy,
the answer a locked-out person reads (the login page with the reason and the time it ends, or
the API's error shape with `Retry-After`), the audit row of each lockout, what the staff screen
shows, and a manager's unlock (docs/security.md).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from axes.models import AccessAttempt  # type: ignore[import-untyped]  # django-axes has no types
from axes.signals import user_locked_out  # type: ignore[import-untyped]  # django-axes has no types
from axes.utils import reset  # type: ignore[import-untyped]  # django-axes has no types
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm
from django.db import transaction
from django.db.models import Max, Sum
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from establishment.errors import ErrorCode, InvalidStateError
from establishment.roles import Role
from establishment.services import audit
from establishment.staff import role_required

if TYPE_CHECKING:
    from django.contrib.auth.models import User

LOCKED_OUT = ErrorCode.LOCKED_OUT
UNLOCKERS = frozenset({Role.MANAGER})


def lockout_period() -> timedelta:
    """How long a lockout lasts, and the window in which failures are counted."""
    period: timedelta = settings.AXES_COOLOFF_TIME
    return period


def client_address(request: HttpRequest) -> str | None:
    """The client's address: the connection's, or — behind `LOGIN_TRUSTED_PROXIES` proxies
    (nginx: 1, deploy/nginx/casino.conf) — the one the nearest of them saw in
    X-Forwarded-For (the addresses to its left are the client's word and are not trusted)."""
    hops = int(getattr(settings, "LOGIN_TRUSTED_PROXIES", 0))
    forwarded = [
        part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part
    ]
    if hops and len(forwarded) >= hops:
        return forwarded[-hops] or None
    address = request.META.get("REMOTE_ADDR")
    return str(address) if address else None


def locked_until_of(usernames: Iterable[str]) -> dict[str, datetime]:
    """When the lockout of each of `usernames` that is locked out ends (one query)."""
    since = timezone.now() - lockout_period()
    rows = (
        AccessAttempt.objects.filter(username__in=list(usernames), attempt_time__gte=since)
        .values("username")
        .annotate(failures=Sum("failures_since_start"), last=Max("attempt_time"))
    )
    return {
        row["username"]: row["last"] + lockout_period()
        for row in rows
        if row["failures"] >= settings.AXES_FAILURE_LIMIT
    }


def locked_until(username: str) -> datetime | None:
    """When the lockout of `username` ends, or None when it is not locked out."""
    return locked_until_of([username]).get(username)


def _message(until: datetime | None) -> str:
    minutes = math.ceil(lockout_period().total_seconds() / 60)
    text = _(
        "Too many failed logins: this account or this address is locked for %(minutes)s "
        "minutes, even with the right password."
    ) % {"minutes": minutes}
    if until is not None:
        when = formats.time_format(timezone.localtime(until), "H:i")
        text += " " + _("Try again after %(time)s, or ask a manager to unlock it.") % {"time": when}
    return text


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """What a locked-out login gets (`AXES_LOCKOUT_CALLABLE`): 429, with the reason and when it
    ends; the API's error shape under /api/, the login page with its form everywhere else."""
    username = str((credentials or {}).get("username") or request.POST.get("username") or "")
    until = locked_until(username) if username else None
    left = (until or timezone.now() + lockout_period()) - timezone.now()
    retry = max(1, math.ceil(left.total_seconds()))
    message = _message(until)
    if request.path.startswith("/api/"):
        body = {"code": str(LOCKED_OUT), "message": message, "extra": {"retry_after": retry}}
        response: HttpResponse = JsonResponse(body, status=429)
    else:
        form = AuthenticationForm(request, initial={"username": username})
        context = {"form": form, "locked_out": message, "next": request.POST.get("next", "")}
        response = render(request, "registration/login.html", context, status=429)
    response["Retry-After"] = str(retry)
    return response


@receiver(user_locked_out)
def lockout_audit(
    sender: Any, request: HttpRequest, username: str | None, ip_address: str | None, **_: Any
) -> None:
    """An audit row when an account is locked out (`login_locked_out`, with the failures
    counted), and for each login of it refused during a lockout (`login_refused_locked_out`).
    An unknown username has no account to write it against: the library's own access log keeps
    that one."""
    user = get_user_model().objects.filter(username=username or "").first()
    if user is None:
        return
    failures = getattr(request, "axes_failures_since_start", None)
    audit(
        user=user,
        action="login_locked_out" if failures else "login_refused_locked_out",
        client=f"login {ip_address or ''}".strip(),
        username=username,
        address=ip_address or "",
        path=request.path if request is not None else "",
        **({"failures": failures} if failures else {}),
    )


@transaction.atomic
def staff_unlock(*, staff: User, unlocked_by: User, client: str = "") -> int:
    """A manager lifts the lockout of a member of staff: his failed logins are forgotten (from
    every address), with an audit row. Refused when there is nothing to lift."""
    role_required(unlocked_by, UNLOCKERS, "unlock an account")
    until = locked_until(staff.get_username())
    if until is None:
        raise InvalidStateError(
            _("%(username)s is not locked out.") % {"username": staff.get_username()}
        )
    removed = int(reset(username=staff.get_username()))
    audit(
        user=unlocked_by,
        action="login_unlocked",
        client=client,
        username=staff.get_username(),
        was_locked_until=until.isoformat(),
    )
    return removed
