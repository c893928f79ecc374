"""What the audit reads (docs/architecture.md, "Adding a report"): the table sessions of the
period, their journals, the croupiers' duty periods and the bankers' names, in four queries
whatever the number of tables and coups (the journals in one, read as a stream).

The period is of journées (`TableSession.journee`, the house's gaming day, so that a night that
ends after midnight is one night), `date_from` and `date_to` included, either open.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from itertools import groupby
from operator import itemgetter
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from establishment.models import Player
from reports.labels import label
from reports.odds.audit import Audit, Duty, Group, SessionInfo, audit_build
from reports.odds.replay import CoupSeen, coups_replayed
from tables.engine.money import BANKER_WIN
from tables.models import AssignmentRole, CroupierAssignment, TableEvent, TableSession


def _period(prefix: str, date_from: date | None, date_to: date | None, game: str | None) -> Q:
    """The table sessions of the period (and of `game`), through `prefix` from another model."""
    found = Q()
    if date_from is not None:
        found &= Q(**{f"{prefix}journee__gte": date_from})
    if date_to is not None:
        found &= Q(**{f"{prefix}journee__lte": date_to})
    if game:
        found &= Q(**{f"{prefix}game": game})
    return found


def _staff_label(user: Any) -> str:
    return str(user.get_full_name() or user.get_username())


def _sessions(where: Q) -> dict[int, tuple[TableSession, SessionInfo]]:
    found = {}
    for ts in TableSession.objects.filter(where).select_related("table", "gaming_session"):
        table = ts.table
        model = str(ts.settings.get("levy_model", BANKER_WIN))
        named = _("Table %(number)s") % {"number": table.number}
        night = Group(
            "night", str(ts.gaming_session.public_id), _("Night of %(day)s") % {"day": ts.journee}
        )
        info = SessionInfo(
            game=ts.game,
            settings=ts.settings,
            table=Group("table", str(table.public_id), f"{named} {table.name}".strip()),
            night=night,
            levy=Group("levy", model, label(model)),
        )
        found[ts.pk] = (ts, info)
    return found


def _duties(where: Q) -> dict[int, list[Duty]]:
    found: dict[int, list[Duty]] = {}
    rows = (
        CroupierAssignment.objects.filter(where, role=AssignmentRole.CROUPIER)
        .select_related("staff")
        .order_by("table_session_id", "assigned_at")
    )
    for row in rows:
        group = Group("croupier", row.staff.get_username(), _staff_label(row.staff))
        found.setdefault(row.table_session_id, []).append(
            Duty(row.assigned_at, row.released_at, group)
        )
    return found


def audit_coups(
    where: Q, sessions: dict[int, tuple[TableSession, SessionInfo]]
) -> Iterator[CoupSeen]:
    """Every live coup of the period's table sessions, replayed from one stream of events."""
    events = (
        TableEvent.objects.filter(where)
        .order_by("table_session_id", "seq")
        .values_list("table_session_id", "seq", "kind", "action", "sets_aside", "recorded_at")
        .iterator(chunk_size=5000)
    )
    for ts_id, rows in groupby(events, key=itemgetter(0)):
        found = sessions.get(ts_id)
        if found is not None:
            yield from coups_replayed(found[0], (row[1:] for row in rows))


def odds_audit_get(
    *,
    grouping: str,
    date_from: date | None = None,
    date_to: date | None = None,
    game: str | None = None,
) -> Audit:
    """The audit of the period's recorded coups grouped by `grouping` (`audit.GROUPINGS`)."""
    sessions = _sessions(_period("", date_from, date_to, game))
    duties = _duties(_period("table_session__", date_from, date_to, game))
    infos = {pk: replace(info, duties=duties.get(pk, ())) for pk, (_ts, info) in sessions.items()}
    coups = list(audit_coups(_period("table_session__", date_from, date_to, game), sessions))
    bankers: dict[str, str] = {}
    if grouping == "banker":
        codes = {coup.banker for coup in coups if coup.banker}
        for code, name in Player.objects.filter(member_number__in=codes).values_list(
            "member_number", "name"
        ):
            bankers[code] = f"{name} ({code})"
    return audit_build(
        grouping=grouping,
        coups=coups,
        sessions=infos,
        bankers=bankers,
        date_from=date_from,
        date_to=date_to,
        game=game,
    )
