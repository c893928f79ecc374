"""Read-only views of the books: rows are written by ledger.services.post only."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from ledger.models import Account, Entry, Transaction


class ReadOnlyAdmin(admin.ModelAdmin[Any]):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class EntryInline(admin.TabularInline[Entry, Transaction]):
    model = Entry
    extra = 0
    fields = ["account", "side", "amount", "reason"]
    readonly_fields = ["account", "side", "amount", "reason"]
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "kind", "created_at"]
    list_filter = ["kind"]
    list_select_related = ["player", "gaming_session"]


@admin.register(Transaction)
class TransactionAdmin(ReadOnlyAdmin):
    list_display = ["public_id", "posted_at", "posted_by", "memo", "reverses"]
    search_fields = ["idempotency_key", "memo"]
    date_hierarchy = "posted_at"
    list_select_related = ["posted_by", "reverses"]
    inlines = [EntryInline]
