"""Read-only views of the books: rows are written by ledger.services.post only
(establishment/http/readonly_admin.py)."""

from __future__ import annotations

from django.contrib import admin

from establishment.http.readonly_admin import ReadOnlyAdmin, ReadOnlyTabularInline
from ledger.models import Account, Entry, Transaction


class EntryInline(ReadOnlyTabularInline[Entry, Transaction]):
    model = Entry
    fields = ["account", "side", "amount", "reason"]
    readonly_fields = ["account", "side", "amount", "reason"]


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin[Account]):
    list_display = ["__str__", "kind", "created_at"]
    list_filter = ["kind"]
    list_select_related = ["player", "gaming_session"]


@admin.register(Transaction)
class TransactionAdmin(ReadOnlyAdmin[Transaction]):
    list_display = ["public_id", "posted_at", "posted_by", "memo", "reverses"]
    search_fields = ["idempotency_key", "memo"]
    date_hierarchy = "posted_at"
    list_select_related = ["posted_by", "reverses"]
    inlines = [EntryInline]
