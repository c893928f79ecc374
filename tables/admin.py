"""Tables and what happens at them, in the admin: shown, never written
(establishment/http/readonly_admin.py). Tables are configured on the manager's tables screen
(`tables.console.configuration`, through `tables.services`); the rest is written by play."""

from __future__ import annotations

from django.contrib import admin

from establishment.http.readonly_admin import ReadOnlyAdmin, ReadOnlyTabularInline
from tables.models import CroupierAssignment, Sabot, SeatOccupancy, Table, TableSession


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin[Table]):
    list_display = ["number", "name", "game", "seat_count", "is_active"]
    list_filter = ["game", "is_active"]
    search_fields = ["name"]


class SeatOccupancyInline(ReadOnlyTabularInline[SeatOccupancy, TableSession]):
    model = SeatOccupancy


class CroupierAssignmentInline(ReadOnlyTabularInline[CroupierAssignment, TableSession]):
    model = CroupierAssignment
    fk_name = "table_session"


class SabotInline(ReadOnlyTabularInline[Sabot, TableSession]):
    model = Sabot


@admin.register(TableSession)
class TableSessionAdmin(ReadOnlyAdmin[TableSession]):
    list_display = ["table", "gaming_session", "game", "opened_at", "closed_at"]
    list_filter = ["game", "closed_at"]
    list_select_related = ["table", "gaming_session"]
    inlines = [SeatOccupancyInline, CroupierAssignmentInline, SabotInline]


@admin.register(CroupierAssignment)
class CroupierAssignmentAdmin(ReadOnlyAdmin[CroupierAssignment]):
    list_display = ["staff", "role", "table_session", "assigned_at", "released_at"]
    list_filter = ["role"]
    list_select_related = ["staff", "table_session__table"]


@admin.register(Sabot)
class SabotAdmin(ReadOnlyAdmin[Sabot]):
    list_display = ["number", "table_session", "decks", "opened_at", "closed_at"]
