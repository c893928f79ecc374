"""The books' API: accounts and transactions, read only."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from ledger.api import views

_account = "ledger/accounts/<uuid:account_id>/"
_transaction = "ledger/transactions/<uuid:transaction_id>/"

urlpatterns: list[URLPattern | URLResolver] = [
    path("ledger/accounts/", views.AccountListApi.as_view(), name="account-list"),
    path(_account, views.AccountDetailApi.as_view(), name="account-detail"),
    path("ledger/transactions/", views.TransactionListApi.as_view(), name="transaction-list"),
    path(_transaction, views.TransactionDetailApi.as_view(), name="transaction-detail"),
]
