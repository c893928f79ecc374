"""The establishment in the admin: shown, never written (establishment/http/readonly_admin.py).

Staff accounts and groups are managed through the staff screen (`establishment.console.staff`,
through `establishment.staffing`), so Django's own admins of `User` and `Group` are replaced by
read-only ones here (django.contrib.auth is installed before this app: its admins exist).
"""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group, User
from rest_framework.authtoken.admin import TokenAdmin
from rest_framework.authtoken.models import TokenProxy

from establishment.http.readonly_admin import ReadOnly, ReadOnlyAdmin
from establishment.models import GamingSession, Player


@admin.register(Player)
class PlayerAdmin(ReadOnlyAdmin[Player]):
    list_display = ["name", "member_number", "created_at"]
    search_fields = ["name", "member_number"]
    readonly_fields = ["public_id", "created_at"]


@admin.register(GamingSession)
class GamingSessionAdmin(ReadOnlyAdmin[GamingSession]):
    list_display = ["__str__", "opened_at", "opened_by", "closed_at", "closed_by"]
    list_filter = ["closed_at"]
    date_hierarchy = "opened_at"
    readonly_fields = ["public_id"]
    list_select_related = ["opened_by", "closed_by"]


class StaffUserAdmin(ReadOnly, UserAdmin):  # type: ignore[type-arg]
    """Accounts, shown: created, given roles, deactivated and reset on the staff screen."""


class RoleGroupAdmin(ReadOnly, GroupAdmin):
    """Roles are groups made by migrations (establishment/roles.py); shown only."""


class ApiTokenAdmin(ReadOnly, TokenAdmin):
    """API tokens, shown: deleted when their account is deactivated or its password reset."""


for model, model_admin in (
    (User, StaffUserAdmin),
    (Group, RoleGroupAdmin),
    (TokenProxy, ApiTokenAdmin),
):
    if admin.site.is_registered(model):
        admin.site.unregister(model)
    admin.site.register(model, model_admin)
