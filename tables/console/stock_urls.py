"""The floor's numbered sabots and packs (tables.console.stock, model 19) and ticket books
(model 11, columns 4–5), included by the console under `floor/stock/`: its names are the
console's (`console:stock`, …)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from tables.console import stock

urlpatterns: list[URLPattern | URLResolver] = [
    path("", stock.stock, name="stock"),
    path("receive/", stock.receive, name="stock-receive"),
    path("assign/", stock.assign, name="stock-assign"),
    path("return/", stock.take_back, name="stock-return"),
    path("destroy/", stock.destroy, name="stock-destroy"),
    path("tickets/receive/", stock.tickets_receive, name="stock-tickets-receive"),
    path("tickets/assign/", stock.tickets_assign, name="stock-tickets-assign"),
    path("tickets/return/", stock.tickets_return, name="stock-tickets-return"),
    path("tickets/destroy/", stock.tickets_destroy, name="stock-tickets-destroy"),
]
