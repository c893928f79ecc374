"""The croupier console: server-rendered pages with htmx, adapters over tables.services."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from tables.console import configuration, corrections, floor, home, views

app_name = "console"

urlpatterns: list[URLPattern | URLResolver] = [
    path("floor/", floor.floor, name="floor"),
    path("floor/session/open/", floor.session_open, name="session-open"),
    path("floor/session/close/", floor.session_close, name="session-close"),
    path("floor/tables/open/", floor.table_open, name="table-open"),
    path("tables/<uuid:table_session>/", views.table_screen, name="table"),
    path("tables/<uuid:table_session>/record/", views.action_record, name="record"),
    path("tables/<uuid:table_session>/undo/", corrections.action_undo, name="undo"),
    path("tables/<uuid:table_session>/seq/", views.table_poll, name="poll"),
    path(
        "tables/<uuid:table_session>/session-controls/",
        views.session_controls,
        name="session-controls",
    ),
    path("tables/<uuid:table_session>/close/", floor.table_close, name="table-close"),
    path("tables/<uuid:table_session>/duty/", floor.duty_change, name="duty-change"),
    path("floor/duty/", floor.duty, name="duty"),
    path("floor/voids/", floor.voids, name="voids"),
    path(
        "tables/<uuid:table_session>/interrupt/",
        floor.table_pause,
        {"how": "interrupt"},
        name="interrupt",
    ),
    path(
        "tables/<uuid:table_session>/resume/", floor.table_pause, {"how": "resume"}, name="resume"
    ),
    path("tables/<uuid:table_session>/void/", corrections.void_ask, name="void-request"),
    path("voids/<uuid:void>/", corrections.void_answer, name="void-decide"),
    path("language/", home.language_set, name="language"),
    # The manager's tables screen (issue 13).
    path("tables/manage/", configuration.tables_manage, name="tables-manage"),
    path("tables/manage/create/", configuration.table_add, name="tables-create"),
    path("tables/manage/<uuid:table>/update/", configuration.table_change, name="tables-update"),
    path("tables/manage/<uuid:table>/service/", configuration.table_service, name="tables-service"),
]
