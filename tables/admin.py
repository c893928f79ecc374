from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tables.models import CroupierAssignment, Sabot, SeatOccupancy, Table, TableSession


@admin.register(Table)
class TableAdmin(admin.ModelAdmin[Table]):
    list_display = ["number", "name", "game", "seat_count", "is_active"]
    list_filter = ["game", "is_active"]
    search_fields = ["name"]

    def get_readonly_fields(self, request: HttpRequest, obj: Table | None = None) -> Any:
        # The number never changes once the table exists (it is on every paper record).
        if obj is not None:
            return ["public_id", "number", "created_at"]
        return ["public_id", "created_at"]


class SeatOccupancyInline(admin.TabularInline[SeatOccupancy, TableSession]):
    model = SeatOccupancy
    extra = 0
    autocomplete_fields = ["player"]


class CroupierAssignmentInline(admin.TabularInline[CroupierAssignment, TableSession]):
    model = CroupierAssignment
    extra = 0
    fk_name = "table_session"


class SabotInline(admin.TabularInline[Sabot, TableSession]):
    model = Sabot
    extra = 0
    readonly_fields = ["public_id"]


@admin.register(TableSession)
class TableSessionAdmin(admin.ModelAdmin[TableSession]):
    list_display = ["table", "gaming_session", "game", "opened_at", "closed_at"]
    list_filter = ["game", "closed_at"]
    list_select_related = ["table", "gaming_session"]
    readonly_fields = ["public_id", "game", "settings", "seat_count"]
    inlines = [SeatOccupancyInline, CroupierAssignmentInline, SabotInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        # Opened through tables.services.table_session_open, which freezes the settings.
        return False


@admin.register(CroupierAssignment)
class CroupierAssignmentAdmin(admin.ModelAdmin[CroupierAssignment]):
    list_display = ["staff", "role", "table_session", "assigned_at", "released_at"]
    list_filter = ["role"]
    list_select_related = ["staff", "table_session__table"]


@admin.register(Sabot)
class SabotAdmin(admin.ModelAdmin[Sabot]):
    list_display = ["number", "table_session", "decks", "opened_at", "closed_at"]
    readonly_fields = ["public_id"]
