"""The books' API: accounts and transactions, read only."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from ledger.api import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("ledger/accounts/", views.AccountListApi.as_view(), name="account-list"),
    path(
        "ledger/accounts/<uuid:account_id>/",
        views.AccountDetailApi.as_view(),
        name="account-detail",
    ),
    path("ledger/transactions/", views.TransactionListApi.as_view(), name="transaction-list"),
    path(
        "ledger/transactions/<uuid:transaction_id>/",
        views.TransactionDetailApi.as_view(),
        name="transaction-detail",
    ),
]
