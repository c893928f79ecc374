"""The admin writes nothing (issue 13, "Every change through a service").

Every change to the house's records goes through a service that checks who acts and writes its
audit row in the same transaction (docs/conventions.md, rules 2 and 7); the admin would do
neither. So every `ModelAdmin` of a domain model, and of the staff's accounts and groups (managed
through the staff screen, `establishment.console.staff`), is built on these: they may be viewed,
never added to, changed or deleted, by anyone, superusers included (Django asks these methods
before any permission a user holds).
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

_M = TypeVar("_M", bound=Model)
_P = TypeVar("_P", bound=Model)


class ReadOnly:
    """No add, change or delete permission: view only."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyAdmin(ReadOnly, admin.ModelAdmin[_M]):
    """A model's admin that only shows it."""


class ReadOnlyTabularInline(ReadOnly, admin.TabularInline[_M, _P]):
    """An inline that only shows its rows."""

    extra = 0
    can_delete = False
