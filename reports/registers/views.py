"""The registers' screens (docs/registers.md, "Outputs"): for any journée, month or séance, the
register on screen, as a PDF to print and as CSV; the manager signs the registre de contrôle,
closes the month and approves a rectification, each time with his own password. Managers and
auditors read, and ask for a season's archive ("Retention"). Views parse, call one service or
selector, render.

Model 11 and the archives are built by workers (reports/tasks.py): while a counted séance's
model 11 is being prepared, or an archive is, the page says so and polls with htmx every second
(`journee_progress`, `seance_progress`, `archive_progress`, as the settlement report's
`report_progress` does) until it is there."""

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
from django_htmx.http import HttpResponseClientRedirect

from establishment.errors import DomainError, PermissionDeniedError
from establishment.http.errors import error_body
from establishment.roles import Role
from establishment.staff import has_role
from reports.models import Register, RegisterArchive, ReportStatus
from reports.registers.archive import (
    registers_archive_get,
    registers_archive_list,
    registers_archive_request,
    seasons_played,
)
from reports.registers.builders import MODEL_11, MODEL_12, MODEL_13
from reports.registers.files import register_csv, register_pdf, register_title
from reports.registers.sources import register_latest, registers_latest, without_cagnotte_book
from reports.registers.store import (
    SIGNERS_OF_MODEL_12,
    journee_sign,
    journee_standing,
    model12_draft,
    month_close,
    month_parse,
    register_rectify,
    seances_counted,
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


def _index_context() -> dict[str, Any]:
    days = sorted(
        set(TableSession.objects.values_list("journee", flat=True).distinct()), reverse=True
    )[:93]
    keys = [d.isoformat() for d in days]
    model_12s = registers_latest(kind=MODEL_12, keys=keys)
    seances: dict[str, list[str]] = defaultdict(list)
    ids: dict[str, int] = {}
    # The séances that keep a cagnotte book (a participation fee's keep none, LV-3).
    booked = TableSession.objects.filter(journee__in=days).exclude(without_cagnotte_book())
    for pk, public_id, day in booked.values_list("pk", "public_id", "journee"):
        seances[day.isoformat()].append(str(public_id))
        ids[str(public_id)] = pk
    frozen = registers_latest(kind=MODEL_11, keys=list(ids))
    counted = seances_counted(seance_ids=list(ids.values()))
    months = sorted({d.strftime("%Y-%m") for d in days}, reverse=True)
    model_13s = registers_latest(kind=MODEL_13, keys=months)
    return {
        "journees": [
            {
                "day": key,
                "seances": len(seances[key]),
                "frozen": sum(1 for k in seances[key] if k in frozen),
                "preparing": sum(1 for k in seances[key] if k not in frozen and ids[k] in counted),
                "model_12": _standing(model_12s.get(key)),
            }
            for key in keys
        ],
        "months": [{"month": m, "model_13": _standing(model_13s.get(m))} for m in months],
        "seasons": seasons_played(),
        "archives": registers_archive_list(),
    }


@reading
def index(request: HttpRequest) -> HttpResponse:
    """Every journée played and every month, each with where its registers stand (a model 11
    being prepared is polled until it is there), and the seasons' archives."""
    return render(request, "reports/registers/index.html", _index_context())


def _journee_context(request: HttpRequest, day: date) -> dict[str, Any]:
    standing = journee_standing(journee=day)
    shown = _shown(register_latest(kind=MODEL_12, key=day.isoformat()))
    return {
        "day": day,
        "rows": standing,
        "preparing": sum(1 for s in standing if s.state == "preparing"),
        "shown": shown,
        # What the first signature would store: shown, and its SHA-256 posted with it.
        "draft": None if shown else model12_draft(journee=day, standing=standing),
        "may_sign": has_role(request.user, Role.MANAGER),
    }


@reading
def journee(request: HttpRequest, day: str) -> HttpResponse:
    return render(request, "reports/registers/journee.html", _journee_context(request, _day(day)))


def _drawn_again(request: HttpRequest, target: str) -> HttpResponse:
    """What was being prepared is there: the page is drawn again (htmx follows the redirect)."""
    htmx = request.headers.get("HX-Request") == "true"
    return HttpResponseClientRedirect(target) if htmx else redirect(target)


def _preparing(request: HttpRequest, poll: str, preparing: int) -> HttpResponse:
    return render(
        request, "reports/registers/_preparing.html", {"poll": poll, "preparing": preparing}
    )


@reading
def journee_progress(request: HttpRequest, day: str) -> HttpResponse:
    """Polled by htmx every second while a counted séance of the journée has no model 11 yet;
    once every one is stored, the journée's page (or the index, `?on=index`) is drawn again."""
    found = _day(day)
    preparing = sum(1 for s in journee_standing(journee=found) if s.state == "preparing")
    on_index = request.GET.get("on") == "index"
    if not preparing:
        page = reverse("registers:index") if on_index else reverse("registers:journee", args=[day])
        return _drawn_again(request, page)
    poll = reverse("registers:journee-progress", args=[day]) + ("?on=index" if on_index else "")
    return _preparing(request, poll, preparing)


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
        # The screen always says what it showed: signing without it is refused as unread.
        seen = request.POST.get("expected_sha256", "")
        sign = partial(journee_sign, journee=day, expected_sha256=seen)
        page, back = "reports/registers/journee.html", "registers:journee"
        context: Callable[[], dict[str, Any]] = lambda: _journee_context(request, day)  # noqa: E731
    else:
        sign = partial(month_close, month=key)
        page, back = "reports/registers/register.html", "registers:month"
        context = lambda: _month_context(request, key)  # noqa: E731
    return _signing(request, sign, page, context, reverse(back, args=[key]))


def _seance_found(table_session: UUID) -> TableSession:
    found = TableSession.objects.filter(public_id=table_session).select_related("table").first()
    if found is None:
        raise Http404("No such séance.")
    return found


@reading
def seance(request: HttpRequest, table_session: UUID) -> HttpResponse:
    found = _seance_found(table_session)
    shown = _shown(register_latest(kind=MODEL_11, key=str(table_session)))
    return render(
        request,
        "reports/registers/register.html",
        {
            "shown": shown,
            "seance": found,
            # Counted, its model 11 not stored yet: being prepared by a worker.
            "preparing": shown is None and bool(seances_counted(seance_ids=[found.pk])),
            "may_sign": has_role(request.user, Role.MANAGER),
        },
    )


@reading
def seance_progress(request: HttpRequest, table_session: UUID) -> HttpResponse:
    """Polled by htmx every second while the counted séance's model 11 is being prepared; once
    it is stored (or if the séance was not counted), its page is drawn again."""
    found = _seance_found(table_session)
    frozen = register_latest(kind=MODEL_11, key=str(table_session)) is not None
    if frozen or not seances_counted(seance_ids=[found.pk]):
        return _drawn_again(request, reverse("registers:seance", args=[table_session]))
    return _preparing(request, reverse("registers:seance-progress", args=[table_session]), 1)


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


# -- a season's archive ------------------------------------------------------------------------


@require_POST
@login_required
def archive_request(request: HttpRequest) -> HttpResponse:
    """A manager or an auditor asks for a season's archive; a worker builds it once this
    commits, and the index shows it being prepared, then its download link."""
    try:
        registers_archive_request(
            season=request.POST.get("season", ""),
            user=staff_of_request(request),
            client="registers",
        )
    except PermissionDeniedError as error:  # not a reader: told why, shown nothing
        return HttpResponse(error.message, status=403)
    except DomainError as error:
        return _refused(request, "reports/registers/index.html", _index_context(), error)
    return redirect(reverse("registers:index") + "#archives")


def _archive(public_id: UUID) -> RegisterArchive:
    found = registers_archive_get(public_id=public_id)
    if found is None:
        raise Http404("No such archive.")
    return found


@reading
def archive_progress(request: HttpRequest, public_id: UUID) -> HttpResponse:
    """Polled by htmx every second while the archive is being built; then its download link."""
    return render(request, "reports/registers/_archive.html", {"archive": _archive(public_id)})


@reading
def archive_file(request: HttpRequest, public_id: UUID) -> HttpResponse:
    """The archive's ZIP as it was stored, with its SHA-256."""
    archive = _archive(public_id)
    if archive.status != ReportStatus.READY:
        raise Http404("The archive is not built yet.")
    response = HttpResponse(bytes(archive.data), content_type="application/zip")
    name = f"registers-{archive.season}-{archive.built_at:%Y%m%d-%H%M%S}.zip"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["X-Content-SHA256"] = archive.sha256
    return response
