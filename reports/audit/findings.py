"""What the nightly re-audit looks for besides the books and the hashes (docs/audit.md,
"Alerts"): a croupier correcting too often, a table playing at an unusual pace, a counted
cagnotte short of the levies booked, a table's results far from its game's odds. Each check
reads one night and raises an alert per finding
(`reports.audit.alerts.alert_raise`, once per finding)."""

from __future__ import annotations

import statistics
from collections import Counter
from typing import Any

from django.conf import settings
from django.db.models import Count, Max

from establishment.models import GamingSession
from reports.audit.alerts import alert_raise
from reports.audit.models import Alert, AlertKind
from reports.counts import cagnotte_compare, count_rows
from reports.models import SettlementReport
from reports.odds.selectors import odds_audit_get
from tables.models import EventKind, TableEvent, TableSession, VoidRequest

# The pace of a séance shorter than this, or of a table with fewer earlier séances, says nothing.
PACE_SHORTEST_HOURS = 0.5
PACE_HISTORY_MIN = 3
PACE_HISTORY = 20


def corrections_check(gaming_session: GamingSession) -> list[Alert]:
    """A croupier with more undos and void requests in the night than the house allows
    (`ALERT_CORRECTIONS_PER_NIGHT`)."""
    undos = Counter(
        {
            row["recorded_by__username"]: row["n"]
            for row in TableEvent.objects.filter(
                table_session__gaming_session=gaming_session, kind=EventKind.UNDO
            )
            .values("recorded_by__username")
            .annotate(n=Count("pk"))
        }
    )
    voids = Counter(
        {
            row["requested_by__username"]: row["n"]
            for row in VoidRequest.objects.filter(
                coup__table_session__gaming_session=gaming_session
            )
            .values("requested_by__username")
            .annotate(n=Count("pk"))
        }
    )
    most = settings.ALERT_CORRECTIONS_PER_NIGHT
    return [
        alert_raise(
            AlertKind.CORRECTIONS,
            f"corrections:{gaming_session.public_id}:{person}",
            gaming_session=gaming_session,
            person=person,
            undos=undos[person],
            voids=voids[person],
            most=most,
        )
        for person in sorted(set(undos) | set(voids))
        if undos[person] + voids[person] > most
    ]


def _pace(seance: TableSession, coups: int) -> float | None:
    """Coups per hour of a closed séance, or None when it was too short to tell."""
    if seance.closed_at is None:
        return None
    hours = (seance.closed_at - seance.opened_at).total_seconds() / 3600
    return round(coups / hours, 1) if hours >= PACE_SHORTEST_HOURS else None


def pace_check(gaming_session: GamingSession) -> list[Alert]:
    """A séance whose coups per hour fall outside its table's usual pace (the median of its
    last séances of the same game) divided or multiplied by `ALERT_PACE_FACTOR_PERCENT` / 100.

    Two queries: the night's tables, then every séance of theirs up to the night's last, its
    coups counted; each séance's history is read from that list."""
    factor = settings.ALERT_PACE_FACTOR_PERCENT / 100
    tonight = TableSession.objects.filter(gaming_session=gaming_session)
    last = tonight.aggregate(last=Max("opened_at"))["last"]
    seances = list(
        TableSession.objects.filter(table_id__in=tonight.values("table_id"), opened_at__lte=last)
        .select_related("table")
        .annotate(coups_played=Count("coups"))
        .order_by("-opened_at")
    )
    raised = []
    for seance in (s for s in seances if s.gaming_session_id == gaming_session.pk):
        pace = _pace(seance, seance.coups_played)
        if pace is None:
            continue
        earlier = [
            other
            for other in seances
            if other.table_id == seance.table_id
            and other.game == seance.game
            and other.opened_at < seance.opened_at
        ][:PACE_HISTORY]
        history = [p for other in earlier if (p := _pace(other, other.coups_played)) is not None]
        if len(history) < PACE_HISTORY_MIN:
            continue
        usual = statistics.median(history)
        if usual / factor <= pace <= usual * factor:
            continue
        raised.append(
            alert_raise(
                AlertKind.ABNORMAL_PACE,
                f"pace:{seance.public_id}",
                gaming_session=gaming_session,
                table_number=seance.table.number,
                pace=pace,
                usual=round(usual, 1),
                seances=len(history),
            )
        )
    return raised


def shortfall_check(report: SettlementReport, content: dict[str, Any]) -> list[Alert]:
    """Each table whose counted cagnotte fell short of the levies booked (art. 70)."""
    counts = report.counts.select_related("table", "table_session", "counted_by", "witness")
    comparison = cagnotte_compare(content["cagnotte"], count_rows(counts))
    return [
        alert_raise(
            AlertKind.CAGNOTTE_SHORTFALL,
            f"shortfall:{report.gaming_session.public_id}:{row['table']}",
            gaming_session=report.gaming_session,
            table_number=row["table"],
            counted=row["counted"],
            expected=row["expected"],
            difference=row["difference"],
        )
        for row in comparison["rows"]
        if row["kind"] == "shortfall"
    ]


def odds_check(gaming_session: GamingSession) -> list[Alert]:
    """Each measure of a table of the night whose result is more than 3 standard errors from
    its expected value (the statistical audit, docs/odds.md, "The audit")."""
    journees = list(
        TableSession.objects.filter(gaming_session=gaming_session)
        .values_list("journee", flat=True)
        .distinct()
    )
    if not journees:
        return []
    audit = odds_audit_get(grouping="table", date_from=min(journees), date_to=max(journees))
    return [
        alert_raise(
            AlertKind.STATISTICAL_FLAG,
            f"odds:{gaming_session.public_id}:{row.group.key}:{cell.measure}",
            gaming_session=gaming_session,
            measure=cell.measure,
            where=row.group.label,
            z=None if cell.z is None else round(cell.z, 2),
            coups=row.coups,
            observed=round(cell.observed, 4),
            expected=round(cell.expected, 4),
        )
        for row in audit.rows
        for cell in row.cells
        if cell.flagged
    ]
