"""The settlement screens: the manager closes the night, watches the report being prepared
(htmx polling), enters the counted cagnotte with a witness and signs off; the auditor opens any
past report and re-runs its reconciliation. Views parse, call one service or selector, render.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial, wraps
from typing import Any
from uuid import UUID

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect, HttpResponseClientRefresh

from establishment.errors import DomainError, PermissionDeniedError
from establishment.http.errors import error_body
from establishment.roles import Role
from establishment.staff import has_role
from reports.audit.alerts import alert_text, alerts_of_night
from reports.audit.coup import coup_public_ids_get
from reports.counting import cagnotte_count_record
from reports.counts import cagnotte_compare, count_rows
from reports.labels import label
from reports.models import ReportStatus, SettlementReport
from reports.renderers import CSV_FILES, PDF_FILE, chart_svg, local_time, pdf_render
from reports.selectors import (
    cagnotte_count_list,
    open_gaming_session_list,
    settlement_report_get,
    settlement_report_list,
)
from reports.services import (
    reconciliation_rerun,
    report_sign_off,
)
from tables.models import Table
from tables.services import gaming_session_close
from tables.words import levy_text

READERS = (Role.MANAGER, Role.AUDITOR)


def staff_of_request(request: HttpRequest) -> User:
    """The signed-in user as a model instance (services check roles on `type(user)`)."""
    return User.objects.get(pk=request.user.pk or 0)


def _reader_check(user: Any) -> None:
    if not any(has_role(user, role) for role in READERS):
        raise PermissionDeniedError("Only a manager or an auditor may see settlement reports.")


def _for_readers(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A screen for managers and auditors: anyone else is answered 403, with the reason."""

    @wraps(view)
    def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            _reader_check(request.user)
        except PermissionDeniedError as error:
            return HttpResponse(error.message, status=403)
        return view(request, *args, **kwargs)

    return checked


def reading(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A screen a reader opens: GET only, signed in, a manager or an auditor (`_for_readers`)."""
    return require_GET(login_required(_for_readers(view)))


def _report(public_id: UUID) -> SettlementReport:
    report = settlement_report_get(public_id=public_id)
    if report is None:
        raise Http404("No such report.")
    return report


def _refused(request: HttpRequest, error: DomainError, report: SettlementReport) -> HttpResponse:
    body = error_body(error)
    context = _detail_context(request, report)
    context["error"] = body.message
    return render(request, "reports/detail.html", context, status=body.status)


@reading
def report_list(request: HttpRequest) -> HttpResponse:
    """Open gaming sessions (to close) and every past report."""
    return render(
        request,
        "reports/list.html",
        {
            "open_sessions": open_gaming_session_list(),
            "reports": settlement_report_list(),
            "may_close": has_role(request.user, Role.MANAGER),
        },
    )


@require_POST
@login_required
def session_close(request: HttpRequest, public_id: UUID) -> HttpResponse:
    """The manager closes the night; the report is sent to a worker once the close commits."""
    session = next((s for s in open_gaming_session_list() if s.public_id == public_id), None)
    if session is None:
        raise Http404("No such open gaming session.")
    try:
        gaming_session_close(
            gaming_session=session,
            user=staff_of_request(request),
            client="reports",
        )
    except DomainError as error:
        body = error_body(error)
        return render(
            request,
            "reports/list.html",
            {
                "open_sessions": open_gaming_session_list(),
                "reports": settlement_report_list(),
                "may_close": True,
                "error": body.message,
            },
            status=body.status,
        )
    report = SettlementReport.objects.filter(gaming_session=session).first()
    target = (
        reverse("reports:detail", args=[report.public_id])
        if report
        else reverse("reports:waiting", args=[session.public_id])
    )
    return redirect(target)


@reading
def session_waiting(request: HttpRequest, public_id: UUID) -> HttpResponse:
    """Before a worker has created the report row: poll until it exists."""
    report = SettlementReport.objects.filter(gaming_session__public_id=public_id).first()
    if report is not None:
        target = reverse("reports:detail", args=[report.public_id])
        htmx = request.headers.get("HX-Request") == "true"
        return HttpResponseClientRedirect(target) if htmx else redirect(target)
    return render(request, "reports/waiting.html", {"session_id": public_id})


def _detail_context(request: HttpRequest, report: SettlementReport) -> dict[str, Any]:
    context: dict[str, Any] = {
        "report": report,
        "ready": report.status == ReportStatus.READY,
        "is_manager": has_role(request.user, Role.MANAGER),
        "is_auditor": has_role(request.user, Role.AUDITOR),
    }
    if report.status != ReportStatus.READY:
        return context
    content = json.loads(report.content)
    counts = list(cagnotte_count_list(report=report))
    comparison = cagnotte_compare(content["cagnotte"], count_rows(counts))
    sign_off = getattr(report, "sign_off", None)
    # Each coup links to its replay (reports/audit/coup.py), found by its séance and line.
    coup_ids = coup_public_ids_get(
        table_sessions=[t.get("table_session", "") for t in content["tables"]]
    )
    for table in content["tables"]:
        table["game_label"] = label(table["game"])
        for coup in table["coups"]:
            coup["local"] = local_time(coup["time"], "%H:%M:%S")
            coup["outcome_label"] = label(coup["outcome"])
            where = (table.get("table_session", ""), coup.get("seq", 0))
            coup["public_id"] = coup_ids.get(where, "")
        for banker in table["bankers"]:
            banker["how_label"] = label(banker["how"])
            banker["ended_label"] = label(banker["ended"])
            banker["from_local"] = local_time(banker["from"], "%H:%M")
            banker["until_local"] = local_time(banker["until"], "%H:%M")
        for person in table["staff"]:
            person["role_label"] = label(person["role"])
            person["from_local"] = local_time(person["from"], "%H:%M")
            person["until_local"] = local_time(person["until"], "%H:%M")
        for pause in table["interruptions"]:
            pause["from_local"] = local_time(pause["from"], "%H:%M:%S")
            pause["until_local"] = local_time(pause["until"], "%H:%M:%S")
        table["reserve_rows"] = [
            (label(key), amount) for key, amount in (table["reserve_fund"] or {}).items()
        ]
        # How the house was paid at the table, and what it charged from the seating (LV-1).
        table["levy_label"] = levy_text(table.get("levy_terms", {}))
        table["levy_rows"] = [(label(r), amount) for r, amount in table.get("levy", {}).items()]
        for fee in table.get("fees", []):
            fee["model_label"] = label(fee["model"])
            fee["from_local"] = local_time(fee["from"], "%d/%m %H:%M")
            fee["until_local"] = local_time(fee["until"], "%d/%m %H:%M")
            fee["at_local"] = local_time(fee["charged_at"], "%H:%M:%S")
        table["opened_local"] = local_time(table["opened_at"])
        table["closed_local"] = local_time(table["closed_at"])
    levy = content.get("levy", {})
    levy["model_rows"] = [(label(m), amount) for m, amount in levy.get("by_model", {}).items()]
    for correction in content["corrections"]:
        correction["kind_label"] = label(correction["kind"])
        correction["at_local"] = local_time(correction["at"])
    for difference in content["reconciliation"]["differences"]:
        difference["label"] = label(difference["kind"])
        difference["detail"] = "; ".join(
            f"{k}={v}" for k, v in sorted(difference.items()) if k not in ("kind", "label")
        )
    for row in comparison["rows"]:
        row["kind_label"] = label(row["kind"])
    context.update(
        {
            "night_alerts": [
                (alert, alert_text(alert)) for alert in alerts_of_night(report.gaming_session)
            ],
            "content": content,
            "session_opened": local_time(content["session"]["opened_at"]),
            "session_closed": local_time(content["session"]["closed_at"]),
            "comparison": comparison,
            "counts": counts,
            "sign_off": sign_off,
            "chart_cagnotte": chart_svg(content, "levy", _("Cagnotte levied, coup after coup")),
            "chart_banks": chart_svg(
                content, "bank_result", _("The banks' results, coup after coup")
            ),
            "csv_files": CSV_FILES,
            "pdf_file": PDF_FILE,
            "pdf_stored": report.files.filter(name=PDF_FILE).exists(),
            "runs": report.reconciliation_runs.select_related("run_by")[:5],
        }
    )
    return context


@reading
def report_detail(request: HttpRequest, public_id: UUID) -> HttpResponse:
    """The report: its progress while a worker prepares it, then the report itself."""
    report = _report(public_id)
    return render(request, "reports/detail.html", _detail_context(request, report))


@reading
def report_progress(request: HttpRequest, public_id: UUID) -> HttpResponse:
    """Polled by htmx every second; once the report is ready the page reloads itself."""
    report = _report(public_id)
    if report.status == ReportStatus.READY:
        return HttpResponseClientRefresh()
    return render(request, "reports/detail.html#progress", {"report": report})


@require_POST
@login_required
def cagnotte_count(request: HttpRequest, public_id: UUID) -> HttpResponse:
    report = _report(public_id)
    try:
        _reader_check(request.user)
        table = Table.objects.filter(number=int(request.POST.get("table", "0"))).first()
        # The witness says who she is and proves it (her password), never picked from a list.
        name = request.POST.get("witness", "").strip()
        witness = User.objects.filter(username=name).first() if name else None
        counted = int(request.POST.get("counted_chips", ""))
        if table is None:
            raise DomainError(_("Choose the table."))
        cagnotte_count_record(
            report=report,
            table=table,
            counted_chips=counted,
            counted_by=staff_of_request(request),
            password=request.POST.get("password", ""),
            witness=witness,
            witness_password=request.POST.get("witness_password", ""),
            note=request.POST.get("note", ""),
            client="reports",
        )
    except ValueError:
        return _refused(request, DomainError(_("Enter the counted amount in chips.")), report)
    except DomainError as error:
        return _refused(request, error, report)
    return _detail_redirect(report, "cagnotte")


def _detail_redirect(report: SettlementReport, section: str) -> HttpResponse:
    """Back to the report's page, at the section just acted upon."""
    return redirect(reverse("reports:detail", args=[report.public_id]) + f"#{section}")


def _report_act(
    request: HttpRequest, public_id: UUID, service: Callable[..., object], section: str
) -> HttpResponse:
    """A report's button with nothing to enter: `service` on the report by the signed-in user."""
    report = _report(public_id)
    try:
        service(report=report, user=staff_of_request(request), client="reports")
    except DomainError as error:
        return _refused(request, error, report)
    return _detail_redirect(report, section)


@require_POST
@login_required
def sign_off(request: HttpRequest, public_id: UUID) -> HttpResponse:
    """The manager signs the report off with his own password (docs/security.md)."""
    sign = partial(report_sign_off, password=request.POST.get("password", ""))
    return _report_act(request, public_id, sign, "sign-off")


@require_POST
@login_required
def rerun(request: HttpRequest, public_id: UUID) -> HttpResponse:
    return _report_act(request, public_id, reconciliation_rerun, "reconciliation")


@reading
def report_file(request: HttpRequest, public_id: UUID, name: str) -> HttpResponse:
    """A file the worker stored (the PDF as closed, the CSV files), with its SHA-256."""
    report = _report(public_id)
    stored = report.files.filter(name=name).first()
    if stored is None:
        raise Http404("No such file.")
    response = HttpResponse(bytes(stored.data), content_type=stored.media_type)
    response["Content-Disposition"] = f'attachment; filename="{_file_name(report, name)}"'
    response["X-Content-SHA256"] = stored.sha256
    return response


@reading
def report_pdf_signed(request: HttpRequest, public_id: UUID) -> HttpResponse:
    """The PDF as it stands now: with the counted cagnotte and the sign-off, if entered."""
    report = _report(public_id)
    if report.status != ReportStatus.READY:
        raise Http404("The report is not ready yet.")
    content = json.loads(report.content)
    counts = count_rows(cagnotte_count_list(report=report))
    signed = None
    done = getattr(report, "sign_off", None)
    if done is not None:
        signed = {
            "by": done.signed_by.get_username(),
            "at": done.signed_at.isoformat(),
            "sha256": done.signed_sha256,
        }
    data = pdf_render(
        content,
        sha256=report.sha256,
        comparison=cagnotte_compare(content["cagnotte"], counts),
        signed=signed,
    )
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{_file_name(report, "signed.pdf")}"'
    return response


def _file_name(report: SettlementReport, name: str) -> str:
    return f"settlement-{report.gaming_session.opened_at:%Y%m%d}-{name}"
