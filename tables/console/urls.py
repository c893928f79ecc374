"""The croupier console: server-rendered pages with htmx, adapters over tables.services."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, include, path

from tables.console import corrections, floor, home, views

app_name = "console"

_table = "tables/<uuid:table_session>/"  # the table screen: one URL per action

urlpatterns: list[URLPattern | URLResolver] = [
    path("floor/", floor.floor, name="floor"),
    path("floor/session/open/", floor.session_open, name="session-open"),
    path("floor/session/close/", floor.session_close, name="session-close"),
    path("floor/tables/open/", floor.table_open, name="table-open"),
    path("floor/duty/", floor.duty, name="duty"),
    path("floor/voids/", floor.voids, name="voids"),
    # The numbered sabots and packs (model 19).
    path("floor/stock/", include("tables.console.stock_urls")),
    path("voids/<uuid:void>/", corrections.void_answer, name="void-decide"),
    path(_table, views.table_screen, name="table"),
    path(f"{_table}seq/", views.table_poll, name="poll"),
    path(f"{_table}session-controls/", views.session_controls, name="session-controls"),
    path(f"{_table}record/", views.action_record, name="record"),
    path(f"{_table}undo/", corrections.action_undo, name="undo"),
    path(f"{_table}void/", corrections.void_ask, name="void-request"),
    path(f"{_table}interrupt/", floor.table_pause, {"how": "interrupt"}, name="interrupt"),
    path(f"{_table}resume/", floor.table_pause, {"how": "resume"}, name="resume"),
    path(f"{_table}duty/", floor.duty_change, name="duty-change"),
    path(f"{_table}close/", floor.table_close, name="table-close"),
    # The manager's tables screen (issue 13).
    path("tables/manage/", include("tables.console.configuration_urls")),
    path("language/", home.language_set, name="language"),
]
