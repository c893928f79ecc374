"""The nightly re-audit (docs/audit.md): every night closed in the last days replayed from its
journals and compared with its books and with its stored report's hash, the history's hash
chains recomputed, the registers verified,
and the night's checks run (reports/audit/findings.py). Each difference raises an alert; each
night checked leaves a `Reaudit` row."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.utils import timezone

from reports.audit.alerts import alert_raise
from reports.audit.findings import corrections_check, odds_check, pace_check, shortfall_check
from reports.audit.models import Alert, AlertKind, Reaudit
from reports.builders import canonical_json, sha256_hex
from reports.history import history_verify
from reports.models import ReportStatus, SettlementReport
from reports.reconciliation import Reconciliation
from reports.registers.verify import first_difference, registers_verify
from reports.services import settlement_content_build


@dataclass
class ReauditResult:
    nights: list[Reaudit] = field(default_factory=list)
    alerts: list[Alert] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not any(night.problems for night in self.nights) and not self.alerts


def reaudit_night(
    report: SettlementReport, built: tuple[dict[str, Any], Reconciliation]
) -> tuple[Reaudit, list[Alert]]:
    """One night again, `built` its report built again now from its journals and books
    (`settlement_content_build(replayed=True)`): against the stored report and its hash, and
    the night's checks."""
    night = report.gaming_session
    content, reconciliation = built
    stored_hash_holds = sha256_hex(report.content) == report.sha256
    rebuilt_same = sha256_hex(canonical_json(content)) == report.sha256
    problems: list[dict[str, object]] = []
    alerts: list[Alert] = []
    if not reconciliation.agrees:
        problems.append({"kind": "books", "differences": reconciliation.differences})
        alerts.append(
            alert_raise(
                AlertKind.BOOKS_DISAGREE,
                f"books:{night.public_id}",
                gaming_session=night,
                differences=reconciliation.differences,
            )
        )
    if not (stored_hash_holds and rebuilt_same):
        where = first_difference(json.loads(report.content), content)
        problem = (
            "the stored report no longer has its SHA-256"
            if not stored_hash_holds
            else f"the report built again differs at {where[0] if where else '?'}"
        )
        problems.append({"kind": "report", "problem": problem})
        alerts.append(
            alert_raise(
                AlertKind.HASH_BROKEN,
                f"report:{report.public_id}",
                gaming_session=night,
                what=f"settlement report of {night.opened_at:%Y-%m-%d}",
                problem=problem,
            )
        )
    alerts += corrections_check(night) + pace_check(night) + shortfall_check(report, content)
    alerts += odds_check(night)
    run = Reaudit.objects.create(
        run_at=timezone.now(),
        gaming_session=night,
        books_agree=reconciliation.agrees,
        same_report=stored_hash_holds and rebuilt_same,
        problems=problems,
    )
    return run, alerts


def reaudit_recent(*, days: int) -> ReauditResult:
    """Every night closed in the last `days` days with its report ready, then the history's
    hash chains (`history_verify`) and the registers."""
    since = timezone.now() - timedelta(days=days)
    result = ReauditResult()
    # Each night is built again once, for its own check and for its registers'.
    rebuilt: dict[int, tuple[dict[str, Any], Reconciliation]] = {}
    reports = SettlementReport.objects.filter(
        status=ReportStatus.READY, gaming_session__closed_at__gte=since
    ).select_related("gaming_session")
    for report in reports.order_by("gaming_session__closed_at"):
        built = settlement_content_build(gaming_session=report.gaming_session, replayed=True)
        rebuilt[report.gaming_session_id] = built
        run, alerts = reaudit_night(report, built)
        result.nights.append(run)
        result.alerts += alerts
    for broken in history_verify().breaks:
        result.alerts.append(
            alert_raise(
                AlertKind.HASH_BROKEN,
                f"chain:{broken.chain}:{broken.position}",
                what=broken.chain,
                problem=str(broken),
            )
        )
    for problem in registers_verify(rebuilt):
        result.alerts.append(
            alert_raise(
                AlertKind.HASH_BROKEN,
                f"register:{problem.register}",
                what=problem.register,
                problem=f"{problem.where}: {problem.what}",
            )
        )
    return result
