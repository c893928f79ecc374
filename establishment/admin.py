from __future__ import annotations

from django.contrib import admin

from establishment.models import GamingSession, Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ["name", "member_number", "created_at"]
    search_fields = ["name", "member_number"]
    readonly_fields = ["public_id", "created_at"]


@admin.register(GamingSession)
class GamingSessionAdmin(admin.ModelAdmin[GamingSession]):
    list_display = ["__str__", "opened_at", "opened_by", "closed_at", "closed_by"]
    list_filter = ["closed_at"]
    date_hierarchy = "opened_at"
    readonly_fields = ["public_id"]
    list_select_related = ["opened_by", "closed_by"]
