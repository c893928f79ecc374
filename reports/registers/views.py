"""The registers' screens (docs/registers.md, "Outputs"): for any journée, month or séance, the
register on screen, as a PDF to print and as CSV; the manager signs the registre de contrôle,
closes the month and approves a rectification, each time with his own password. Managers and
auditors read. Views parse, call one service or selector, render."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from datetime import date
from functools import partial
from typing import Any
from uuid import UUID

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from establishment.errors import DomainError
from establishment.http.errors import error_body
from establishment.roles import Role
from establishment.staff import has_role
from reports.models import Register
from reports.registers.builders import MODEL_11, MODEL_12, MODEL_13
from reports.registers.files import register_csv, register_pdf, register_title
from reports.registers.sources import journee_seances, register_latest, registers_latest
from reports.registers.store import (
    SIGNERS_OF_MODEL_12,
    journee_sign,
    month_close,
    month_parse,
    register_rectify,
    signatures_of,
)
from reports.views import reading, staff_of_request
from tables.models import TableSession

WANTED = {MODEL_11: 1, MODEL_12: SIGNERS_OF_MODEL_12, MODEL_13: 1}


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise Http404("No such journée.") from None


def _shown(register: Register | None) -> dict[str, Any] | None:
    """A stored register as its screen shows it: its content, its signatures, its versions."""
    if register is None:
        return None
    signatures = list(signatures_of(register))
    return {
        "register": register,
        "content": json.loads(register.content),
        "title": register_title(register, json.loads(register.content)),
        "signatures": signatures,
        "complete": len(signatures) >= WANTED[register.kind],
        "versions": list(
            Register.objects.filter(kind=register.kind, key=register.key).order_by("version")
        ),
    }


def _standing(register: Register | None) -> dict[str, bool] | None:
    """Where a register of the index stands, from its annotated `signers` (no query)."""
    if register is None:
        return None
    return {"complete": getattr(register, "signers", 0) >= WANTED[register.kind]}


@reading
def index(request: HttpRequest) -> HttpResponse:
    """Every journée played and every month, each with where its registers stand."""
    days = sorted(
        set(TableSession.objects.values_list("journee", flat=True).distinct()), reverse=True
    )[:93]
    keys = [d.isoformat() for d in days]
    model_12s = registers_latest(kind=MODEL_12, keys=keys)
    seances: dict[str, list[str]] = defaultdict(list)
    for public_id, day in TableSession.objects.filter(journee__in=days).values_list(
        "public_id", "journee"
    ):
        seances[day.isoformat()].append(str(public_id))
    frozen = registers_latest(kind=MODEL_11, keys=[k for ks in seances.values() for k in ks])
    months = sorted({d.strftime("%Y-%m") for d in days}, reverse=True)
    model_13s = registers_latest(kind=MODEL_13, keys=months)
    return render(
        request,
        "reports/registers/index.html",
        {
            "journees": [
                {
                    "day": key,
                    "seances": len(seances[key]),
                    "frozen": sum(1 for k in seances[key] if k in frozen),
                    "model_12": _standing(model_12s.get(key)),
                }
                for key in keys
            ],
            "months": [{"month": m, "model_13": _standing(model_13s.get(m))} for m in months],
        },
    )


def _journee_context(request: HttpRequest, day: date) -> dict[str, Any]:
    seances = list(journee_seances(journee=day))
    frozen = registers_latest(kind=MODEL_11, keys=[str(s.public_id) for s in seances])
    return {
        "day": day,
        "rows": [{"seance": s, "model_11": frozen.get(str(s.public_id))} for s in seances],
        "shown": _shown(register_latest(kind=MODEL_12, key=day.isoformat())),
        "may_sign": has_role(request.user, Role.MANAGER),
    }


@reading
def journee(request: HttpRequest, day: str) -> HttpResponse:
    return render(request, "reports/registers/journee.html", _journee_context(request, _day(day)))


def _refused(
    request: HttpRequest, template: str, context: dict[str, Any], error: DomainError
) -> HttpResponse:
    body = error_body(error)
    return render(request, template, {**context, "error": body.message}, status=body.status)


def _signing(
    request: HttpRequest,
    sign: Callable[..., object],
    template: str,
    context: Callable[[], dict[str, Any]],
    back: str,
) -> HttpResponse:
    """A signature on screen: the signer's own password posted, the service called; a refusal
    shown on the register's page, nothing signed."""
    try:
        sign(
            user=staff_of_request(request),
            password=request.POST.get("password", ""),
            client="registers",
        )
    except DomainError as error:
        return _refused(request, template, context(), error)
    return redirect(back)


@require_POST
@login_required
def signing(request: HttpRequest, key: str, kind: str) -> HttpResponse:
    """The registre de contrôle of a journée signed (`kind` model 12), or the carnet des
    prélèvements of a month closed (model 13), on their pages."""
    if kind == MODEL_12:
        day = _day(key)
        sign = partial(journee_sign, journee=day)
        page, back = "reports/registers/journee.html", "registers:journee"
        context: Callable[[], dict[str, Any]] = lambda: _journee_context(request, day)  # noqa: E731
    else:
        sign = partial(month_close, month=key)
        page, back = "reports/registers/register.html", "registers:month"
        context = lambda: _month_context(request, key)  # noqa: E731
    return _signing(request, sign, page, context, reverse(back, args=[key]))


@reading
def seance(request: HttpRequest, table_session: UUID) -> HttpResponse:
    found = TableSession.objects.filter(public_id=table_session).select_related("table").first()
    if found is None:
        raise Http404("No such séance.")
    return render(
        request,
        "reports/registers/register.html",
        {
            "shown": _shown(register_latest(kind=MODEL_11, key=str(table_session))),
            "seance": found,
            "may_sign": has_role(request.user, Role.MANAGER),
        },
    )


def _month_context(request: HttpRequest, month: str) -> dict[str, Any]:
    return {
        "month": month,
        "shown": _shown(register_latest(kind=MODEL_13, key=month)),
        "may_sign": has_role(request.user, Role.MANAGER),
    }


@reading
def month(request: HttpRequest, month: str) -> HttpResponse:
    try:
        month = month_parse(month)
    except DomainError:
        raise Http404("No such month.") from None
    return render(request, "reports/registers/register.html", _month_context(request, month))


def _register(public_id: UUID) -> Register:
    found = Register.objects.filter(public_id=public_id).first()
    if found is None:
        raise Http404("No such register.")
    return found


def _back(register: Register) -> str:
    if register.kind == MODEL_11:
        return reverse("registers:seance", args=[register.key])
    name = "registers:journee" if register.kind == MODEL_12 else "registers:month"
    return reverse(name, args=[register.key])


@reading
def register_file(request: HttpRequest, public_id: UUID, kind: str) -> HttpResponse:
    register = _register(public_id)
    if kind not in ("pdf", "csv"):
        raise Http404("A register is printed as PDF or exported as CSV.")
    signatures = [
        (s.signed_by.get_username(), s.signed_as, s.signed_at.isoformat())
        for s in signatures_of(register)
    ]
    name = f"{register.kind}-{register.key}-v{register.version}"
    if kind == "pdf":
        data, media = register_pdf(register, signatures, WANTED[register.kind]), "application/pdf"
    else:
        data, media = register_csv(register), "text/csv; charset=utf-8"
    response = HttpResponse(data, content_type=media)
    response["Content-Disposition"] = f'attachment; filename="{name}.{kind}"'
    return response


@require_POST
@login_required
def rectification(request: HttpRequest, public_id: UUID) -> HttpResponse:
    register = _register(public_id)
    try:
        register_rectify(
            register=register,
            reason=request.POST.get("reason", ""),
            user=staff_of_request(request),
            password=request.POST.get("password", ""),
            client="registers",
        )
    except DomainError as error:
        body = error_body(error)
        return HttpResponse(body.message, status=body.status)
    return redirect(_back(register))
