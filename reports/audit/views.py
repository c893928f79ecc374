"""The auditor's desk on screen: the audit log filtered by person, table, action and time, one
keyset page at a time, and the same rows as CSV (docs/audit.md); any coup replayed, found by its
id or by its table and a moment. Views parse, call one selector, render."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from typing import Any, cast
from uuid import UUID

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext, gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

from establishment.errors import DomainError, InvalidInputError
from establishment.house import house_settings_current, zone
from establishment.http.errors import error_body
from reports.audit.alerts import alert_acknowledge, alert_text, alerts_for
from reports.audit.coup import coup_at, coup_replay_get
from reports.audit.log import (
    AuditLogFilter,
    audit_log_chunks,
    audit_log_page,
    audit_rows,
)
from reports.audit.models import Alert
from reports.views import reading, staff_of_request

CSV_HEADER = ("at", "actor", "action", "table", "table_session", "client", "data", "public_id")


class AuditLogForm(forms.Form):
    """The filters of the audit log; times in the house's time zone."""

    actor = forms.CharField(label=_("Person (username)"), max_length=150, required=False)
    table = forms.IntegerField(label=_("Table"), min_value=1, max_value=2**31 - 1, required=False)
    action = forms.CharField(label=_("Action"), max_length=64, required=False)
    since = forms.DateTimeField(
        label=_("From"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    until = forms.DateTimeField(
        label=_("Until"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )

    def wanted(self) -> AuditLogFilter:
        given = self.cleaned_data
        return AuditLogFilter(
            actor=given["actor"].strip(),
            table=given["table"],
            action=given["action"].strip(),
            since=given["since"],
            until=given["until"],
        )


def _query(request: HttpRequest, **changes: str) -> str:
    """The page's query string with `changes` (the next page's cursor, the CSV's)."""
    query = request.GET.copy()
    for name, value in changes.items():
        query[name] = value
    return query.urlencode()


@reading
def audit_log(request: HttpRequest) -> HttpResponse:
    """A page of the audit log, newest first; "Older" follows the keyset cursor."""
    form = AuditLogForm(request.GET or None)
    context: dict[str, Any] = {"form": form, "rows": [], "next_query": "", "csv_query": ""}
    if request.GET and not form.is_valid():
        return render(request, "reports/audit/log.html", context, status=400)
    wanted = form.wanted() if request.GET else AuditLogFilter()
    try:
        page = audit_log_page(wanted, cursor=request.GET.get("cursor", ""))
    except InvalidInputError as error:
        context["error"] = error.message
        return render(request, "reports/audit/log.html", context, status=400)
    context.update(
        rows=audit_rows(page.rows),
        next_query=_query(request, cursor=page.next_cursor) if page.next_cursor else "",
        csv_query=_query(request, cursor=""),
        zone=timezone.get_current_timezone_name(),
    )
    return render(request, "reports/audit/log.html", context)


def _csv_lines(wanted: AuditLogFilter) -> Iterator[str]:
    class _Line:
        def write(self, text: str) -> str:
            return text

    writer = csv.writer(_Line())
    yield writer.writerow(CSV_HEADER)
    for chunk in audit_log_chunks(wanted):
        for row in audit_rows(chunk):
            yield writer.writerow(
                (
                    row.at.isoformat(),
                    row.actor,
                    row.action,
                    "" if row.table is None else row.table,
                    row.table_session,
                    row.client,
                    json.dumps(row.data, sort_keys=True, ensure_ascii=False),
                    row.public_id,
                )
            )


@reading
def audit_log_csv(request: HttpRequest) -> HttpResponse:
    """Every row the filters select, newest first, as CSV (UTC times), streamed."""
    form = AuditLogForm(request.GET or None)
    if request.GET and not form.is_valid():
        return HttpResponse(form.errors.as_text(), status=400, content_type="text/plain")
    wanted = form.wanted() if request.GET else AuditLogFilter()
    response = StreamingHttpResponse(_csv_lines(wanted), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="audit-log.csv"'
    # Streamed: the screens' decorators speak of HttpResponse, which a stream answers as well.
    return cast(HttpResponse, response)


class CoupFinderForm(forms.Form):
    """A table and a moment in the house's time zone: the coup in play then, or the next."""

    table = forms.IntegerField(
        label=_("Table"),
        min_value=1,
        max_value=2**31 - 1,
        error_messages={
            "required": _("Enter the table's number."),
            "invalid": _("Enter the table's number as a whole number, such as 7."),
        },
    )
    at = forms.DateTimeField(
        label=_("At"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local", "step": "1"}),
        error_messages={
            "required": _("Enter the moment: a date and a time."),
            "invalid": _("Enter the moment as a date and a time, such as 2025-03-14 23:05:00."),
        },
    )


def _desk(
    request: HttpRequest, form: CoupFinderForm, status: int = 200, **more: Any
) -> HttpResponse:
    zone_name = house_settings_current().time_zone
    open_alerts = [(alert, alert_text(alert)) for alert in alerts_for(request.user)[:20]]
    context = {"form": form, "zone": zone_name, "alerts": open_alerts, **more}
    return render(request, "reports/audit/desk.html", context, status=status)


@reading
def desk(request: HttpRequest) -> HttpResponse:
    """The auditor's desk: the alerts still to acknowledge, the coup finder, and what he can
    open from here."""
    return _desk(request, CoupFinderForm())


class AcknowledgeForm(forms.Form):
    reason = forms.CharField(label=_("Why it can be set aside"), max_length=2_000)


def _alerts_context(request: HttpRequest) -> dict[str, Any]:
    state = request.GET.get("state", "open")
    state = state if state in ("open", "acknowledged", "all") else "open"
    alerts = list(alerts_for(request.user, state=state)[:200])
    return {
        "alerts": [(alert, alert_text(alert)) for alert in alerts],
        "state": state,
        "form": AcknowledgeForm(),
    }


@require_GET
@login_required
def alert_list(request: HttpRequest) -> HttpResponse:
    """The alerts the user's roles are shown: open ones first to acknowledge, or the others."""
    return render(request, "reports/audit/alerts.html", _alerts_context(request))


@require_POST
@login_required
def alert_acknowledge_view(request: HttpRequest, public_id: UUID) -> HttpResponse:
    """Acknowledge an alert with a reason; refused in place, changing nothing."""
    alert = Alert.objects.filter(public_id=public_id).first()
    if alert is None:
        raise Http404("No such alert.")
    form = AcknowledgeForm(request.POST)
    try:
        alert_acknowledge(
            alert=alert,
            user=staff_of_request(request),
            reason=form.data.get("reason", ""),
            client="audit",
        )
    except DomainError as error:
        body = error_body(error)
        context = _alerts_context(request)
        context["error"] = body.message
        return render(request, "reports/audit/alerts.html", context, status=body.status)
    return redirect("audit:alerts")


@reading
def coup_find(request: HttpRequest) -> HttpResponse:
    """The coup in play at a table at a moment (the house's time), or the first after it."""
    house_zone = zone(house_settings_current().time_zone)
    with timezone.override(house_zone):
        form = CoupFinderForm(request.GET)
        if not form.is_valid():
            return _desk(request, form, status=400)
        table, moment = form.cleaned_data["table"], form.cleaned_data["at"]
        found = coup_at(table=table, moment=moment)
        if found is None:
            when = formats.date_format(moment.astimezone(house_zone), "Y-m-d H:i:s")
            message = gettext("No coup was in play at table %(table)d at %(at)s or after it.") % {
                "table": table,
                "at": when,
            }
            return _desk(request, form, status=404, not_found=message)
    return redirect(reverse("audit:coup", args=[found.public_id]))


@reading
def coup_replay(request: HttpRequest, public_id: UUID) -> HttpResponse:
    """A coup replayed: its journal lines with the state after each, its money against the
    books, its corrections and its sabot (reports/audit/coup.py)."""
    replay = coup_replay_get(public_id=public_id)
    if replay is None:
        raise Http404(gettext("No such coup."))
    return render(request, "reports/audit/coup.html", {"replay": replay})
