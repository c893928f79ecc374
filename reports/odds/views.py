"""The auditor's screen of the statistical audit (docs/odds.md, "The audit"): the grouping and
the period chosen, a table of groups by measures, the funnel plot, and the same rows as CSV.
Managers and auditors read it (`reports.views.reading`). Views parse, call one selector, render.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from reports.labels import label
from reports.odds.audit import ALPHA, Audit, Cell
from reports.odds.files import audit_csv
from reports.odds.funnel import funnel_of
from reports.odds.query import PARAMETERS, AuditForm, AuditQuery
from reports.odds.selectors import odds_audit_get
from reports.views import reading

# The screen opens on the last month of journées; any period may then be chosen.
DEFAULT_DAYS = 31

MEASURES: dict[str, Promise] = {
    "banker_wins": _("Banker wins"),
    "pontes_win": _("Pontes win"),
    "ties": _("Ties"),
    "natural": _("Naturals"),
    "doublet": _("Doublet (first coup of a pack)"),
    "plie": _("Plié"),
    "pontoon": _("Pontoon (per hand)"),
    "five_card_trick": _("Five-card trick (per hand)"),
    "banker_quadruple": _("Banker's quadruple"),
    "coupeur_quadruple": _("Coupeur's quadruple"),
    "cards_per_coup": _("Cards per coup"),
    "banker_result_per_unit_staked": _("Banker's result per unit staked"),
    "cagnotte_per_unit_staked": _("Cagnotte per unit staked"),
    "banker_result_per_base_stake": _("Banker's result per fond du jeu"),
}


def _form(request: HttpRequest) -> AuditForm:
    """The parameters asked for; with none, the last `DEFAULT_DAYS` journées by table."""
    if any(name in request.GET for name in PARAMETERS):
        return AuditForm(request.GET)
    today = timezone.localdate()
    start = today - timedelta(days=DEFAULT_DAYS - 1)
    return AuditForm({"group": "table", "from": start.isoformat(), "to": today.isoformat()})


def _audit_of(query: AuditQuery) -> Audit:
    return odds_audit_get(
        grouping=query.grouping,
        date_from=query.date_from,
        date_to=query.date_to,
        game=query.game,
    )


def _sections(audit: Audit) -> list[dict[str, Any]]:
    """Per game, its measures and its groups' cells in the same order (None: not known)."""
    sections: list[dict[str, Any]] = []
    for row in audit.rows:
        if not sections or sections[-1]["game"] != row.game:
            sections.append({"game": row.game, "label": label(row.game), "rows": []})
        sections[-1]["rows"].append(row)
    for section in sections:
        names = list(dict.fromkeys(c.measure for r in section["rows"] for c in r.cells))
        section["measures"] = [{"name": n, "label": MEASURES.get(n, n)} for n in names]
        section["rows"] = [
            {"row": row, "cells": [_by_name(row.cells).get(name) for name in names]}
            for row in section["rows"]
        ]
    return sections


def _by_name(cells: tuple[Cell, ...]) -> dict[str, Cell]:
    return {cell.measure: cell for cell in cells}


@reading
def audit(request: HttpRequest) -> HttpResponse:
    """The audit asked for, or the form with what is wrong (400)."""
    form = _form(request)
    if not form.is_valid():
        return render(request, "reports/odds/audit.html", {"form": form}, status=400)
    query = form.query()
    found = _audit_of(query)
    context = {
        "form": form,
        "audit": found,
        "sections": _sections(found),
        "funnel": funnel_of(found),
        "alpha": ALPHA,
        "skipped": [{"row": row, "label": label(row.game)} for row in found.skipped],
        "csv_url": f"{reverse('odds:csv')}?{urlencode(query.as_params())}",
    }
    return render(request, "reports/odds/audit.html", context)


@reading
def audit_file(request: HttpRequest) -> HttpResponse:
    """The rows of the same audit as CSV; wrong parameters are answered 400 with their words."""
    form = _form(request)
    if not form.is_valid():
        words = [str(error) for errors in form.errors.values() for error in errors]
        return HttpResponse("\n".join(words), status=400, content_type="text/plain; charset=utf-8")
    query = form.query()
    response = HttpResponse(audit_csv(_audit_of(query)), content_type="text/csv; charset=utf-8")
    name = "-".join(["odds-audit", *query.as_params().values()])
    response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
    return response
