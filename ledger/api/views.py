"""The books, read only: accounts with their balances, transactions with their entries.

Auditors, managers and inspectors. Nothing here writes: only `ledger.services.post` does, and
corrections are reversals approved through a void (docs/ledger.md).
"""

from __future__ import annotations

from uuid import UUID

from django.db.models import QuerySet
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from establishment.http.fields import UsernameField
from establishment.http.lookups import found_or_404
from establishment.http.pagination import (
    DateTimeFilter,
    ListApi,
    ListFilter,
    Pagination,
    list_api,
)
from establishment.http.permissions import IsStaff, ReadsEverything
from ledger.models import Account, AccountKind, Entry, Side, Transaction
from ledger.selectors import account_balance_get


# The books are read by auditors, managers and inspectors only: every view here is one of these.
# No docstring: drf-spectacular would take it for the description of a view that has none.
class _BooksApi(APIView):
    permission_classes = [IsStaff, ReadsEverything]


# -- accounts --------------------------------------------------------------------------------


class AccountOutputSerializer(serializers.ModelSerializer[Account]):
    """A place chips can be (COM-5.2). Its balance is credits minus debits (docs/ledger.md)."""

    player = serializers.CharField(
        source="player.member_number", allow_null=True, read_only=True, help_text="Member number."
    )
    gaming_session = serializers.UUIDField(
        source="gaming_session.public_id", allow_null=True, read_only=True
    )
    balance_chips = serializers.SerializerMethodField()

    class Meta:
        model = Account
        fields = [
            "public_id",
            "kind",
            "player",
            "gaming_session",
            "place",
            "number",
            "created_at",
            "balance_chips",
        ]

    def get_balance_chips(self, account: Account) -> int:
        return account_balance_get(account=account)


def _place_filter() -> filters.CharFilter:
    return filters.CharFilter(
        field_name="place",
        label=(
            "Where the chips are, as the tables name it: `table:<table id>` or "
            "`table-session:<table session id>` (public ids)."
        ),
    )


class AccountFilter(ListFilter):
    kind = filters.ChoiceFilter(choices=AccountKind.choices)
    gaming_session = filters.UUIDFilter(field_name="gaming_session__public_id")
    place = _place_filter()
    member_number = filters.CharFilter(field_name="player__member_number")


def _accounts() -> QuerySet[Account]:
    return Account.objects.select_related("player", "gaming_session")


class AccountPagination(Pagination):
    # Each balance is read by `account_balance_get`, the books' one reading of a balance: a
    # page is kept to 100 accounts.
    max_page_size = 100


@list_api(AccountOutputSerializer, filterset=AccountFilter, tags=["ledger"])
class AccountListApi(_BooksApi, ListApi):
    """Accounts with their balance in chips. A player's result in a gaming session is his
    `player_position` account; the cagnotte and the reserve fund are per table and session."""

    pagination_class = AccountPagination

    def get(self, request: Request) -> Response:
        return self.page(request, _accounts().order_by("pk"))


class AccountDetailApi(_BooksApi):
    @extend_schema(responses=AccountOutputSerializer, tags=["ledger"])
    def get(self, request: Request, account_id: UUID) -> Response:
        found = found_or_404(_accounts(), "No such account.", public_id=account_id)
        return Response(AccountOutputSerializer(found).data)


# -- transactions ----------------------------------------------------------------------------


class EntryOutputSerializer(serializers.ModelSerializer[Entry]):
    account = serializers.UUIDField(source="account.public_id", read_only=True)
    account_kind = serializers.ChoiceField(
        source="account.kind", choices=AccountKind.choices, read_only=True
    )
    side = serializers.ChoiceField(choices=Side.choices, read_only=True)
    amount_chips = serializers.IntegerField(source="amount", read_only=True)

    class Meta:
        model = Entry
        fields = ["account", "account_kind", "side", "amount_chips", "reason"]


class TransactionOutputSerializer(serializers.ModelSerializer[Transaction]):
    """A balanced set of entries posted at once: debits and credits sum to zero."""

    posted_by = UsernameField(source="posted_by.username")
    gaming_session = serializers.UUIDField(
        source="gaming_session.public_id", allow_null=True, read_only=True
    )
    reverses = serializers.UUIDField(source="reverses.public_id", allow_null=True, read_only=True)
    reversed_by = serializers.UUIDField(
        source="reversed_by.public_id", allow_null=True, read_only=True
    )
    entries = EntryOutputSerializer(many=True, read_only=True)

    class Meta:
        model = Transaction
        fields = [
            "public_id",
            "idempotency_key",
            "posted_at",
            "posted_by",
            "memo",
            "gaming_session",
            "place",
            "reverses",
            "reversed_by",
            "entries",
        ]


class TransactionFilter(ListFilter):
    gaming_session = filters.UUIDFilter(field_name="gaming_session__public_id")
    place = _place_filter()
    account = filters.UUIDFilter(
        field_name="entries__account__public_id", distinct=True, label="Only those touching it."
    )
    posted_after = DateTimeFilter(field_name="posted_at", lookup_expr="gte")
    posted_before = DateTimeFilter(field_name="posted_at", lookup_expr="lt")


def _transactions() -> QuerySet[Transaction]:
    return Transaction.objects.select_related(
        "posted_by", "gaming_session", "reverses", "reversed_by"
    ).prefetch_related("entries__account")


@list_api(TransactionOutputSerializer, filterset=TransactionFilter, tags=["ledger"])
class TransactionListApi(_BooksApi, ListApi):
    """Ledger transactions in the order they were posted, each with its entries."""

    def get(self, request: Request) -> Response:
        return self.page(request, _transactions().order_by("posted_at", "pk"))


class TransactionDetailApi(_BooksApi):
    @extend_schema(responses=TransactionOutputSerializer, tags=["ledger"])
    def get(self, request: Request, transaction_id: UUID) -> Response:
        found = found_or_404(_transactions(), "No such transaction.", public_id=transaction_id)
        return Response(TransactionOutputSerializer(found).data)
