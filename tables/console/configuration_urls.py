"""The manager's tables screen (tables.console.configuration, issue 13), included by the console
under `tables/manage/`: its names are the console's (`console:tables-manage`, …)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from tables.console import configuration

urlpatterns: list[URLPattern | URLResolver] = [
    path("", configuration.tables_manage, name="tables-manage"),
    path("create/", configuration.table_add, name="tables-create"),
    path("<uuid:table>/update/", configuration.table_change, name="tables-update"),
    path("<uuid:table>/service/", configuration.table_service, name="tables-service"),
]
