"""Reads at the table level."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from tables.models import SeatOccupancy, Table, TableSession


def table_list(*, active_only: bool = True) -> QuerySet[Table]:
    """Tables by number, each with its open session (if any) and who sits there."""
    open_sessions = TableSession.objects.filter(closed_at__isnull=True).prefetch_related(
        Prefetch(
            "seat_occupancies",
            queryset=SeatOccupancy.objects.filter(left_at__isnull=True).select_related("player"),
            to_attr="seated",
        )
    )
    tables = Table.objects.all()
    if active_only:
        tables = tables.filter(is_active=True)
    return tables.prefetch_related(
        Prefetch("sessions", queryset=open_sessions, to_attr="open_sessions")
    ).order_by("number")
